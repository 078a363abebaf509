import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { EvalResult, ModelCall, RunSummary } from "@proctor/core"
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
 * Model graders as a new user runs them, offline: 200 sums against the baseline model (as policy, and as judge: it
 * gives the wrong verdict on one item in five), graded by a rule and a rubric judge; the judge's calls recorded and
 * priced apart; `proctor grade` adding a second judge, whose agreement with the first is reported; the file's human
 * labels giving the judges' agreement with them.
 */

const DATASET = join(repoRoot, "examples/datasets/sums.jsonl")
const PRICING = join(repoRoot, "examples/baseline-model/pricing.json")
const ROWS = readFileSync(DATASET, "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as { id: string; question: string; answer: string })

let tmp: string
let baseline: Awaited<ReturnType<typeof startExample>>
let labelled: string

const proctor = (args: ReadonlyArray<string>) => runCli(args, { env: cleanEnv(), cwd: tmp })
const results = (dir: string): Array<EvalResult> =>
  nonEmptyLines(join(dir, "results.jsonl")).map((line) => JSON.parse(line) as EvalResult)
const calls = (dir: string): Array<ModelCall> =>
  nonEmptyLines(join(dir, "model_calls.jsonl")).map((line) => JSON.parse(line) as ModelCall)
const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as RunSummary

const RUBRIC = '{ type = "rubric", rubric = "The answer is the correct sum, as a bare number.", range = [1, 5] }'
const SECOND =
  '{ type = "rubric", name = "second", rubric = "Score 5 when the answer is exactly the sum of the two numbers, else 1." }'
const judgeFlag = () => `{ model = "baseline", inference_url = "${baseline.url}", human_labels = "human" }`

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-judges-"))
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
  // The human's scores (1–5): right sums 5, except every ninth row, where the human disagrees.
  labelled = join(tmp, "labelled.jsonl")
  writeFileSync(
    labelled,
    ROWS.map((row, index) => JSON.stringify({ ...row, human: index % 9 === 0 ? 1 : 5 })).join("\n"),
  )
}, 120_000)

afterAll(async () => {
  killStrayClis()
  await baseline?.stop()
})

