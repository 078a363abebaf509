import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { resultsIn } from "@proctor/test-kit"
import { Effect, Either, Schema } from "effect"
import { evaluate } from "../src/eval/Evaluate.js"
import { gradedSolver } from "../src/grader/GradedSolver.js"
import { makeGraderSet } from "../src/grader/GraderSet.js"
import { type GraderSpec, GraderSpecs } from "../src/grader/GraderSpec.js"
import type { GraderSpecInput } from "../src/grader/gradeInProcess.js"
import { choiceLetter, lastNumber } from "../src/grader/RuleGraders.js"
import { bleu, fuzzyRatio, rougeL } from "../src/grader/TextSimilarity.js"
import { formatParseIssues, renderPath } from "../src/internal/formatIssues.js"
import { RunJudges } from "../src/judge/RunJudges.js"
import { finalOfScore, type SolverService } from "../src/solver/Solver.js"

const decodeSpecs = Schema.decodeUnknownEither(GraderSpecs)
const specs = (raw: ReadonlyArray<unknown>): ReadonlyArray<GraderSpec> => Either.getOrThrow(decodeSpecs(raw))
const grade = (raw: unknown, answer: string, item: Record<string, unknown> = {}) =>
  Effect.flatMap(makeGraderSet(specs([raw])), (set) =>
    Effect.provideService(set.grade({ answer, item }), RunJudges, RunJudges.none),
  )
const passed = (raw: unknown, answer: string, item: Record<string, unknown> = {}) =>
  Effect.map(grade(raw, answer, item), (outcome) => Object.values(outcome.grades)[0]!.passed)
/** As a config file's problem is said: one line per key. */
const problem = (raw: ReadonlyArray<unknown>) =>
  Either.match(decodeSpecs(raw), {
    onLeft: (error) => formatParseIssues(error, (path) => renderPath("graders", path)),
    onRight: () => "decoded",
  })

