import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import {
  cleanEnv,
  ensureBuilt,
  filesUnder,
  killStrayClis,
  nonEmptyLines,
  runCli,
  startCli,
  startExample,
  startZeroTaskApp,
  type TestTaskApp,
} from "./fixtures/harness.js"

const KEY = "sk-test-secret-123"
/** The zero-work task app calls no model: a direct run against it says so instead of naming a model endpoint. */
const NO_MODEL = "--no-intercept"
const STACK_FRAME = /^\s+at\s/m

let tmp: string
const cleanups: Array<() => Promise<void> | void> = []

beforeAll(() => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-cli-"))
}, 300_000)

afterAll(async () => {
  killStrayClis()
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(tmp, { recursive: true, force: true })
})

const recordingApp = async (options: Parameters<typeof startZeroTaskApp>[0]): Promise<TestTaskApp> => {
  const app = await startZeroTaskApp(options)
  cleanups.push(app.close)
  return app
}

const keyOf = (row: { seed: number; attempt: number }) => `${row.seed}:${row.attempt}`

/** Journal rows; a torn last line (a crash mid-write) is skipped, as the reader does. */
const journalRows = (runDir: string) => {
  const lines = nonEmptyLines(join(runDir, "results.jsonl"))
  return lines.flatMap((line, i) => {
    try {
      return [JSON.parse(line) as { seed: number; attempt: number; status: string }]
    } catch (error) {
      if (i === lines.length - 1) return []
      throw error
    }
  })
}

describe("usage errors", () => {
  it("exit 2 with a message naming the flag, key or file, and no stack trace", async () => {
    const badToml = join(tmp, "bad-seeds.toml")
    writeFileSync(badToml, '[eval]\nurl = "http://127.0.0.1:9"\nseeds = ["x"]\n')
    const missing = join(tmp, "no-such-config.toml")
    const url = ["--url", "http://127.0.0.1:9"]
    const [unknownFlag, zeroConcurrency, badSeeds, missingConfig] = await Promise.all([
      runCli(["eval", ...url, "--seeds", "0-3", "--bogus-flag"]),
      runCli(["eval", ...url, "--seeds", "0-3", "--concurrency", "0"]),
      runCli(["eval", "--config", badToml]),
      runCli(["eval", "--config", missing]),
    ])
    for (const result of [unknownFlag, zeroConcurrency, badSeeds, missingConfig]) {
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).not.toMatch(STACK_FRAME)
      expect(result.stdout).not.toMatch(STACK_FRAME)
    }
    expect(unknownFlag.stderr).toContain("--bogus-flag")
    expect(zeroConcurrency.stderr).toMatch(/--concurrency: expected a positive integer/)
    expect(badSeeds.stderr).toContain("eval.seeds")
    expect(badSeeds.stderr).toContain('"x"')
    expect(missingConfig.stderr).toContain(missing)
  })

  it("--grace-seconds that is not a number is a usage error, like every other numeric flag", async () => {
    const result = await runCli(["eval", "--url", "http://127.0.0.1:9", "--seeds", "0", "--grace-seconds", "abc"])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain("--grace-seconds")
    expect(result.stderr).not.toMatch(STACK_FRAME)
  })

  it("a task app that is not answering fails fast with exit 1, naming its URL", async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const runDir = join(tmp, "unreachable")
    const result = await runCli(["eval", "--url", url, "--seeds", "0-3", "--run-dir", runDir, NO_MODEL])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain(url)
    expect(result.stderr).not.toMatch(STACK_FRAME)
    expect(nonEmptyLines(join(runDir, "results.jsonl"))).toEqual([])
  })
})

