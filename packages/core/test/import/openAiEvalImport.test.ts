import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ImportProblem } from "../../src/import/ImportProblem.js"
import { readOpenAiEval } from "../../src/import/openaiEvals/readOpenAiEval.js"
import { importedGraderSet } from "../../src/import/openImportedRun.js"
import { RunJudges } from "../../src/judge/RunJudges.js"

const dir = mkdtempSync(join(tmpdir(), "proctor-openai-evals-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const write = (name: string, value: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value))
  return path
}

const dataSource = {
  type: "completions",
  model: "baseline",
  sampling_params: { temperature: 0, max_completion_tokens: 20 },
  input_messages: {
    type: "template",
    template: [
      { role: "developer", content: "Answer in one word." },
      { role: "user", content: { type: "input_text", text: "Capital of {{ item.country }}?" } },
    ],
  },
}

const definition = (testing_criteria: ReadonlyArray<unknown>) => ({
  name: "capitals check",
  data_source_config: {
    type: "custom",
    item_schema: {
      type: "object",
      properties: { country: { type: "string" }, capital: { type: "string" } },
      required: ["country", "capital"],
    },
    include_sample_schema: true,
  },
  testing_criteria,
  data_source: dataSource,
})

const criterion = (type: string, fields: Record<string, unknown>) => ({
  type,
  name: `${type}-${String(fields.operation ?? fields.evaluation_metric)}`,
  input: "{{ sample.output_text }}",
  reference: "{{ item.capital }}",
  ...fields,
})

const items = write(
  "items.jsonl",
  [{ item: { country: "France", capital: "Paris" } }, { country: "Japan", capital: "Tokyo" }]
    .map((line) => JSON.stringify(line))
    .join("\n"),
)

/** Each criterion's verdict on one answer for the first item (France → Paris). */
const verdicts = (criteria: ReadonlyArray<unknown>, answer: string) => {
  const imported = readOpenAiEval(write("eval.json", definition(criteria)), items)
  const row = imported.rows[0]!
  return importedGraderSet(imported.rows).gradeSync!({ answer, item: row.item }).grades
}

describe("--from-openai-evals: testing criteria by their documented rules", () => {
  it("string_check: eq (case-sensitive equality), ne, like (contains), ilike (contains, any case) score 1 or 0", () => {
    const criteria = ["eq", "ne", "like", "ilike"].map((operation) => criterion("string_check", { operation }))
    const on = (answer: string) =>
      Object.fromEntries(Object.entries(verdicts(criteria, answer)).map(([name, v]) => [name, [v.score, v.passed]]))
    expect(on("Paris")).toEqual({
      score: [0.75, false],
      "string_check-eq": [1, true],
      "string_check-ne": [0, false],
      "string_check-like": [1, true],
      "string_check-ilike": [1, true],
    })
    expect(on("It is paris.")).toEqual({
      score: [0.5, false],
      "string_check-eq": [0, false],
      "string_check-ne": [1, true],
      "string_check-like": [0, false],
      "string_check-ilike": [1, true],
    })
    // No trimming: eq compares the strings as they are.
    expect(on("Paris ")["string_check-eq"]).toEqual([0, false])
  })

  it("text_similarity: the metric's score, passing at pass_threshold or above", () => {
    const criteria = [
      criterion("text_similarity", { evaluation_metric: "fuzzy_match", pass_threshold: 0.5 }),
      criterion("text_similarity", { evaluation_metric: "bleu", pass_threshold: 0.9 }),
      criterion("text_similarity", { evaluation_metric: "rouge_l", pass_threshold: 0.6 }),
    ]
    // "Pariss" against "Paris": Levenshtein distance 1 over the longer length 6.
    const near = verdicts(criteria, "Pariss")
    expect(near["text_similarity-fuzzy_match"]!.score).toBeCloseTo(1 - 1 / 6, 10)
    expect(near["text_similarity-fuzzy_match"]!.passed).toBe(true)
    expect(near["text_similarity-bleu"]).toEqual({ score: 0, passed: false })
    expect(near["text_similarity-rouge_l"]).toEqual({ score: 0, passed: false })
    const exact = verdicts(criteria, "Paris")
    expect(exact["text_similarity-bleu"]).toEqual({ score: 1, passed: true })
    expect(exact["text_similarity-rouge_l"]).toEqual({ score: 1, passed: true })
    // rouge_l of "the city of Paris" against "Paris": LCS 1 word; P = 1/4, R = 1 → F = 0.4, below 0.6.
    expect(verdicts(criteria, "the city of Paris")["text_similarity-rouge_l"]!.score).toBeCloseTo(0.4, 2)
  })

  it("fills the run's input_messages from each item, takes its model and sampling params, reads {item} lines and bare items", () => {
    const imported = readOpenAiEval(
      write("eval.json", definition([criterion("string_check", { operation: "eq" })])),
      items,
    )
    expect(imported.name).toBe("capitals check")
    expect(imported.model).toEqual({
      model: "baseline",
      provider: "openai",
      sampling: { temperature: 0, max_completion_tokens: 20 },
    })
    expect(imported.rows.map((row) => [row.system, row.user])).toEqual([
      ["Answer in one word.", "Capital of France?"],
      ["Answer in one word.", "Capital of Japan?"],
    ])
  })

  const problem = (criteria: ReadonlyArray<unknown>, data = items, extra: Record<string, unknown> = {}) => {
    try {
      readOpenAiEval(write("eval.json", { ...definition(criteria), ...extra }), data)
    } catch (error) {
      if (error instanceof ImportProblem) return `${error.path}: ${error.message}`
      throw error
    }
    return null
  }

  it("python: grade(sample, item) runs in this machine's python3 and passes at pass_threshold", async () => {
    const source =
      "def grade(sample, item):\n    return 1.0 if sample['output_text'].strip() == item['capital'] else 0.25"
    const python = { type: "python", name: "py", source, pass_threshold: 0.5 }
    const imported = readOpenAiEval(
      write("py.json", definition([python, criterion("string_check", { operation: "eq" })])),
      items,
    )
    const set = importedGraderSet(imported.rows)
    // A Python criterion is not a rule: the set grades by effects, one interpreter for every item.
    expect(set.gradeSync).toBeNull()
    const grade = (answer: string, row = 0) =>
      Effect.runPromise(
        set.grade({ answer, item: imported.rows[row]!.item }).pipe(Effect.provideService(RunJudges, RunJudges.none)),
      )
    expect((await grade("Paris")).grades).toMatchObject({ py: { score: 1, passed: true }, score: { passed: true } })
    expect((await grade("Lyon")).grades.py).toEqual({ score: 0.25, passed: false })
    expect((await grade("Tokyo", 1)).grades.py).toEqual({ score: 1, passed: true })
  })

  it("refuses what it cannot grade as OpenAI does, naming the key", () => {
    const ok = criterion("string_check", { operation: "eq" })
    expect(
      problem([ok, { type: "python", name: "py", source: "def grade(s, i): return 1", image_tag: "2025-05-08" }]),
    ).toBe(
      "testing_criteria[1].image_tag: is not supported: proctor runs the source with this machine's python3, not OpenAI's image",
    )
    expect(problem([criterion("text_similarity", { evaluation_metric: "cosine", pass_threshold: 0.8 })])).toMatch(
      /^testing_criteria\[0\]\.evaluation_metric: "cosine" is not supported/,
    )
    expect(problem([criterion("string_check", { operation: "regex" })])).toMatch(
      /^testing_criteria\[0\]\.operation: expected eq, ne, like or ilike/,
    )
    expect(problem([criterion("string_check", { operation: "eq", reference: "{{ item.capitol }}" })])).toMatch(
      /^testing_criteria\[0\]\.reference: the template .*capitol/,
    )
    expect(problem([ok], write("bad.jsonl", '{"item": {"country": "Peru"}}'))).toMatch(
      /item 1: does not match data_source_config.item_schema: \/ must have required property 'capital'/,
    )
    expect(problem([ok], items, { data_source: { ...dataSource, source: { type: "file_id", id: "file-1" } } })).toBe(
      "data_source.source: give the items with --data",
    )
    const judged = (type: string, extra: Record<string, unknown>) => ({
      type,
      name: "judged",
      model: "gpt-4.1",
      input: [{ role: "user", content: "Is {{ sample.output_text }} the capital of {{ item.country }}?" }],
      ...extra,
    })
    expect(problem([judged("label_model", { labels: ["yes", "no"], passing_labels: ["maybe"] })])).toBe(
      'testing_criteria[0].passing_labels: "maybe" is not one of the labels',
    )
    expect(problem([judged("score_model", { range: [1, 1] })])).toMatch(
      /^testing_criteria\[0\]\.range: expected \[min, max\]/,
    )
    expect(problem([judged("score_model", { sampling_params: { top_p: 0.5 } })])).toBe(
      "testing_criteria[0].sampling_params.top_p: is not supported (proctor's judge would not send it)",
    )
    expect(problem([judged("score_model", { input: [{ role: "tool", content: "x" }] })])).toMatch(
      /^testing_criteria\[0\]\.input\[0\]\.role: expected system, developer, user or assistant/,
    )
  })
})
