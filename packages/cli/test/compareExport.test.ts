import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import { type Comparison, SftExample } from "@proctor/report"
import { createApiKey } from "@proctor/server"
import { Schema } from "effect"
import { unzipSync } from "fflate"
import { validateJunit } from "../../report/test/junitSchema.js"
import { startTestServer, type TestServer } from "../../server/test/api.harness.js"
import { cleanEnv, ensureBuilt, killStrayClis, nonEmptyLines, runCli, startExample } from "./fixtures/harness.js"
import { startWeakerModel } from "./fixtures/weakerModel.js"

/**
 * `proctor compare` and `proctor export` as processes, over run directories of real evals: the math example
 * task app with the baseline model (A, and A again) and with a weaker model in front of it (B: some answers
 * miscalculated, some problems answered 503 until the rollout errors).
 */

const SEEDS = "0-59"
const TASK_APP_KEY = "task-app-key-compare"
const STACK_FRAME = /^\s+at\s/m

let tmp: string
let baseline: Awaited<ReturnType<typeof startExample>>
let math: Awaited<ReturnType<typeof startExample>>
let weaker: Awaited<ReturnType<typeof startWeakerModel>>
let runA: string
let runAgain: string
let runB: string

const readResults = (dir: string): Array<EvalResult> =>
  nonEmptyLines(join(dir, "results.jsonl")).map((line) => JSON.parse(line) as EvalResult)

const evalRun = async (name: string, inferenceUrl: string, extra: ReadonlyArray<string> = []) => {
  const dir = join(tmp, name)
  const config = join(tmp, `${name}.toml`)
  writeFileSync(config, `[eval]\nmodel = "baseline"\n[eval.policy_config]\ninference_url = "${inferenceUrl}"\n`)
  const args = ["eval", "math", "--config", config, "--url", math.url, "--seeds", SEEDS, "--concurrency", "16"]
  const result = await runCli([...args, "--run-dir", dir, "--json", ...extra], {
    env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY }),
  })
  expect([0, 1], result.stderr).toContain(result.code) // 1: B's errors make its results not valid
  return dir
}

const proctor = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  runCli(args, { env: cleanEnv(env), cwd: tmp })

/** Each seed's pass (score 1) in a run, read straight from its journal. */
const passes = (dir: string) =>
  new Map(readResults(dir).flatMap((r) => (r.status === "ok" && r.score !== null ? [[r.seed, r.score === 1]] : [])))

/** Two-sided exact binomial test with p = ½, summed term by term: 2 · Σ_{i ≤ min} C(n, i) / 2ⁿ. */
const mcnemarByHand = (b: number, c: number) => {
  const n = b + c
  let term = 0.5 ** n
  let tail = 0
  for (let i = 0; i <= Math.min(b, c); i++) {
    tail += term
    term *= (n - i) / (i + 1)
  }
  return Math.min(1, 2 * tail)
}

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-compare-"))
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
  math = await startExample("examples/math/dist/main.js", cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY }))
  weaker = await startWeakerModel(baseline.url, { wrongOneIn: 3, failOneIn: 12 })
  runA = await evalRun("a", baseline.url, ["--return-trace"])
  runAgain = await evalRun("a-again", baseline.url)
  runB = await evalRun("b", weaker.url, ["--max-retries", "0"])
}, 180_000)

afterAll(async () => {
  killStrayClis()
  await Promise.all([baseline?.stop(), math?.stop(), weaker?.close()])
  rmSync(tmp, { recursive: true, force: true })
})