describe("rule graders on fixed answers", () => {
  it.effect("tool_call passes on a call to the tool with the listed arguments, said why when not", () =>
    Effect.gen(function* () {
      const spec = specs([{ type: "tool_call", tool: "add", arguments: { a: "{{ item.a }}", b: 3 } }])
      const set = yield* makeGraderSet(spec)
      const verdictFor = (toolCalls: ReadonlyArray<{ name: string; arguments: unknown }>) =>
        set.gradeSync!({ answer: "", item: { a: 2 }, toolCalls }).grades.tool_call
      expect(verdictFor([{ name: "add", arguments: { a: 2, b: 3, c: 9 } }])).toEqual({ score: 1, passed: true })
      expect(
        verdictFor([
          { name: "sub", arguments: {} },
          { name: "add", arguments: { a: "2", b: "3" } },
        ])?.passed,
      ).toBe(true)
      expect(verdictFor([])).toMatchObject({ passed: false, reason: "the model called no tool" })
      expect(verdictFor([{ name: "sub", arguments: { a: 2, b: 3 } }])?.reason).toBe("the model called sub, not add")
      expect(verdictFor([{ name: "add", arguments: { a: 2, b: 4 } }])?.reason).toBe(
        'add was called with other arguments: [{"a":2,"b":4}]',
      )
    }),
  )

  it.effect("equals trims, and compares case only when asked", () =>
    Effect.gen(function* () {
      expect(yield* passed({ type: "equals" }, " 42\n", { answer: 42 })).toBe(true)
      expect(yield* passed({ type: "equals" }, "Paris", { answer: "paris" })).toBe(false)
      expect(yield* passed({ type: "equals", ignore_case: true }, "Paris", { answer: "paris" })).toBe(true)
      expect(yield* passed({ type: "equals", field: "city" }, "Rome", { city: "Rome" })).toBe(true)
      expect(yield* passed({ type: "equals", reference: "{{ item.a }}-{{ item.b }}" }, "1-2", { a: 1, b: 2 })).toBe(
        true,
      )
    }),
  )

  it.effect("includes and regex, with case options and templates", () =>
    Effect.gen(function* () {
      expect(yield* passed({ type: "includes" }, "The answer is PARIS.", { answer: "Paris" })).toBe(false)
      expect(yield* passed({ type: "includes", ignore_case: true }, "The answer is PARIS.", { answer: "Paris" })).toBe(
        true,
      )
      expect(yield* passed({ type: "regex", pattern: "^\\d+$" }, "123")).toBe(true)
      expect(yield* passed({ type: "regex", pattern: "^yes$", ignore_case: true }, "YES")).toBe(true)
      expect(yield* passed({ type: "regex", pattern: "^{{ item.answer }}$" }, "7", { answer: 7 })).toBe(true)
      expect(yield* passed({ type: "regex", pattern: "^{{ item.answer }}$" }, "77", { answer: 7 })).toBe(false)
    }),
  )

  it.effect("is_json and json_schema (ajv)", () =>
    Effect.gen(function* () {
      expect(yield* passed({ type: "is_json" }, '{"a": 1}')).toBe(true)
      expect(yield* passed({ type: "is_json" }, "{a: 1}")).toBe(false)
      const schema = { type: "object", required: ["name"], properties: { name: { type: "string" } } }
      expect(yield* passed({ type: "json_schema", schema }, '{"name": "x"}')).toBe(true)
      const wrong = yield* grade({ type: "json_schema", schema }, '{"name": 3}')
      expect(wrong.grades.json_schema).toMatchObject({ passed: false, reason: "/name must be string" })
      const dir = mkdtempSync(join(tmpdir(), "proctor-graders-"))
      writeFileSync(join(dir, "schema.json"), JSON.stringify(schema))
      expect(yield* passed({ type: "json_schema", schema_file: join(dir, "schema.json") }, '{"name": "y"}')).toBe(true)
    }),
  )

  it.effect("numeric reads the last number and honours absolute and relative tolerance", () =>
    Effect.gen(function* () {
      expect(lastNumber("first 3, so the total is 1,234.5.")).toBe(1234.5)
      expect(lastNumber("minus: -7")).toBe(-7)
      expect(lastNumber("none")).toBeNull()
      expect(yield* passed({ type: "numeric" }, "It is 42", { answer: "42" })).toBe(true)
      expect(yield* passed({ type: "numeric" }, "It is 42.3", { answer: "42" })).toBe(false)
      expect(yield* passed({ type: "numeric", tolerance: 0.5 }, "It is 42.3", { answer: "42" })).toBe(true)
      expect(yield* passed({ type: "numeric", tolerance: 0.01, relative: true }, "101", { answer: "100" })).toBe(true)
      expect(yield* passed({ type: "numeric", tolerance: 0.01, relative: true }, "102", { answer: "100" })).toBe(false)
      expect(yield* passed({ type: "numeric" }, "0.1 + 0.2 = 0.30000000000000004", { answer: 0.3 })).toBe(true)
    }),
  )

  it.effect("choice finds the letter picked", () =>
    Effect.gen(function* () {
      expect(choiceLetter("ANSWER: B")).toBe("B")
      expect(choiceLetter("I think (c) is wrong, so the answer is D.")).toBe("D")
      expect(choiceLetter("(C)")).toBe("C")
      expect(choiceLetter("no idea")).toBeNull()
      expect(yield* passed({ type: "choice" }, "ANSWER: b", { answer: "B" })).toBe(true)
      expect(yield* passed({ type: "choice" }, "A", { answer: "A, C" })).toBe(true)
      expect(yield* passed({ type: "choice" }, "B", { answer: "A, C" })).toBe(false)
    }),
  )

  it("similarity metrics match worked examples", () => {
    // kitten → sitting: 3 edits over 7 characters.
    expect(fuzzyRatio("kitten", "sitting")).toBeCloseTo(1 - 3 / 7, 12)
    expect(fuzzyRatio("", "")).toBe(1)
    // js-rouge's documented example.
    expect(rougeL("police kill the gunman", "police killed the gunman")).toBeCloseTo(0.75, 12)
    // By hand: unigrams 5/6, bigrams (3+1)/(5+1), trigrams (1+1)/(4+1), 4-grams (0+1)/(3+1), same length.
    expect(bleu("the cat sat on the mat", ["the cat is on the mat"])).toBeCloseTo(
      ((5 / 6) * (4 / 6) * (2 / 5) * (1 / 4)) ** 0.25,
      12,
    )
    // Shorter than the reference: the brevity penalty exp(1 − 6/4).
    expect(bleu("the cat sat on", ["the cat sat on the mat"])).toBeCloseTo(Math.exp(1 - 6 / 4), 12)
    expect(bleu("same words here now", ["same words here now"])).toBeCloseTo(1, 12)
    expect(bleu("", ["x"])).toBe(0)
  })

  it.effect("similarity grades by threshold", () =>
    Effect.gen(function* () {
      const outcome = yield* grade({ type: "similarity", metric: "fuzzy", threshold: 0.5 }, "kitten", {
        answer: "sitting",
      })
      expect(outcome.grades.similarity).toEqual({ score: 1 - 3 / 7, passed: true })
    }),
  )

  it.effect("several graders: the one named score is the score, else the weighted mean", () =>
    Effect.gen(function* () {
      const item = { answer: "4" }
      const weighted = yield* Effect.flatMap(
        makeGraderSet(
          specs([
            { type: "equals", weight: 3 },
            { type: "is_json", weight: 1 },
          ]),
        ),
        (set) => Effect.provideService(set.grade({ answer: "five", item }), RunJudges, RunJudges.none),
      )
      expect(weighted.score).toBe(0)
      const mixed = yield* Effect.flatMap(
        makeGraderSet(
          specs([
            { type: "equals", weight: 3 },
            { type: "includes", name: "has_four" },
          ]),
        ),
        (set) => Effect.provideService(set.grade({ answer: "4", item }), RunJudges, RunJudges.none),
      )
      expect(mixed).toEqual({
        score: 1,
        grades: { equals: { score: 1, passed: true }, has_four: { score: 1, passed: true } },
      })
      const named = yield* Effect.flatMap(
        makeGraderSet(specs([{ type: "equals", name: "score" }, { type: "is_json" }])),
        (set) => Effect.provideService(set.grade({ answer: "4", item }), RunJudges, RunJudges.none),
      )
      expect(named.score).toBe(1)
    }),
  )

  it.effect("a grader that cannot read its reference fails, never scores 0", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(grade({ type: "equals" }, "4", { question: "?" }))
      expect(error).toMatchObject({ _tag: "GraderError", grader: "equals", message: 'the row has no column "answer"' })
    }),
  )
})

