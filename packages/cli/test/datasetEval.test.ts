import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { EvalResult, RunSummary } from "@proctor/core"
import {
  cleanEnv,
  ensureBuilt,
  killStrayClis,
  nonEmptyLines,
  repoRoot,
  runCli,
  startExample,
} from "./fixtures/harness.js"

/**
 * Dataset evals as a new user runs them, offline: the 200 questions of examples/datasets against the baseline
 * model (which answers a tenth of its sums off by one), graded by rules; `proctor grade` over the finished run;
 * and the bad inputs that must stop before anything runs.
 */

const DATASET = join(repoRoot, "examples/datasets/sums.jsonl")
const ROWS = readFileSync(DATASET, "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as { id: string; question: string; answer: string; topic: string })

let tmp: string
let baseline: Awaited<ReturnType<typeof startExample>>

const proctor = (args: ReadonlyArray<string>) => runCli(args, { env: cleanEnv(), cwd: tmp })
const results = (dir: string): Array<EvalResult> =>
  nonEmptyLines(join(dir, "results.jsonl")).map((line) => JSON.parse(line) as EvalResult)
const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as RunSummary

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-dataset-"))
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
}, 120_000)

afterAll(async () => {
  killStrayClis()
  await baseline?.stop()
})

describe("proctor eval --dataset", () => {
  let runDir: string

  beforeAll(async () => {
    runDir = join(tmp, "sums")
    const config = join(tmp, "sums.toml")
    writeFileSync(
      config,
      [
        "[eval]",
        `dataset = "${DATASET}"`,
        'prompt = "{{ item.question }}"',
        'model = "baseline"',
        'cluster_by = "topic"',
        "concurrency = 16",
        `[eval.policy_config]\ninference_url = "${baseline.url}"`,
        '[[eval.graders]]\ntype = "equals"\nname = "exact"\nweight = 3',
        '[[eval.graders]]\ntype = "numeric"\nname = "close"\ntolerance = 1',
        "",
      ].join("\n"),
    )
    const run = await proctor(["eval", "--config", config, "--run-dir", runDir, "--json"])
    expect(run.code, run.stderr).toBe(0)
  }, 120_000)

  it("runs every row once, stores each answer and its verdicts, keyed by the row's id", () => {
    const stored = results(runDir)
    expect(stored).toHaveLength(ROWS.length)
    const byId = new Map(stored.map((result) => [result.task_id, result]))
    for (const row of ROWS) {
      const result = byId.get(row.id)!
      const answer = (result.details as { answer: string }).answer
      expect(result.grades?.exact?.passed).toBe(answer === row.answer)
      expect(result.grades?.close?.passed).toBe(Math.abs(Number(answer) - Number(row.answer)) <= 1)
      // The declared weights: exact counts three times as much as close.
      expect(result.score).toBeCloseTo((3 * result.grades!.exact!.score + result.grades!.close!.score) / 4, 12)
      expect(result.cluster).toBe(row.topic)
      expect(result.tokens).toBeGreaterThan(0)
    }
  })

  it("summarises each grader as a metric next to the run's score, clustered by topic", () => {
    const summary = summaryOf(runDir)
    const stored = results(runDir)
    const exactShare = stored.filter((r) => r.grades?.exact?.passed).length / stored.length
    // The baseline answers about one sum in ten off by one.
    expect(exactShare).toBeGreaterThan(0.8)
    expect(exactShare).toBeLessThan(0.97)
    expect(summary.graders?.exact?.mean_score).toBeCloseTo(exactShare, 12)
    expect(summary.graders?.close?.mean_score).toBe(1)
    expect(summary.metrics.mean_score).toBeCloseTo((3 * exactShare + 1) / 4, 12)
    expect(summary.metrics.estimator).toBe("clustered_by:topic")
    expect(summary.tokens.total).toBeGreaterThan(0)
  })

  it("resumes a run cut short: only the missing rows call the model", async () => {
    const dir = join(tmp, "cut")
    const args = ["eval", "--dataset", DATASET, "--prompt", "{{ item.question }}", "--model", "baseline"]
    const first = await proctor([...args, "--inference-url", baseline.url, "--grader", "equals", "--run-dir", dir])
    expect(first.code, first.stderr).toBe(0)
    const lines = nonEmptyLines(join(dir, "results.jsonl"))
    writeFileSync(join(dir, "results.jsonl"), `${lines.slice(0, 120).join("\n")}\n`)
    const calls = nonEmptyLines(join(dir, "model_calls.jsonl")).length
    const resumed = await proctor(["eval", "--resume", dir, "--inference-url", baseline.url, "--json"])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(results(dir)).toHaveLength(ROWS.length)
    expect(nonEmptyLines(join(dir, "model_calls.jsonl")).length - calls).toBe(ROWS.length - 120)
  }, 120_000)

  it("reads CSV, with flags instead of a config file", async () => {
    const csv = join(tmp, "capitals.csv")
    writeFileSync(csv, 'id,question,answer\nfr,"What is 2 + 2?",4\nde,"What is 10 + 5?",15\n')
    const dir = join(tmp, "csv")
    const run = await proctor([
      "eval",
      "--dataset",
      csv,
      "--system",
      "Answer with a number.",
      "--prompt",
      "{{ item.question }}",
      "--model",
      "baseline",
      "--inference-url",
      baseline.url,
      "--grader",
      '{ type = "regex", pattern = "^{{ item.answer }}$", name = "score" }',
      "--run-dir",
      dir,
      "--table",
      "full",
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(results(dir).map((r) => r.task_id)).toEqual(["fr", "de"])
    expect(run.stdout).toMatch(/task\s*\|/)
    expect(run.stdout).toContain("score")
  }, 60_000)

  it("offers tools from a JSON file: the model's calls are the answer, graded by tool_call, on chat and Anthropic", async () => {
    const csv = join(tmp, "adds.csv")
    const rows = Array.from({ length: 20 }, (_, i) => ({ a: 3 * i + 1, b: 7 * i + 2 }))
    writeFileSync(
      csv,
      ["id,question,a,b", ...rows.map(({ a, b }, i) => `r${i},"What is ${a} + ${b}?",${a},${b}`)].join("\n"),
    )
    // Anthropic's shape, its description a template over the row.
    const anthropicTools = join(tmp, "add-anthropic.json")
    writeFileSync(
      anthropicTools,
      JSON.stringify([
        {
          name: "add",
          description: "Adds {{ item.a }} and another number.",
          input_schema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
        },
      ]),
    )
    const grader = '{ type = "tool_call", tool = "add", arguments = { a = "{{ item.a }}", b = "{{ item.b }}" } }'
    const run = (dir: string, tools: string, api: string) =>
      proctor([
        ...["eval", "--dataset", csv, "--prompt", "{{ item.question }}", "--model", "baseline"],
        ...["--inference-url", baseline.url, "--tools", tools, "--grader", grader, "--run-dir", join(tmp, dir)],
        ...(api === "messages" ? ["--provider", "anthropic"] : []),
      ])
    const [chat, messages] = await Promise.all([
      run("tools-chat", join(repoRoot, "examples/datasets/add-tool.json"), "chat_completions"),
      run("tools-messages", anthropicTools, "messages"),
    ])
    expect(chat.code, chat.stderr).toBe(0)
    expect(messages.code, messages.stderr).toBe(0)
    const scored = (dir: string) =>
      results(join(tmp, dir)).sort((x, y) =>
        String(x.task_id).localeCompare(String(y.task_id), "en", { numeric: true }),
      )
    const byChat = scored("tools-chat")
    for (const [i, result] of byChat.entries()) {
      const calls = (result.details as { tool_calls: Array<{ name: string; arguments: { a: number; b: number } }> })
        .tool_calls
      expect(calls).toHaveLength(1)
      expect(calls[0]!.name).toBe("add")
      expect(calls[0]!.arguments.a).toBe(rows[i]!.a)
      // The answer graders read is the calls as JSON; a slipped b is a failed verdict that says why.
      expect(JSON.parse((result.details as { answer: string }).answer)).toEqual(calls)
      const right = calls[0]!.arguments.b === rows[i]!.b
      expect(result.grades?.tool_call?.passed).toBe(right)
      if (!right) expect(result.grades?.tool_call?.reason).toMatch(/^add was called with other arguments/)
    }
    const passed = byChat.filter((result) => result.grades?.tool_call?.passed).length
    expect(passed).toBeGreaterThanOrEqual(14)
    expect(passed).toBeLessThan(20)
    // The same calls through Anthropic's messages API: the same verdicts, row by row.
    expect(scored("tools-messages").map((result) => result.score)).toEqual(byChat.map((result) => result.score))
    const regrade = await proctor([
      "grade",
      join(tmp, "tools-chat"),
      "--grader",
      '{ type = "tool_call", tool = "add" }',
    ])
    expect(regrade.code, regrade.stderr).toBe(0)
    const missing = join(tmp, "tools-missing.json")
    writeFileSync(missing, JSON.stringify([{ name: "add", description: "{{ item.c }}", input_schema: {} }]))
    const refused = await run("tools-refused", missing, "chat_completions")
    expect(refused.code).toBe(2)
    expect(refused.stderr.trim()).toBe(`proctor eval: tools: row 1 (id "r0") of ${csv} has no column "c"`)
  }, 120_000)

  describe("proctor grade", () => {
    it("grades the stored answers again as a named set; killed, it resumes; compare reads the set", async () => {
      const grade = ["grade", runDir, "--grader", "includes", "--grader", '{ type = "similarity", metric = "fuzzy" }']
      const first = await proctor([...grade, "--json"])
      expect(first.code, first.stderr).toBe(0)
      const set = join(runDir, "grades", "includes+similarity")
      const graded = results(set)
      expect(graded).toHaveLength(ROWS.length)
      for (const result of graded) {
        expect(Object.keys(result.grades ?? {})).toEqual(["includes", "similarity"])
        const answer = (result.details as { answer: string }).answer
        const row = ROWS.find((r) => r.id === result.task_id)!
        expect(result.grades?.includes?.passed).toBe(answer.includes(row.answer))
      }
      // The run's own results and grades are untouched.
      expect(Object.keys(results(runDir)[0]!.grades ?? {})).toEqual(["exact", "close"])

      // As a kill -9 leaves it: a torn last line, no summary.
      const lines = nonEmptyLines(join(set, "results.jsonl"))
      writeFileSync(join(set, "results.jsonl"), `${lines.slice(0, 150).join("\n")}\n${lines[150]!.slice(0, 40)}`)
      const again = await proctor(grade)
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout).toContain("50 rollouts graded (150 graded by an earlier session)")
      expect(results(set).map((r) => r.task_id)).toEqual(graded.map((r) => r.task_id))
      expect(summaryOf(set).graders?.includes?.count).toBe(ROWS.length)

      const compared = await proctor(["compare", runDir, set, "--json"])
      expect(compared.code, compared.stderr).toBe(0)
      expect(JSON.parse(compared.stdout).pairs).toBe(ROWS.length)
    }, 120_000)

    it("takes its graders from a config file's [[eval.graders]] with --config; a bad one is one line, exit 2", async () => {
      const config = join(tmp, "regrade.toml")
      writeFileSync(
        config,
        '[eval]\nmodel = "ignored"\n[[eval.graders]]\ntype = "regex"\npattern = "^\\\\d+$"\nname = "digits"\n',
      )
      const run = await proctor(["grade", runDir, "--config", config, "--json"])
      expect(run.code, run.stderr).toBe(0)
      const graded = results(join(runDir, "grades", "digits"))
      expect(graded).toHaveLength(ROWS.length)
      expect(
        graded.every((r) => r.grades?.digits?.passed === /^\d+$/.test((r.details as { answer: string }).answer)),
      ).toBe(true)

      const bad = join(tmp, "regrade-bad.toml")
      writeFileSync(bad, '[[eval.graders]]\ntype = "vibes"\n')
      const refused = await proctor(["grade", runDir, "--config", bad])
      expect(refused.code).toBe(2)
      // One line; the types it lists grow with the grader union.
      expect(refused.stderr.trim().split("\n")).toHaveLength(1)
      expect(refused.stderr).toMatch(
        `proctor grade: ${bad}: eval.graders[0].type: unknown grader type "vibes"; one of equals, includes, regex,`,
      )
      const none = await proctor(["grade", runDir])
      expect(none.code).toBe(2)
      expect(none.stderr.trim()).toBe(
        "proctor grade: no graders: pass --grader, or --config with a file of [[eval.graders]] tables",
      )
    }, 60_000)

    it("refuses a set name already holding other graders", async () => {
      const run = await proctor(["grade", runDir, "--grader", "is_json", "--name", "includes+similarity"])
      expect(run.code).toBe(2)
      expect(run.stderr.trim().split("\n")).toHaveLength(1)
      expect(run.stderr).toContain("holds a set graded by other graders")
    }, 60_000)
  })
})

describe("bad input: one line naming the row, column or key, exit 2, nothing run", () => {
  const refused = async (args: ReadonlyArray<string>, expected: string) => {
    const dir = join(tmp, `bad-${Math.random().toString(36).slice(2)}`)
    const run = await proctor([...args, "--run-dir", dir])
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr.trim().split("\n")).toEqual([`proctor eval: ${expected}`])
    expect(existsSync(dir)).toBe(false)
  }
  const base = () => ["eval", "--model", "baseline", "--inference-url", baseline.url]

  it("a template naming a column a row lacks", async () => {
    const file = join(tmp, "holes.jsonl")
    writeFileSync(file, '{"question": "What is 1 + 1?", "answer": "2"}\n{"id": 7, "answer": "3"}\n')
    await refused(
      [...base(), "--dataset", file, "--prompt", "Q: {{ item.question }}", "--grader", "equals"],
      `prompt: row 2 (id 7) of ${file} has no column "question"`,
    )
    await refused(
      [...base(), "--dataset", file, "--prompt", "Q", "--grader", '{ type = "equals", field = "solution" }'],
      `graders[0].field: no column "solution" in row 1 of ${file}`,
    )
  }, 60_000)

  it("a grader of unknown type, on the command line and in a config file", async () => {
    await refused(
      [...base(), "--dataset", DATASET, "--prompt", "{{ item.question }}", "--grader", "equals", "--grader", "fuzzy"],
      '--grader[1].type: unknown grader type "fuzzy"; one of equals, includes, regex, is_json, json_schema, numeric, choice, similarity, tool_call, code, python, rubric, label, fact, pairwise',
    )
    const config = join(tmp, "unknown.toml")
    writeFileSync(config, `[eval]\ndataset = "${DATASET}"\nprompt = "x"\n[[eval.graders]]\ntype = "vibes"\n`)
    const run = await proctor([...base(), "--config", config])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('eval.graders[0].type: unknown grader type "vibes"')
  }, 60_000)

  it("a misspelt key in a grader spec or the judge is a warning naming the key meant; --strict refuses it", async () => {
    // Was: silently dropped, so the run graded with tolerance 0.
    const tolerant = '{ type = "numeric", tolerence = 1 }'
    const flagged = await proctor([
      ...[...base(), "--dataset", DATASET, "--prompt", "{{ item.question }}", "--seeds", "0-4", "--grader", tolerant],
      ...["--run-dir", join(tmp, "tolerence"), "--json"],
    ])
    expect(flagged.code, flagged.stderr).toBe(0)
    expect(flagged.stderr).toContain(
      "warning: --grader[0].tolerence: unknown key — did you mean --grader[0].tolerance?\n",
    )
    const strictDir = join(tmp, "tolerence-strict")
    const strict = await proctor([
      ...[...base(), "--dataset", DATASET, "--prompt", "{{ item.question }}", "--grader", tolerant, "--strict"],
      ...["--run-dir", strictDir],
    ])
    expect([strict.code, existsSync(strictDir)]).toEqual([2, false])
    expect(strict.stderr).toMatch(
      /^proctor eval: --grader\[0\]\.tolerence: unknown key — did you mean --grader\[0\]\.tolerance\?\n\(strict: /,
    )

    const config = join(tmp, "tolerence.toml")
    writeFileSync(
      config,
      [
        "[eval]",
        `dataset = "${DATASET}"`,
        'prompt = "{{ item.question }}"',
        "seeds = [0]",
        '[[eval.graders]]\ntype = "numeric"\ntolerence = 1',
        '[eval.judge]\nmodel = "baseline"\nsampels = 3',
        "",
      ].join("\n"),
    )
    const inFile = await proctor([...base(), "--config", config, "--run-dir", join(tmp, "tolerence-toml"), "--json"])
    expect(inFile.code, inFile.stderr).toBe(0)
    expect(inFile.stderr).toContain(
      `warning: ${config}: eval.graders[0].tolerence: unknown key — did you mean eval.graders[0].tolerance?\n`,
    )
    expect(inFile.stderr).toContain(
      `warning: ${config}: eval.judge.sampels: unknown key — did you mean eval.judge.samples?\n`,
    )
  }, 60_000)

  it("a CSV with a ragged row", async () => {
    const file = join(tmp, "ragged.csv")
    writeFileSync(file, "id,question,answer\n1,What is 1 + 1?,2\n2,What is 2 + 2?\n")
    await refused(
      [...base(), "--dataset", file, "--prompt", "{{ item.question }}", "--grader", "equals"],
      `dataset ${file} line 3: 2 fields where the header has 3`,
    )
  }, 60_000)
})