describe("proctor compare", () => {
  it("pairs seeds, excludes errored rollouts and finds B worse by McNemar's exact test, as the journals say", async () => {
    const result = await proctor(["compare", runA, runB, "--json"])
    expect(result.code, result.stderr).toBe(0)
    const c = JSON.parse(result.stdout) as Comparison

    const a = passes(runA)
    const b = passes(runB)
    const erroredB = readResults(runB).filter((r) => r.status === "error")
    expect(erroredB.length).toBeGreaterThan(0)
    expect(erroredB.every((r) => r.error_kind === "http_5xx")).toBe(true)
    const paired = [...a.keys()].filter((seed) => b.has(seed)).sort((x, y) => x - y)
    const aOnly = paired.filter((seed) => a.get(seed)! && !b.get(seed)!)
    const bOnly = paired.filter((seed) => !a.get(seed)! && b.get(seed)!)
    expect(aOnly.length).toBeGreaterThan(5)

    expect(c.test).toBe("mcnemar_exact")
    expect(c.pairs).toBe(paired.length)
    expect(c.excluded).toMatchObject({ errored: erroredB.length, errored_a: 0, errored_b: erroredB.length })
    expect(c.excluded.unmatched).toBe(erroredB.length) // their seeds are scored in A only
    expect(c.flips).toEqual({ a_only: aOnly, b_only: bOnly })
    expect(c.p_value).toBeCloseTo(mcnemarByHand(aOnly.length, bOnly.length), 12)
    expect(c.verdict).toBe("b_worse")
    expect(c.mean_b! - c.mean_a!).toBeCloseTo((bOnly.length - aOnly.length) / paired.length, 12)
    expect(c.per_seed.map((s) => s.seed)).toEqual(paired)
    expect(c.deltas.tokens.a).toBeGreaterThan(0)
  })

  it("says in words that B is significantly worse, and --fail-if-worse exits 1 on it (not on B better)", async () => {
    const table = await proctor(["compare", runA, runB])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(`${runB} is significantly worse than ${runA} (McNemar's exact test, p `)
    expect(table.stdout).toMatch(/^ {2}flips\s+\d+ passed in A only: /m)

    const gate = await proctor(["compare", runA, runB, "--fail-if-worse"])
    expect(gate.code).toBe(1)
    expect(gate.stderr).toContain("--fail-if-worse: ")
    expect(gate.stdout).toContain("is significantly worse than")

    const better = await proctor(["compare", runB, runA, "--fail-if-worse"])
    expect(better.code, better.stderr).toBe(0)
    expect(better.stdout).toContain(`${runA} is significantly better than ${runB}`)
  })

  it("finds no difference between two runs of the same model and says how small a difference it could see", async () => {
    const same = await proctor(["compare", runA, runAgain, "--fail-if-worse", "--markdown"])
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toMatch(/^### proctor compare — ➖ no significant difference/)
    expect(same.stdout).toContain("| pairs | 60 seeds scored in both runs")
  })

  it("exits 2 with a clear message on bad input, never a stack trace", async () => {
    const empty = join(tmp, "empty")
    mkdirSync(empty)
    const file = join(tmp, "a.toml")
    const elsewhere = await evalRun("elsewhere", baseline.url, ["--seeds", "100-102"])
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["compare", join(tmp, "missing"), runB], `A: no run directory at ${join(tmp, "missing")}; to compare jobs`],
      [["compare", runA, file], `B: ${file} is a file, not a run directory`],
      [["compare", runA, empty], `${empty} is not a run directory`],
      [["compare", runA, elsewhere], "no seed is scored in both runs (A: 60 rollouts"],
      [["compare", runA, runB, "--json", "--markdown"], "--json and --markdown each choose the output"],
      [["compare", runA], "is a single run; give a grid run directory, or two or more run directories"],
    ]
    for (const [args, message] of cases) {
      const result = await proctor(args)
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(2)
      expect(result.stderr).toContain(message)
      expect(result.stderr).not.toMatch(STACK_FRAME)
    }
  })
})