describe("model graders: a rubric judge beside a rule, a second judge by proctor grade", () => {
  let runDir: string

  beforeAll(async () => {
    runDir = join(tmp, "judged")
    const run = await proctor([
      "eval",
      ...["--dataset", labelled, "--prompt", "{{ item.question }}", "--model", "baseline"],
      ...["--inference-url", baseline.url, "--concurrency", "16", "--pricing", PRICING],
      ...["--grader", '{ type = "equals", name = "exact" }', "--grader", RUBRIC, "--judge", judgeFlag()],
      ...["--run-dir", runDir, "--json"],
    ])
    expect(run.code, run.stderr).toBe(0)
  }, 180_000)

  it("grades every row by the rule and by the judge, whose verdict is the rule's but on about one item in five", () => {
    const stored = results(runDir)
    expect(stored).toHaveLength(ROWS.length)
    let disagreements = 0
    for (const result of stored) {
      expect(result.status).toBe("ok")
      const rubric = result.grades?.rubric
      expect(rubric?.reason).toBeTruthy()
      expect((rubric?.details as { judge?: { model: string } } | undefined)?.judge?.model).toBe("baseline")
      if (rubric?.passed !== result.grades?.exact?.passed) disagreements++
    }
    // The baseline judge flips one verdict in five, chosen by the prompt's text.
    expect(disagreements).toBeGreaterThan(ROWS.length * 0.1)
    expect(disagreements).toBeLessThan(ROWS.length * 0.3)
  })

  it("records the judge's calls apart from the policy's, priced, and the summary reports both", () => {
    const recorded = calls(runDir)
    const judged = recorded.filter((call) => call.role === "judge")
    expect(judged).toHaveLength(ROWS.length)
    expect(recorded.length - judged.length).toBe(ROWS.length)
    expect(judged.every((call) => call.grader === "rubric" && call.cost_usd !== null)).toBe(true)
    const summary = summaryOf(runDir)
    expect(summary.judge?.calls).toBe(ROWS.length)
    expect(summary.judge?.cost_usd).toBeGreaterThan(0)
    const judgeTokens = judged.reduce((sum, call) => sum + (call.usage?.total_tokens ?? 0), 0)
    expect(summary.judge?.tokens).toBe(judgeTokens)
    // The policy's tokens are its own: the judge's are not in them.
    const policyTokens = recorded
      .filter((call) => call.role !== "judge")
      .reduce((sum, call) => sum + (call.usage?.total_tokens ?? 0), 0)
    expect(summary.tokens.total).toBe(policyTokens)
    expect(Object.keys(summary.graders ?? {})).toEqual(expect.arrayContaining(["exact", "rubric"]))
  })

  it("reports the judge's agreement with the human labels, with intervals", () => {
    const trust = summaryOf(runDir).judge_trust
    const rubric = trust?.graders.find((grader) => grader.grader === "rubric")
    expect(rubric?.human?.items).toBe(ROWS.length)
    expect(rubric?.human?.alpha_level).toBe("ordinal")
    const alpha = rubric?.human?.alpha
    expect(alpha?.value).not.toBeNull()
    expect(alpha?.ci95?.[0]).toBeLessThanOrEqual(alpha?.value ?? Number.NaN)
    expect(alpha?.ci95?.[1]).toBeGreaterThanOrEqual(alpha?.value ?? Number.NaN)
  })

  it("the judges guide's labelled example: a label judge against examples/datasets/sums-labelled.jsonl gives kappa", async () => {
    const runTrust = join(tmp, "trust")
    const run = await proctor([
      "eval",
      ...["--dataset", join(repoRoot, "examples/datasets/sums-labelled.jsonl"), "--prompt", "{{ item.question }}"],
      ...["--model", "baseline", "--inference-url", baseline.url, "--run-dir", runTrust, "--json"],
      "--grader",
      '{ type = "label", name = "correct", instructions = "Is the answer the correct sum?", labels = ["correct", "incorrect"], passing = ["correct"] }',
      ...["--judge", `{ model = "baseline", inference_url = "${baseline.url}", human_labels = "human" }`],
    ])
    expect(run.code, run.stderr).toBe(0)
    const human = summaryOf(runTrust).judge_trust?.graders.find((grader) => grader.grader === "correct")?.human
    expect(human?.items).toBe(ROWS.length)
    // The file's labels say which of the baseline policy's answers are right; its judge errs on one item in five.
    const kappa = human?.kappa
    expect(kappa?.value).toBeGreaterThan(0)
    expect(kappa?.value).toBeLessThan(1)
    expect(kappa?.ci95?.[0]).toBeLessThanOrEqual(kappa?.value ?? Number.NaN)
  })

  it("proctor grade adds a second judge as a set of its own and reports the two judges' agreement", async () => {
    const graded = await proctor(["grade", runDir, "--grader", SECOND, "--judge", judgeFlag(), "--pricing", PRICING])
    expect(graded.code, graded.stderr).toBe(0)
    const setDir = join(runDir, "grades", "second")
    expect(results(setDir)).toHaveLength(ROWS.length)
    expect(calls(setDir).filter((call) => call.role === "judge")).toHaveLength(ROWS.length)
    const summary = summaryOf(setDir)
    expect(summary.judge?.calls).toBe(ROWS.length)
    const pair = summary.judge_trust?.agreement.find(
      (each) => each.graders.includes("second") && each.graders.includes("run/rubric"),
    )
    expect(pair?.items).toBe(ROWS.length)
    // Each judge errs on its own fifth of the items: they agree on most, not all.
    expect(pair?.alpha.value).toBeGreaterThan(0)
    expect(pair?.alpha.value).toBeLessThan(1)
  }, 180_000)

  it("a model grader without a judge stops before anything runs, saying what to declare", async () => {
    const run = await proctor([
      "eval",
      ...["--dataset", labelled, "--prompt", "{{ item.question }}", "--model", "baseline"],
      ...["--inference-url", baseline.url, "--grader", RUBRIC, "--run-dir", join(tmp, "no-judge")],
    ])
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split("\n")).toHaveLength(1)
    expect(run.stderr).toMatch(/graders\[0\] \(rubric\): a model grader needs a judge: declare \[eval\.judge\]/)
  })
})