describe("code graders", () => {
  const dir = mkdtempSync(join(tmpdir(), "proctor-code-grader-"))
  writeFileSync(
    join(dir, "grader.mjs"),
    "export default ({ answer, item }) => ({ score: answer === item.answer ? 1 : 0.25, reason: 'checked' })\n" +
      "export const strict = ({ answer }) => answer.length > 3\n" +
      "export const broken = () => 7\n",
  )
  writeFileSync(
    join(dir, "grader.ts"),
    "interface Input { readonly answer: string }\nexport const long = (input: Input): number => (input.answer.length > 2 ? 1 : 0)\n",
  )

  it.effect("a JS function's number, boolean or object is the verdict", () =>
    Effect.gen(function* () {
      const file = join(dir, "grader.mjs")
      const outcome = yield* grade({ type: "code", file }, "no", { answer: "yes" })
      expect(outcome.grades.code).toEqual({ score: 0.25, passed: false, reason: "checked" })
      expect(yield* passed({ type: "code", file, export: "strict" }, "long answer")).toBe(true)
    }),
  )

  it.effect("a TypeScript grader loads through tsx", () =>
    Effect.gen(function* () {
      expect(yield* passed({ type: "code", file: join(dir, "grader.ts"), export: "long" }, "abc")).toBe(true)
    }),
  )

  it.effect("a score out of range and a missing export are errors", () =>
    Effect.gen(function* () {
      const file = join(dir, "grader.mjs")
      const outOfRange = yield* Effect.flip(grade({ type: "code", file, export: "broken" }, "x"))
      expect(outOfRange.message).toBe("expected a score from 0 to 1 (or a boolean), got 7")
      const missing = yield* Effect.flip(grade({ type: "code", file, export: "nope" }, "x"))
      expect(missing.message).toContain('exports no function "nope"')
    }),
  )
})