describe("proctor compare with --backend: job ids on the job server", () => {
  let server: TestServer
  let apiKey: string
  let otherKey: string

  beforeAll(async () => {
    server = await startTestServer({ secretKey: "compare-secret-key-0123456789abcdef012345" })
    apiKey = server.userKey
    otherKey = (await createApiKey({ dataDir: server.dataDir, name: "other" })).key
  }, 60_000)

  afterAll(async () => {
    await server?.close()
  })

  const submit = async (inferenceUrl: string) => {
    const config = join(tmp, `job-${inferenceUrl.length}-${Date.now()}.toml`)
    writeFileSync(config, `[eval]\nmodel = "baseline"\n[eval.policy_config]\ninference_url = "${inferenceUrl}"\n`)
    const result = await runCli(
      ["eval", "math", "--config", config, "--url", math.url, "--seeds", "0-29", "--max-retries", "0"].concat([
        "--backend",
        server.url,
        "--json",
      ]),
      { env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY, PROCTOR_API_KEY: apiKey }) },
    )
    expect([0, 1], result.stderr).toContain(result.code)
    return (JSON.parse(result.stdout) as { job_id: string }).job_id
  }

  it("compares two jobs' results read from the server's API, with the key other job commands use", async () => {
    const jobA = await submit(baseline.url)
    const jobB = await submit(weaker.url)
    const result = await proctor(["compare", jobA, jobB, "--backend", server.url, "--json"], {
      PROCTOR_API_KEY: apiKey,
    })
    expect(result.code, result.stderr).toBe(0)
    const c = JSON.parse(result.stdout) as Comparison
    expect(c.labels).toEqual({ a: jobA, b: jobB })
    expect(c.pairs + c.excluded.unmatched).toBe(30)
    expect(c.flips.a_only.length).toBeGreaterThan(0)

    const stranger = await proctor(["compare", jobA, jobB, "--backend", server.url], { PROCTOR_API_KEY: otherKey })
    expect(stranger.code).toBe(2)
    expect(stranger.stderr).toContain(`no job ${jobA} on `)
  }, 120_000)
})