describe("proctor grade --config: the file's [eval.judge] judges its graders, --judge over it", () => {
  it("judges a run that had no judge, as the message for a model grader without one advises", async () => {
    const runDir = join(tmp, "unjudged")
    const run = await proctor([
      ...["eval", "--dataset", labelled, "--prompt", "{{ item.question }}", "--model", "baseline", "--seeds", "0-9"],
      ...["--inference-url", baseline.url, "--grader", "equals", "--run-dir", runDir, "--json"],
    ])
    expect(run.code, run.stderr).toBe(0)
    const config = join(tmp, "judged-by-file.toml")
    writeFileSync(
      config,
      [
        "[eval.judge]",
        'model = "file-judge"',
        `inference_url = "${baseline.url}"`,
        "[[eval.graders]]",
        'type = "rubric"',
        'rubric = "The answer is the correct sum, as a bare number."',
        "",
      ].join("\n"),
    )
    // Was: "a model grader needs a judge: declare [eval.judge]", the table the file declares.
    const byFile = await proctor(["grade", runDir, "--config", config, "--json"])
    expect(byFile.code, byFile.stderr).toBe(0)
    const judgedBy = (set: string) =>
      new Set(calls(join(runDir, "grades", set)).map((call) => `${call.role} ${call.model}`))
    expect(judgedBy("rubric")).toEqual(new Set(["judge file-judge"]))
    const flag = `{ model = "flag-judge", inference_url = "${baseline.url}" }`
    const byFlag = await proctor(["grade", runDir, "--config", config, "--judge", flag, "--name", "flagged", "--json"])
    expect(byFlag.code, byFlag.stderr).toBe(0)
    expect(judgedBy("flagged")).toEqual(new Set(["judge flag-judge"]))
  }, 120_000)
})

describe("a judge given wrong: one line naming the key, exit 2, nothing run", () => {
  it("a judge without its model names the key it lacks, and the misspelt key that most likely meant it", async () => {
    // Was: "proctor eval: --judge: is required", naming neither.
    const runDir = join(tmp, "modle")
    const run = await proctor([
      ...["eval", "--dataset", labelled, "--prompt", "{{ item.question }}", "--model", "baseline"],
      ...["--inference-url", baseline.url, "--grader", RUBRIC, "--judge", '{ modle = "baseline" }'],
      ...["--run-dir", runDir],
    ])
    expect([run.code, run.stderr, existsSync(runDir)]).toEqual([
      2,
      "proctor eval: --judge.model: is required; --judge.modle: unknown key — did you mean --judge.model?\n",
      false,
    ])
    // proctor grade reads its --judge the same way, before it reads the run.
    const graded = await proctor([
      "grade",
      join(tmp, "no-run"),
      "--grader",
      RUBRIC,
      "--judge",
      '{ modle = "baseline" }',
    ])
    expect([graded.code, graded.stderr]).toEqual([
      2,
      "proctor grade: --judge.model: is required; --judge.modle: unknown key — did you mean --judge.model?\n",
    ])
    const config = join(tmp, "modle.toml")
    writeFileSync(config, '[eval]\nmodel = "baseline"\n[eval.judge]\nmodle = "baseline"\n')
    const inFile = await proctor([
      ...["eval", "--config", config, "--dataset", labelled, "--prompt", "{{ item.question }}"],
      ...["--inference-url", baseline.url, "--grader", RUBRIC, "--run-dir", runDir],
    ])
    expect([inFile.code, inFile.stderr, existsSync(runDir)]).toEqual([
      2,
      `proctor eval: ${config}: eval.judge.model: is required; eval.judge.modle: unknown key — did you mean eval.judge.model?\n`,
      false,
    ])
  })

  it("human_labels naming a column no row has stops before anything runs, naming the key and the column", async () => {
    const judged = ["eval", "--dataset", labelled, "--prompt", "{{ item.question }}", "--model", "baseline"]
    const evalJudge = join(tmp, "no-labels")
    const misnamed = await proctor([
      ...[...judged, "--inference-url", baseline.url, "--grader", RUBRIC, "--run-dir", evalJudge],
      ...["--judge", `{ model = "baseline", inference_url = "${baseline.url}", human_labels = "humans" }`],
    ])
    expect([misnamed.code, misnamed.stderr, existsSync(evalJudge)]).toEqual([
      2,
      `proctor eval: judge.human_labels: no row of ${labelled} has a column "humans"\n`,
      false,
    ])
    // A grader's own judge is named by the grader's key path.
    const ownJudge = join(tmp, "no-labels-own")
    const own = await proctor([
      ...[...judged, "--inference-url", baseline.url, "--grader", RUBRIC, "--judge", judgeFlag()],
      ...[
        "--grader",
        `{ type = "rubric", name = "second", rubric = "r", judge = { model = "b", human_labels = "x" } }`,
      ],
      ...["--run-dir", ownJudge],
    ])
    expect([own.code, own.stderr, existsSync(ownJudge)]).toEqual([
      2,
      `proctor eval: graders[1].judge.human_labels: no row of ${labelled} has a column "x"\n`,
      false,
    ])
  })
})