describe("a run against a zero-work task app", () => {
  it("exits 0 with the table, a run directory and synth-ai's output shapes", async () => {
    const app = await recordingApp({ apiKey: KEY, score: (seed) => (seed % 2 === 0 ? 1 : 0.5) })
    const dir = mkdtempSync(join(tmp, "normal-"))
    const runDir = join(dir, "run")
    const outJson = join(dir, "out.json")
    const outTxt = join(dir, "out.txt")
    const traces = join(dir, "traces")
    const result = await runCli(
      [
        "eval",
        "zero",
        "--url",
        app.url,
        "--seeds",
        "0-9",
        "--concurrency",
        "4",
        "--run-dir",
        runDir,
        "--output-json",
        outJson,
        "--output-txt",
        outTxt,
        "--traces-dir",
        traces,
        "--return-trace",
        NO_MODEL,
      ],
      { env: cleanEnv({ ENVIRONMENT_API_KEY: KEY }), cwd: dir },
    )
    expect(result.code, result.stderr).toBe(0)

    expect(result.stdout).toMatch(/^seed\s*\|\s*score\s*\|\s*reward_mean\s*\|\s*outcome\s*\|/m)
    expect(result.stdout).toMatch(/^avg\s*\|\s*0\.75\s*\|/m)
    for (let seed = 0; seed < 10; seed++) {
      expect(result.stdout).toMatch(new RegExp(`^${seed}\\s*\\|\\s*${seed % 2 === 0 ? "1" : "0\\.5"}\\s*\\|`, "m"))
    }

    expect(readdirSync(runDir).sort()).toEqual(expect.arrayContaining(["config.json", "results.jsonl", "summary.json"]))
    const manifest = JSON.parse(readFileSync(join(runDir, "config.json"), "utf8"))
    expect(manifest.config.seeds).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(journalRows(runDir)).toHaveLength(10)
    const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"))
    expect(summary).toMatchObject({ completed: 10, missing: 0, ok: 10, is_valid: true })
    expect(summary.metrics.mean_score).toBeCloseTo(0.75)

    const json = JSON.parse(readFileSync(outJson, "utf8"))
    expect(Object.keys(json).sort()).toEqual(["config", "results", "summary"])
    expect(json.config).toMatchObject({ task_app_url: app.url, seeds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] })
    expect(json.results).toHaveLength(10)
    for (const row of json.results) {
      expect(row).not.toHaveProperty("trace")
      for (const field of [
        "seed",
        "score",
        "reward_mean",
        "outcome_score",
        "events_score",
        "latency_ms",
        "verifier_score",
        "tokens",
        "cost_usd",
        "error",
      ]) {
        expect(row).toHaveProperty(field)
      }
    }
    expect(json.results.map((r: { seed: number }) => r.seed)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(json.summary).toMatchObject({ completed: 10 })

    const txt = readFileSync(outTxt, "utf8")
    expect(txt.startsWith("Eval config\n{")).toBe(true)
    const [configPart, resultsPart] = txt.split("\n\nResults\n")
    expect(JSON.parse(configPart!.slice("Eval config\n".length))).toMatchObject({ seeds: json.config.seeds })
    expect(resultsPart).toMatch(/^seed\s*\|/)
    expect(resultsPart).toMatch(/^avg\s*\|/m)
    expect(txt.endsWith("\n")).toBe(true)

    const traceFiles = readdirSync(traces).sort()
    expect(traceFiles).toEqual(Array.from({ length: 10 }, (_, seed) => `seed_${seed}_trace.json`).sort())
    for (let seed = 0; seed < 10; seed++) {
      const trace = JSON.parse(readFileSync(join(traces, `seed_${seed}_trace.json`), "utf8"))
      expect(trace.metadata.seed).toBe(seed)
    }
  })

  it("--fail-under exits 1 when the mean score is below it, 0 when not", async () => {
    const app = await recordingApp({ apiKey: KEY, score: (seed) => (seed % 2 === 0 ? 1 : 0.5) })
    const args = (runDir: string, failUnder: string) => [
      "eval",
      "--url",
      app.url,
      "--seeds",
      "0-7",
      "--run-dir",
      join(tmp, runDir),
      "--fail-under",
      failUnder,
      NO_MODEL,
    ]
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const [below, above] = await Promise.all([
      runCli(args("fail-under-high", "0.9"), { env }),
      runCli(args("fail-under-low", "0.5"), { env }),
    ])
    expect(below.code, below.stderr).toBe(1)
    expect(below.stderr).toContain("--fail-under 0.9")
    expect(below.stderr).not.toMatch(STACK_FRAME)
    expect(above.code, above.stderr).toBe(0)
  })
})

