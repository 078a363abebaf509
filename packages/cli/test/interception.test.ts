import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { decodeModelCalls, type EvalResult } from "@proctor/core"
import { Either } from "effect"
import {
  captured,
  cleanEnv,
  cliBin,
  ensureBuilt,
  killStrayClis,
  repoRoot,
  startCli,
  startExample,
} from "./fixtures/harness.js"

interface MathModule {
  readonly problemForSeed: (seed: number) => { readonly question: string }
}

const SEEDS = 128
const TASK_APP_KEY = "task-app-key-interception"

let baseline: Awaited<ReturnType<typeof startExample>>
let math: Awaited<ReturnType<typeof startExample>>
let problems: MathModule

const readJsonl = <A>(path: string): Array<A> =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as A)

const evalRun = async (runDir: string, extra: ReadonlyArray<string>) => {
  const config = join(runDir, "..", `${runDir.split("/").at(-1)}.toml`)
  writeFileSync(config, `[eval]\nmodel = "baseline"\n[eval.policy_config]\ninference_url = "${baseline.url}"\n`)
  const run = startCli(
    ["eval", "math", "--config", config, "--url", math.url, "--seeds", `0-${SEEDS - 1}`, "--concurrency", "64"]
      .concat(["--run-dir", runDir, "--json"])
      .concat(extra),
    { env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY }) },
  )
  const result = await run.done
  expect(result.code, result.stderr).toBe(0)
  return readJsonl<EvalResult>(join(runDir, "results.jsonl"))
}

beforeAll(async () => {
  ensureBuilt()
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
  math = await startExample("examples/math/dist/main.js", cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY }))
  problems = (await import(join(repoRoot, "examples/math/dist/index.js"))) as MathModule
}, 60_000)

afterAll(async () => {
  killStrayClis()
  await Promise.all([baseline?.stop(), math?.stop()])
})

describe("proctor eval through the embedded interceptor", () => {
  it("records every model call of 128 rollouts at concurrency 64, each under its own rollout, with the upstream's token counts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "proctor-intercept-"))
    const intercepted = await evalRun(join(dir, "intercepted"), [])
    // Stored relative to each rollout's previous call: read back whole, as every reader does.
    const calls = Either.getOrThrow(decodeModelCalls(readJsonl(join(dir, "intercepted", "model_calls.jsonl"))))

    // Never swapped: every recorded request carries the problem of the seed it is filed under.
    for (const call of calls) {
      const messages = JSON.stringify((call.request as { messages?: unknown }).messages)
      expect(messages).toContain(JSON.stringify(problems.problemForSeed(call.seed).question).slice(1, -1))
    }
    expect(new Set(calls.map((c) => c.seed)).size).toBe(SEEDS)
    expect(calls.every((c) => c.outcome === "ok" && c.usage !== null)).toBe(true)

    // The tokens a result carries are the sum of its calls' upstream usage.
    for (const result of intercepted) {
      const own = calls.filter((c) => c.rollout_id === result.run_id)
      expect(result.tokens).toBe(own.reduce((sum, c) => sum + (c.usage?.total_tokens ?? 0), 0))
      expect(result.cost_usd).toBeNull() // the baseline has no price in the built-in table: unpriced, not $0
    }

    // ...and equal what the task app itself counted from the responses it got, run without interception.
    const direct = await evalRun(join(dir, "direct"), ["--no-intercept"])
    const tokensBySeed = new Map(direct.map((r) => [r.seed, r.tokens]))
    for (const result of intercepted) expect(result.tokens).toBe(tokensBySeed.get(result.seed))
  }, 120_000)

  it("prices calls from a pricing file and totals cost per rollout and per correct answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "proctor-intercept-priced-"))
    const pricing = join(repoRoot, "examples/baseline-model/pricing.json")
    const results = await evalRun(join(dir, "priced"), ["--pricing", pricing])
    const summary = JSON.parse(readFileSync(join(dir, "priced", "summary.json"), "utf8"))
    const total = results.reduce((sum, r) => sum + (r.cost_usd ?? 0), 0)
    expect(results.every((r) => r.cost_usd !== null && r.cost_usd > 0)).toBe(true)
    expect(summary.cost_usd.total).toBeCloseTo(total, 10)
    const correct = results.filter((r) => r.score === 1).length
    expect(summary.cost_usd.per_correct).toBeCloseTo(total / correct, 10)
    // The summary names the file's prices first: they, not the maintained table, priced these calls.
    expect(summary.cost_usd.price_table).toBe(
      "1 given price first, then @pydantic/genai-prices 0.1.8 (bundled), 2026-09-23",
    )
  }, 120_000)

  // undici's HTTP parser is WebAssembly; V8 recompiled it with TurboFan after the first response, on a
  // background thread the process then waited for at exit (src/internal/tuneV8ForRuns.ts).
  it("a one-seed eval never recompiles undici's HTTP parser with TurboFan", async () => {
    const dir = mkdtempSync(join(tmpdir(), "proctor-intercept-liftoff-"))
    const config = join(dir, "eval.toml")
    writeFileSync(config, `[eval]\nmodel = "baseline"\n[eval.policy_config]\ninference_url = "${baseline.url}"\n`)
    const args = ["eval", "math", "--config", config, "--url", math.url, "--seeds", "0", "--run-dir", join(dir, "run")]
    // V8 prints what it compiles to stdout, between the lines of the CLI's own output.
    const child = spawn(process.execPath, ["--trace-wasm-compilation-times", cliBin, ...args, "--json"], {
      env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY }),
      stdio: ["ignore", "pipe", "pipe"],
    })
    const result = await captured(child).done
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/Compiled function \S+ using Liftoff/)
    expect(result.stdout).not.toMatch(/using TurboFan/)
  }, 60_000)
})