describe("a rubric judge after a task app's rollouts", () => {
  it("fills verifier_score, the column synth-ai's runner reads, beside the task's own score", async () => {
    const key = "judge-test-key"
    const math = await startExample("examples/math/dist/main.js", cleanEnv({ ENVIRONMENT_API_KEY: key }))
    try {
      const runDir = join(tmp, "math-judged")
      const config = join(tmp, "math-judged.toml")
      writeFileSync(config, `[eval]\nmodel = "baseline"\n[eval.policy_config]\ninference_url = "${baseline.url}"\n`)
      const run = await runCli(
        [
          ...["eval", "math", "--config", config, "--url", math.url, "--seeds", "0-19", "--run-dir", runDir],
          ...["--grader", RUBRIC, "--judge", judgeFlag()],
        ],
        { env: cleanEnv({ ENVIRONMENT_API_KEY: key }), cwd: tmp },
      )
      expect(run.code, run.stderr).toBe(0)
      const stored = results(runDir)
      expect(stored).toHaveLength(20)
      for (const result of stored) {
        expect(result.verifier_score).toBe(result.grades?.rubric?.score)
        expect(result.score).not.toBeNull()
      }
      expect(calls(runDir).filter((call) => call.role === "judge")).toHaveLength(20)
      const exported = join(tmp, "math-judged.csv")
      const csv = await proctor(["export", runDir, "--format", "csv", "--output", exported])
      expect(csv.code, csv.stderr).toBe(0)
      const [header, ...lines] = readFileSync(exported, "utf8").trim().split("\n")
      const column = header!.split(",").indexOf("verifier_score")
      expect(column).toBeGreaterThanOrEqual(0)
      expect(lines.every((line) => line.split(",")[column] !== "")).toBe(true)
    } finally {
      await math.stop()
    }
  }, 180_000)

  it("runs synth-ai's judges (Python callables in [eval.judge]) as python graders, each its own grade", async () => {
    const key = "judge-test-key"
    const math = await startExample("examples/math/dist/main.js", cleanEnv({ ENVIRONMENT_API_KEY: key }))
    try {
      const runDir = join(tmp, "math-synth-judges")
      writeFileSync(
        join(tmp, "judges.py"),
        [
          "def odd_seed(payload, worth=1.0):",
          '    assert payload["completion"] != "", "the answer reaches the judge"',
          '    return worth if payload["seed"] % 2 == 1 else 0.0',
        ].join("\n"),
      )
      const config = join(tmp, "math-synth-judges.toml")
      writeFileSync(
        config,
        [
          "[eval]",
          'model = "baseline"',
          "[eval.policy_config]",
          `inference_url = "${baseline.url}"`,
          "[eval.judge.odd]",
          'path = "judges.py"',
          'callable = "odd_seed"',
          "worth = 1.0",
        ].join("\n"),
      )
      const run = await runCli(
        ["eval", "math", "--config", config, "--url", math.url, "--seeds", "0-5", "--run-dir", runDir],
        { env: cleanEnv({ ENVIRONMENT_API_KEY: key }), cwd: tmp },
      )
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toContain("synth-ai's judges odd run as python graders")
      const stored = results(runDir).sort((a, b) => a.seed - b.seed)
      expect(stored.map((result) => result.grades?.odd?.score)).toEqual([0, 1, 0, 1, 0, 1])
      expect(stored.map((result) => result.verifier_score)).toEqual([0, 1, 0, 1, 0, 1])
    } finally {
      await math.stop()
    }
  }, 120_000)
})