describe("durability", () => {
  it("a run killed with SIGKILL resumes to exactly N results, re-running nothing already journaled", async () => {
    const N = 400
    const app = await recordingApp({ apiKey: KEY, delayMs: (seed) => 5 + ((seed * 7) % 16) })
    // Rollouts past the 150th wait, so the kill always lands mid-run however fast this machine is.
    app.holdAfter(150)
    const runDir = join(tmp, "killed")
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const cli = startCli(
      ["eval", "zero", "--url", app.url, "--seeds", `0-${N - 1}`, "--concurrency", "16", "--run-dir", runDir, NO_MODEL],
      { env },
    )
    const journal = join(runDir, "results.jsonl")
    await waitFor("100 journaled results", () => nonEmptyLines(journal).length >= 100 || cli.child.exitCode !== null)
    cli.child.kill("SIGKILL")
    const killed = await cli.done
    expect(killed.signal, killed.stderr).toBe("SIGKILL")

    const beforeResume = new Set(journalRows(runDir).map(keyOf))
    expect(beforeResume.size).toBeGreaterThanOrEqual(100)
    expect(beforeResume.size).toBeLessThan(N)
    // A crash in the middle of a write leaves a torn last line; the reader must drop it.
    appendFileSync(journal, '{"seed":3999,"attempt":0,"score":1,"rew')

    app.setPhase("resume")
    app.open()
    const resumed = await runCli(["eval", "--resume", runDir], { env })
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).not.toMatch(STACK_FRAME)

    const lines = nonEmptyLines(journal)
    const rows = lines.map((line) => JSON.parse(line) as { seed: number; attempt: number; status: string })
    const keys = new Set(rows.map(keyOf))
    expect(keys.size).toBe(N)
    expect(lines).toHaveLength(N)
    expect([...keys].sort()).toEqual(Array.from({ length: N }, (_, seed) => `${seed}:0`).sort())
    expect(rows.every((row) => row.status === "ok")).toBe(true)

    const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"))
    expect(summary).toMatchObject({ planned: N, completed: N, missing: 0, is_valid: true })

    const rerun = app.started.filter((s) => s.phase === "resume").map((s) => s.seed)
    expect(rerun.filter((seed) => beforeResume.has(`${seed}:0`))).toEqual([])
    expect(new Set(rerun).size).toBe(rerun.length)
    expect(rerun).toHaveLength(N - beforeResume.size)
  })

  it("SIGINT stops taking work, journals every finished rollout, exits 130 and says how to resume", async () => {
    const N = 30
    const app = await recordingApp({ apiKey: KEY, delayMs: () => 150 })
    const runDir = join(tmp, "interrupted")
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const cli = startCli(
      ["eval", "zero", "--url", app.url, "--seeds", `0-${N - 1}`, "--concurrency", "3", "--run-dir", runDir, NO_MODEL],
      { env },
    )
    const journal = join(runDir, "results.jsonl")
    await waitFor("3 journaled results", () => nonEmptyLines(journal).length >= 3 || cli.child.exitCode !== null)
    cli.child.kill("SIGINT")
    const interrupted = await cli.done
    expect(interrupted.code, interrupted.stderr).toBe(130)
    expect(interrupted.stderr).toContain(` eval --resume ${runDir}\n`)
    expect(interrupted.stderr).not.toMatch(STACK_FRAME)

    const journaled = new Set(journalRows(runDir).map(keyOf))
    const served = app.served.filter((s) => s.phase === "first").map((s) => `${s.seed}:0`)
    expect(served.length).toBeGreaterThan(0)
    // In-flight rollouts were let finish: everything the task app served is in the journal.
    expect(served.filter((key) => !journaled.has(key))).toEqual([])
    expect(app.started.filter((s) => s.phase === "first")).toHaveLength(served.length)
    expect(journaled.size).toBeLessThan(N)
    const partial = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"))
    expect(partial.missing).toBe(N - journaled.size)

    app.setPhase("resume")
    const resumed = await runCli(["eval", "--resume", runDir], { env })
    expect(resumed.code, resumed.stderr).toBe(0)
    const lines = nonEmptyLines(journal)
    expect(lines).toHaveLength(N)
    expect(new Set(lines.map((line) => keyOf(JSON.parse(line)))).size).toBe(N)
    const rerun = app.started.filter((s) => s.phase === "resume").map((s) => `${s.seed}:0`)
    expect(rerun.filter((key) => journaled.has(key))).toEqual([])
    expect(JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"))).toMatchObject({ completed: N, missing: 0 })
  })
})