describe("grader specs", () => {
  it("an unknown type is one line naming the key and the types there are", () => {
    expect(problem([{ type: "equals" }, { type: "fuzzy" }])).toBe(
      'graders[1].type: unknown grader type "fuzzy"; one of equals, includes, regex, is_json, json_schema, numeric, choice, similarity, tool_call, code, python, rubric, label, fact, pairwise',
    )
    // A model grader's own keys are checked like a rule grader's: a rubric needs its rubric.
    expect(problem([{ type: "rubric" }])).toMatch(/^graders\[0\]\.rubric/)
  })

  it("a line is a bare type or an inline TOML table", () => {
    expect(specs(["equals", '{ type = "numeric", tolerance = 0.5, name = "close" }'])).toEqual([
      { type: "equals" },
      { type: "numeric", tolerance: 0.5, name: "close" },
    ])
    expect(problem(["{ type = "])).toContain("not an inline TOML table")
  })

  it("two graders of one name are refused", () => {
    expect(problem([{ type: "equals" }, { type: "equals" }])).toContain('two graders are named "equals"')
  })
})

describe("where graders run", () => {
  it.effect("after a task app's or agent's rollout: the task's score stays, the graders' goes to verifier_score", () =>
    Effect.gen(function* () {
      const inner: SolverService = {
        name: "fixed",
        enforcesTimeout: false,
        solve: () => Effect.succeed(finalOfScore(0.5, { details: { answer: "42", expected: "42" } })),
      }
      const set = yield* makeGraderSet(specs([{ type: "equals", field: "expected" }]))
      const final = yield* gradedSolver(inner, set, RunJudges.none).solve({
        runId: "r",
        key: { seed: 3, attempt: 0 },
        rolloutId: "r-3",
        config: {} as never,
      })
      expect(final).toMatchObject({ score: 0.5, verifier_score: 1, grades: { equals: { score: 1, passed: true } } })
    }),
  )

  it("in evaluate(): ctx.grade scores a solver's answer", async () => {
    const runDir = mkdtempSync(join(tmpdir(), "proctor-ctx-grade-"))
    const outcome = await evaluate({
      name: "ctx-grade",
      runDir,
      tasks: [
        { id: "a", question: "2+2", answer: "4" },
        { id: "b", question: "3+3", answer: "6" },
      ],
      solve: async (task, ctx) => {
        const graded = await ctx.grade([{ type: "numeric" }], { answer: task.id === "a" ? "4" : "7", item: task })
        return { score: graded.score, details: { grades: graded.grades } }
      },
    })
    expect(outcome.summary.metrics.mean_score).toBe(0.5)
  })

  it("in evaluate(): ctx.grade rejects a spec it cannot use with one line naming the key, a typo's included", async () => {
    const cases: ReadonlyArray<readonly [GraderSpecInput, string]> = [
      [{ type: "numeric", tolerence: 1 }, "ctx.grade: grader.tolerence: unknown key — did you mean grader.tolerance?"],
      [{ type: "numric" }, 'ctx.grade: grader.type: unknown grader type "numric"; one of equals,'],
      [{ type: "numeric", tolerance: "x" }, 'ctx.grade: grader.tolerance: expected number, got "x"'],
      [[{ type: "numeric" }, { type: "regex" }], "ctx.grade: graders[1].pattern: is required"],
    ]
    for (const [graders, line] of cases) {
      const runDir = mkdtempSync(join(tmpdir(), "proctor-ctx-grade-bad-"))
      let graded: unknown
      const outcome = await evaluate({
        name: "ctx-grade-bad",
        runDir,
        tasks: [{ id: "a" }],
        maxRetries: 0,
        solve: async (_task, ctx) => {
          const grading = ctx.grade(graders, { answer: "4" })
          graded = grading
          return { score: (await grading).score }
        },
      })
      // A rejection, as documented, not a throw from the call itself.
      expect(graded).toBeInstanceOf(Promise)
      expect(outcome.summary.errors_by_kind).toEqual({ solver: 1 })
      const [result] = resultsIn(runDir)
      expect(result?.error).toContain(line)
      expect(result?.error).not.toContain("\n")
    }
  })
})