describe("promptfoo's model-graded assertions, on proctor's judge", () => {
  const TESTS = ROWS.slice(0, 20)
  const promptfooConfig = () => {
    const path = join(tmp, "promptfooconfig.yaml")
    writeFileSync(
      path,
      [
        'prompts: ["{{question}}"]',
        "providers: [openai:chat:baseline]",
        "defaultTest:",
        "  assert:",
        "    - { type: llm-rubric, value: The answer is the correct sum as a bare number }",
        "    - { type: g-eval, value: [The answer is a number, It is the sum], threshold: 0.6 }",
        "    - { type: model-graded-closedqa, value: The answer is the sum of the two numbers }",
        "    - { type: factuality, value: '{{answer}}' }",
        "tests:",
        ...TESTS.map((row) => `  - vars: { question: ${JSON.stringify(row.question)}, answer: "${row.answer}" }`),
      ].join("\n"),
    )
    return path
  }

  it("runs each as one of proctor's model graders, its judge's calls recorded as the judge's", async () => {
    const runDir = join(tmp, "promptfoo-judged")
    const run = await proctor([
      "eval",
      ...["--from-promptfoo", promptfooConfig(), "--model", "baseline", "--inference-url", baseline.url],
      ...["--judge", `{ model = "baseline", inference_url = "${baseline.url}" }`, "--run-dir", runDir, "--json"],
    ])
    expect(run.code, run.stderr).toBe(0)
    const stored = results(runDir)
    expect(stored).toHaveLength(TESTS.length)
    for (const result of stored) {
      const grades = result.grades!
      expect(Object.keys(grades).sort()).toEqual(
        ["factuality", "g-eval", "llm-rubric", "model-graded-closedqa", "score"].sort(),
      )
      // The rubric kinds score 0–10 over 10 and pass at their thresholds; the others pass on the judge's label.
      const rubric = grades["llm-rubric"]!.details as { raw_score: number; range: [number, number] }
      expect(rubric.range).toEqual([0, 10])
      expect(grades["llm-rubric"]!.passed).toBe(rubric.raw_score >= 5)
      const geval = grades["g-eval"]!.details as { raw_score: number }
      expect(grades["g-eval"]!.passed).toBe(geval.raw_score >= 6)
      const label = (grades.factuality!.details as { label: string }).label
      expect(["A", "B", "C", "D", "E"]).toContain(label)
      expect(grades.factuality!.passed).toBe(label !== "D")
      // promptfoo's rule: the test passes when every assertion does.
      expect(grades.score!.passed).toBe(Object.entries(grades).every(([name, v]) => name === "score" || v.passed))
    }
    // Right answers pass and wrong ones fail, but for the judge's known error on one item in five.
    const agreeing = stored.filter(
      (result) =>
        result.grades!.factuality!.passed ===
        ((result.details as { answer: string }).answer === TESTS[result.seed]!.answer),
    )
    expect(agreeing.length).toBeGreaterThanOrEqual(TESTS.length * 0.6)
    expect(agreeing.length).toBeLessThan(TESTS.length)
    const judged = calls(runDir).filter((call) => call.role === "judge")
    expect(judged).toHaveLength(TESTS.length * 4)
    expect(new Set(judged.map((call) => call.grader))).toEqual(
      new Set(["llm-rubric", "g-eval", "model-graded-closedqa", "factuality"]),
    )
    expect(summaryOf(runDir).judge?.calls).toBe(TESTS.length * 4)
  }, 120_000)

  it("without a judge, or with promptfoo's own grading provider, it stops before anything runs, naming the key", async () => {
    const config = promptfooConfig()
    const noJudge = await proctor(["eval", "--from-promptfoo", config, "--inference-url", baseline.url])
    expect(noJudge.code).toBe(2)
    expect(noJudge.stderr).toBe(
      `proctor eval: ${config}: defaultTest.assert[0]: "llm-rubric" asks a judge model: give one with --judge (or [eval.judge])\n`,
    )
    const withProvider = join(tmp, "provider.yaml")
    writeFileSync(
      withProvider,
      'prompts: ["{{q}}"]\nproviders: [openai:chat:baseline]\ntests:\n  - vars: { q: hi }\n    assert: [{ type: llm-rubric, value: polite, provider: openai:gpt-4.1 }]\n',
    )
    const refused = await proctor(["eval", "--from-promptfoo", withProvider, "--inference-url", baseline.url])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("tests[0].assert[0].provider: the model that grades is proctor's judge")
  }, 60_000)
})