/** A finished run of seeds 0…9 whose journal then loses all but its first 4 lines (rollouts lost). */
const partialRun = async (name: string, app: TestTaskApp, extraArgs: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const runDir = join(tmp, name)
  const first = await runCli(
    ["eval", "--url", app.url, "--seeds", "0-9", "--run-dir", runDir, NO_MODEL, ...extraArgs],
    {
      env,
    },
  )
  expect(first.code, first.stderr).toBe(0)
  const journal = join(runDir, "results.jsonl")
  const kept = nonEmptyLines(journal).slice(0, 4)
  writeFileSync(journal, `${kept.join("\n")}\n`)
  return { runDir, journal, kept }
}

describe("resume", () => {
  it("without the task-app key refuses to start instead of journaling every missing rollout as an auth error", async () => {
    const app = await recordingApp({ apiKey: KEY })
    const { runDir, journal, kept } = await partialRun("resume-no-key", app, [], cleanEnv({ ENVIRONMENT_API_KEY: KEY }))

    // The key is never written to the run directory; forgetting it on resume is the likely mistake.
    app.setPhase("resume-without-key")
    const withoutKey = await runCli(["eval", "--resume", runDir], { env: cleanEnv() })
    expect(withoutKey.code, withoutKey.stderr).toBe(2)
    expect(withoutKey.stderr).toContain("ENVIRONMENT_API_KEY")
    expect(nonEmptyLines(journal)).toEqual(kept)

    app.setPhase("resume")
    const withKey = await runCli(["eval", "--resume", runDir], { env: cleanEnv({ ENVIRONMENT_API_KEY: KEY }) })
    expect(withKey.code, withKey.stderr).toBe(0)
    const rows = nonEmptyLines(journal).map((line) => JSON.parse(line) as { status: string })
    expect(rows).toHaveLength(10)
    expect(rows.every((row) => row.status === "ok")).toBe(true)
  })

  it("never sends the resumed rollouts without the policy's secret config", async () => {
    const app = await recordingApp({ apiKey: KEY })
    const modelKey = "sk-model-secret-789"
    const toml = join(tmp, "policy-secret.toml")
    writeFileSync(
      toml,
      `[eval]\nurl = "${app.url}"\n\n[eval.policy_config]\nmodel = "m"\napi_key = "${modelKey}"\ntemperature = 0\n`,
    )
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const { runDir } = await partialRun("resume-policy-secret", app, ["--config", toml], env)
    expect(app.started.every((s) => s.policyConfig.api_key === modelKey)).toBe(true)
    for (const file of filesUnder(runDir)) expect(readFileSync(file, "utf8"), file).not.toContain(modelKey)

    app.setPhase("resume")
    const resumed = await runCli(["eval", "--resume", runDir], { env })
    const resumedRequests = app.started.filter((s) => s.phase === "resume")
    // Either the secret is supplied again, or the resume refuses to run a different policy config.
    if (resumedRequests.length > 0) {
      expect(resumedRequests.map((s) => s.policyConfig)).toEqual(
        resumedRequests.map(() => ({ model: "m", api_key: modelKey, temperature: 0 })),
      )
      expect(resumed.code, resumed.stderr).toBe(0)
    } else {
      expect(resumed.code, resumed.stderr).toBe(2)
      expect(resumed.stderr).toContain("api_key")
    }
  })
})