describe("proctor export", () => {
  it("csv: one row per rollout with the header, RFC 4180 line ends", async () => {
    const result = await proctor(["export", runB, "--format", "csv"])
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.split("\r\n")
    expect(lines.at(-1)).toBe("")
    expect(lines[0]).toMatch(/^seed,attempt,task_id,status,passed,score,/)
    expect(lines.length - 2).toBe(readResults(runB).length)
    expect(result.stderr).toContain(`wrote 60 rows of 60 rollouts to stdout`)
  })

  it("jsonl: the results, one per line, to --output", async () => {
    const out = join(tmp, "exports", "b.jsonl")
    const result = await proctor(["export", runB, "--format", "jsonl", "--output", out])
    expect(result.code, result.stderr).toBe(0)
    const lines = nonEmptyLines(out).map((line) => JSON.parse(line) as EvalResult)
    expect(lines.map((r) => [r.seed, r.score, r.status])).toEqual(
      readResults(runB).map((r) => [r.seed, r.score, r.status]),
    )
  })

  it("junit: valid against the JUnit schema Jenkins reads, wrong answers failures, errors errors of their kind", async () => {
    const result = await proctor(["export", runB, "--format", "junit"])
    expect(result.code, result.stderr).toBe(0)
    const check = validateJunit(result.stdout)
    expect(check.valid, check.output).toBe(true)
    const results = readResults(runB)
    const errored = results.filter((r) => r.status === "error").length
    const wrong = results.filter((r) => r.status === "ok" && r.score !== 1).length
    expect(result.stdout).toContain(`tests="${results.length}" failures="${wrong}" errors="${errored}"`)
    expect(result.stdout.match(/<testcase name="seed \d+ attempt 0"/g)).toHaveLength(results.length)
    expect(result.stdout.match(/<failure type="wrong_answer"/g)).toHaveLength(wrong)
    expect(result.stdout.match(/<error type="http_5xx"/g)).toHaveLength(errored)
  })

  it("markdown: the summary for a PR comment; proctor eval appends it to $GITHUB_STEP_SUMMARY", async () => {
    const result = await proctor(["export", runA, "--format", "markdown"])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^### proctor eval `math-[\w-]+` — ✅ valid\n/)
    expect(result.stdout).toContain("| rollouts | 60 of 60 completed")

    const stepSummary = join(tmp, "step-summary.md")
    writeFileSync(stepSummary, "earlier step\n")
    const config = join(tmp, "a.toml")
    const run = await runCli(
      ["eval", "math", "--config", config, "--url", math.url, "--seeds", "0-4", "--run-dir", join(tmp, "ci"), "--json"],
      { env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY, GITHUB_STEP_SUMMARY: stepSummary }) },
    )
    expect(run.code, run.stderr).toBe(0)
    const written = readFileSync(stepSummary, "utf8")
    expect(written).toMatch(/^earlier step\n### proctor eval `math-[\w-]+` — ✅ valid\n/)
    expect(written).toContain("| rollouts | 5 of 5 completed")
  })

  it("sft: chat fine-tuning lines from the intercepted calls of rollouts that reach --min-score", async () => {
    const result = await proctor(["export", runB, "--format", "sft"])
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.split("\n").filter((line) => line !== "")
    const decode = Schema.decodeUnknownEither(SftExample)
    for (const line of lines) {
      const decoded = decode(JSON.parse(line))
      expect(decoded._tag, line).toBe("Right")
    }
    const passed = readResults(runB).filter((r) => r.status === "ok" && r.score === 1)
    expect(lines).toHaveLength(passed.length)
    // The final call's conversation and its answer: the problem, the calculator round, then submit_answer.
    const example = JSON.parse(lines[0]!) as SftExample
    expect(example.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"])
    const answer = example.messages.at(-1) as { tool_calls: ReadonlyArray<{ function: { name: string } }> }
    expect(answer.tool_calls[0]!.function.name).toBe("submit_answer")
    expect(example.tools?.map((t) => t.function.name)).toEqual(["calculator", "submit_answer"])

    const all = await proctor(["export", runB, "--format", "sft", "--min-score", "0"])
    const scored = readResults(runB).filter((r) => r.status === "ok").length
    expect(all.stdout.split("\n").filter((line) => line !== "")).toHaveLength(scored)
    expect(all.stderr).toContain(`left out: ${60 - scored} errored or scored below 0`)
  })

  it("traces-zip: the run's trace files in a zip written to --output, which it needs", async () => {
    const out = join(tmp, "exports", "traces.zip")
    const result = await proctor(["export", runA, "--format", "traces-zip", "--output", out])
    expect(result.code, result.stderr).toBe(0)
    const entries = unzipSync(readFileSync(out))
    const files = readdirSync(join(runA, "traces")).sort()
    expect(Object.keys(entries).sort()).toEqual(files)
    for (const [name, data] of Object.entries(entries)) {
      expect(Buffer.from(data).equals(readFileSync(join(runA, "traces", name)))).toBe(true)
    }

    const noOutput = await proctor(["export", runA, "--format", "traces-zip"])
    expect(noOutput.code).toBe(2)
    expect(noOutput.stderr).toContain("--format traces-zip writes a zip archive: pass --output FILE")
  })

  it("exits 2 with a clear message on bad input", async () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["export", join(tmp, "missing"), "--format", "csv"], `${join(tmp, "missing")} is not a directory`],
      [
        ["export", runA, "--format", "pdf"],
        '--format: expected one of csv, jsonl, junit, markdown, sft, traces-zip, got "pdf"',
      ],
      [["export", runA], "required option '--format <format>' not specified"],
      [["export", runA, "--format", "csv", "--min-score", "1"], "--min-score: only --format sft filters by score"],
      [["export", runA, "--format", "sft", "--min-score", "high"], '--min-score: expected a number, got "high"'],
    ]
    for (const [args, message] of cases) {
      const result = await proctor(args)
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(2)
      expect(result.stderr).toContain(message)
      expect(result.stderr).not.toMatch(STACK_FRAME)
    }
  })
})