describe("an OpenAI Evals definition's score_model and label_model criteria, on proctor's judge", () => {
  const definition = join(repoRoot, "examples/imports/openai-evals/judged.json")
  const items = join(repoRoot, "examples/imports/openai-evals/sums.jsonl")

  it("asks the run's judge the criterion's own messages with its model, reading a score in range or a label", async () => {
    const runDir = join(tmp, "openai-judged")
    const run = await proctor([
      ...["eval", "--from-openai-evals", definition, "--data", items, "--inference-url", baseline.url],
      ...["--judge", `{ model = "judge", inference_url = "${baseline.url}" }`, "--run-dir", runDir, "--json"],
    ])
    expect(run.code, run.stderr).toBe(0)
    const stored = results(runDir)
    expect(stored).toHaveLength(20)
    const truth = nonEmptyLines(items).map((line) => (JSON.parse(line) as { item: { answer: string } }).item.answer)
    let agreeing = 0
    for (const result of stored) {
      const { correctness, verdict } = result.grades!
      const raw = (correctness!.details as { raw_score: number }).raw_score
      expect(correctness!.passed).toBe(raw >= 0.5)
      expect(["right", "wrong"]).toContain((verdict!.details as { label: string }).label)
      const right = (result.details as { answer: string }).answer === truth[result.seed]
      if (correctness!.passed === right) agreeing++
    }
    // The baseline judge errs on one item in five, chosen by the prompt's text.
    expect(agreeing).toBeGreaterThanOrEqual(12)
    expect(agreeing).toBeLessThan(20)
    const judged = calls(runDir).filter((call) => call.role === "judge")
    expect(judged).toHaveLength(40)
    expect(new Set(judged.map((call) => `${call.grader} ${call.model}`))).toEqual(
      new Set(["correctness baseline", "verdict baseline"]),
    )
  }, 120_000)

  it("without a judge it stops before anything runs, naming the criterion", async () => {
    const run = await proctor([
      "eval",
      "--from-openai-evals",
      definition,
      "--data",
      items,
      "--inference-url",
      baseline.url,
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `proctor eval: ${definition}: testing_criteria[0]: "correctness" asks a judge model: give one with --judge (or [eval.judge])\n`,
    )
  }, 60_000)
})