describe("resumed runs report the whole run and this session apart", () => {
  it("progress counts add up across sessions and the rate is this session's, labelled", async () => {
    const app = await recordingApp({ apiKey: KEY, delayMs: () => 40 })
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const { runDir } = await partialRun("resume-rates", app, ["--concurrency", "2"], env)
    app.setPhase("resume")
    const resumed = await runCli(["eval", "--resume", runDir], { env })
    expect(resumed.code, resumed.stderr).toBe(0)

    // 4 rollouts kept from the first session, 6 run now: the whole run's counts include the 4
    const finalProgress = resumed.stderr
      .split("\n")
      .filter((line) => line.startsWith("progress"))
      .at(-1)
    expect(finalProgress).toMatch(/run 10\/10 .* correct \d+ {2}wrong \d+ {2}errors 0 .* · this session 6 at [\d.]+\/s/)

    const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"))
    expect(summary).toMatchObject({ completed: 10, session_completed: 6 })
    // this session's rate counts only its own 6 rollouts
    expect(summary.throughput_per_s).toBeCloseTo(6 / summary.duration_s, 6)
    expect(summary.run_duration_s).toBeGreaterThan(summary.duration_s)
    expect(summary.run_throughput_per_s).toBeCloseTo(10 / summary.run_duration_s, 6)
    expect(resumed.stdout).toMatch(
      /duration +this session 6 rollouts in [\d.]+ s .*; whole run 10 rollouts in [\d.]+ s/,
    )
  })
})

describe("default output", () => {
  it("prints the summary first, then the failures and first and last rows, without empty columns", async () => {
    // Every answer right: no failure rows, so the compact table is the first and last rows alone (wrong answers
    // are failures and shown: jobsOutput.test.ts).
    const app = await recordingApp({ apiKey: KEY, score: () => 1 })
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY })
    const run = (name: string, extra: ReadonlyArray<string> = []) =>
      runCli(["eval", "--url", app.url, "--seeds", "0-29", "--run-dir", join(tmp, name), NO_MODEL, ...extra], { env })
    const [compact, full, bad] = await Promise.all([
      run("output-compact"),
      run("output-full", ["--table", "full"]),
      run("output-bad", ["--table", "everything"]),
    ])
    expect(compact.code, compact.stderr).toBe(0)
    expect(compact.stdout.startsWith("Summary (run ")).toBe(true)
    const rowSeeds = (stdout: string) =>
      stdout.split("\n").flatMap((line) => (/^\d+\s*\|/.test(line) ? [Number(line.split("|")[0])] : []))
    expect(rowSeeds(compact.stdout)).toEqual([0, 1, 2, 3, 4, 25, 26, 27, 28, 29])
    expect(compact.stdout).toContain("… 20 more rows")
    expect(compact.stdout).toContain(
      "showing 10 of 30 rows (failures, first and last); 20 hidden; --table full shows every row",
    )
    // the zero-work app reports no events score, verifier or cost, and nothing errored
    expect(compact.stdout).toMatch(/^columns with no values hidden: .*events.*verifier.*error$/m)
    expect(compact.stdout).not.toMatch(/^seed .*\| events /m)
    expect(compact.stdout).toMatch(/^avg\s*\|\s*1\s*\|/m)

    expect(full.code, full.stderr).toBe(0)
    expect(rowSeeds(full.stdout)).toEqual(Array.from({ length: 30 }, (_, seed) => seed))
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--table")
  })
})

describe("proctor task-app check", () => {
  it("passes the math example app", async () => {
    const env = cleanEnv({ ENVIRONMENT_API_KEY: KEY, PORT: "0" })
    const math = await startExample("examples/math/dist/main.js", env)
    cleanups.push(math.stop)
    const model = await startExample("examples/baseline-model/dist/main.js", env)
    cleanups.push(model.stop)
    const result = await runCli(
      ["task-app", "check", math.url, "--model", "baseline", "--inference-url", model.url, "--timeout", "10"],
      { env: cleanEnv({ ENVIRONMENT_API_KEY: KEY }) },
    )
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).not.toContain("FAIL")
    expect(result.stdout).toContain("follows the task-app contract")
    expect(result.stdout).toMatch(/auth: a request without a key is refused/)
  })

  it("fails an app that deviates, naming each deviation", async () => {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x")
      const send = (body: unknown) => {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify(body))
      }
      if (url.pathname === "/" || url.pathname === "/health") return send({ healthy: true })
      if (url.pathname === "/info") return send({ service: {}, dataset: {} })
      if (url.pathname === "/task_info") {
        const seeds = url.searchParams.getAll("seed")
        // Deviation 1: one seed answers a list instead of one object.
        return seeds.length === 0 ? send({ taskset: {} }) : send(seeds.map((seed) => ({ seed: Number(seed) })))
      }
      if (url.pathname === "/rollout") {
        req.resume()
        // Deviation 2: the run_id is not echoed.
        return req.on("end", () =>
          send({ run_id: "something-else", metrics: { outcome_score: 1, mean_return: 1, reward_mean: 1 } }),
        )
      }
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    // The stub calls no model; the endpoint only lets the check run its test rollout.
    const result = await runCli(
      ["task-app", "check", url, "--timeout", "5", "--inference-url", "http://127.0.0.1:9/v1"],
      {
        env: cleanEnv({ ENVIRONMENT_API_KEY: KEY }),
      },
    )
    expect(result.code, result.stdout + result.stderr).toBe(1)
    const failures = result.stdout.split("\n").filter((line) => line.startsWith("FAIL"))
    expect(failures).toHaveLength(2)
    expect(failures[0]).toMatch(/^FAIL\s+GET \/task_info\?seed: .*a list/)
    expect(failures[1]).toMatch(/^FAIL\s+rollout run_id: .*"something-else"/)
    expect(result.stdout).toContain("2 deviations from the task-app contract")
    expect(result.stderr).not.toMatch(STACK_FRAME)
  })
})

describe("secrets", () => {
  it("the task-app key reaches no file of the run directory, no output file, no stdout or stderr", async () => {
    const app = await recordingApp({ apiKey: KEY })
    const dir = mkdtempSync(join(tmp, "secrets-"))
    const outputs = ["--output-json", join(dir, "out.json"), "--output-txt", join(dir, "out.txt")]
    const fromEnv = await runCli(
      [
        "eval",
        "--url",
        app.url,
        "--seeds",
        "0-4",
        "--run-dir",
        join(dir, "env-run"),
        "--traces-dir",
        join(dir, "traces"),
        ...outputs,
        NO_MODEL,
      ],
      { env: cleanEnv({ ENVIRONMENT_API_KEY: KEY }), cwd: dir },
    )
    expect(fromEnv.code, fromEnv.stderr).toBe(0)

    const toml = join(dir, "eval.toml")
    writeFileSync(toml, `[eval]\nurl = "${app.url}"\ntask_app_api_key = "${KEY}"\nseeds = [0, 1, 2]\n`)
    const fromToml = await runCli(["eval", "--config", toml, "--run-dir", join(dir, "toml-run"), "--json", NO_MODEL], {
      env: cleanEnv(),
      cwd: dir,
    })
    expect(fromToml.code, fromToml.stderr).toBe(0)

    const wrongKey = "sk-wrong-secret-456"
    const rejected = await runCli(
      ["eval", "--url", app.url, "--seeds", "0", "--run-dir", join(dir, "rejected"), NO_MODEL],
      {
        env: cleanEnv({ ENVIRONMENT_API_KEY: wrongKey }),
        cwd: dir,
      },
    )
    expect(rejected.code).toBe(2)
    expect(rejected.stderr).toMatch(/API key/)
    expect(rejected.stderr + rejected.stdout).not.toContain(wrongKey)

    const files = filesUnder(dir).filter((file) => file !== toml)
    expect(files.length).toBeGreaterThan(8)
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toContain(KEY)
    for (const output of [fromEnv.stdout, fromEnv.stderr, fromToml.stdout, fromToml.stderr]) {
      expect(output).not.toContain(KEY)
    }
    expect(JSON.parse(readFileSync(join(dir, "env-run", "config.json"), "utf8")).task_app_api_key_set).toBe(true)
    expect(existsSync(join(dir, "toml-run", "results.jsonl"))).toBe(true)
  })
})
