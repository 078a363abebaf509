import { readFileSync } from "node:fs"
import { mkdtemp, writeFile } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { decodeModelCalls, type EvalResult } from "@proctor/core"
import { type OtlpCollector, startOtlpCollector, waitFor } from "@proctor/test-kit"
import { Either } from "effect"
import { cleanEnv, ensureBuilt, killStrayClis, repoRoot, runCli, startExample } from "./fixtures/harness.js"

const SEEDS = 12
const TASK_APP_KEY = "task-app-key-otlp"

let baseline: Awaited<ReturnType<typeof startExample>>
let math: Awaited<ReturnType<typeof startExample>>
let collector: OtlpCollector

const readJsonl = (path: string): Array<unknown> =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown)

/** `proctor eval math` on the baseline model, priced from its demo price file, with `extra` flags and env. */
const evalRun = async (extra: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const dir = await mkdtemp(join(tmpdir(), "proctor-otlp-"))
  const config = join(dir, "eval.toml")
  await writeFile(config, `[eval]\nmodel = "baseline"\n[eval.policy_config]\ninference_url = "${baseline.url}"\n`)
  const runDir = join(dir, "run")
  const pricing = join(repoRoot, "examples/baseline-model/pricing.json")
  const result = await runCli(
    ["eval", "math", "--config", config, "--url", math.url, "--seeds", `0-${SEEDS - 1}`, "--concurrency", "4"]
      .concat(["--run-dir", runDir, "--json", "--pricing", pricing])
      .concat(extra),
    { env: cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY, PROCTOR_PRICES_FILE: join(dir, "none.json"), ...env }) },
  )
  return { result, runDir }
}

/** A port nothing listens on: a collector that is down. */
const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

beforeAll(async () => {
  ensureBuilt()
  baseline = await startExample("examples/baseline-model/dist/main.js", cleanEnv())
  math = await startExample("examples/math/dist/main.js", cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY }))
  collector = await startOtlpCollector()
}, 60_000)

afterAll(async () => {
  killStrayClis()
  await Promise.all([baseline?.stop(), math?.stop(), collector?.close()])
})

describe("proctor eval --otlp-endpoint", () => {
  it("sends a trace per rollout, its model calls as GenAI child spans, to a real OTLP/HTTP endpoint", async () => {
    const { result, runDir } = await evalRun(["--otlp-endpoint", collector.url])
    expect(result.code, result.stderr).toBe(0)
    const calls = Either.getOrThrow(decodeModelCalls(readJsonl(join(runDir, "model_calls.jsonl"))))
    const results = readJsonl(join(runDir, "results.jsonl")) as Array<EvalResult>
    // The summary names the prices: --pricing's first, then the table and its date (no kept copy here: the bundled one).
    const { summary } = JSON.parse(result.stdout) as { summary: { cost_usd: { price_table?: string } } }
    expect(summary.cost_usd.price_table).toBe(
      "1 given price first, then @pydantic/genai-prices 0.1.8 (bundled), 2026-09-23",
    )
    expect(result.stderr).toContain(`otlp: ${calls.length + SEEDS} spans sent to ${collector.url}/v1/traces`)
    await waitFor("every span", () => collector.spans.length >= calls.length + SEEDS)
    expect(collector.refused).toEqual([])

    const rollouts = collector.spans.filter((s) => s.name === "rollout")
    expect(rollouts).toHaveLength(SEEDS)
    expect(rollouts.map((s) => s.attributes["proctor.seed"]).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: SEEDS }, (_, i) => i),
    )
    for (const rollout of rollouts) {
      expect(rollout.parentSpanId).toBe("")
      expect(rollout.resource["service.name"]).toBe("proctor")
      expect(rollout.scope).toBe("@proctor/core")
      const own = results.find((r) => r.run_id === rollout.attributes["proctor.rollout_id"])
      expect(own?.seed).toBe(rollout.attributes["proctor.seed"])
      expect(rollout.attributes["proctor.cost_usd"]).toBe(own?.cost_usd)
    }

    const callSpans = collector.spans.filter((s) => s.name !== "rollout")
    expect(callSpans).toHaveLength(calls.length)
    for (const call of calls) {
      const span = callSpans.find((s) => s.attributes["proctor.call_id"] === call.call_id)
      expect(span?.name).toBe("chat baseline")
      expect(span?.kind).toBe(3) // SPAN_KIND_CLIENT
      expect(span?.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "baseline",
        "gen_ai.usage.input_tokens": call.usage?.prompt_tokens,
        "gen_ai.usage.output_tokens": call.usage?.completion_tokens,
        "proctor.cost_usd": call.cost_usd,
      })
      expect(call.cost_usd).toBeGreaterThan(0)
      if (call.provider !== null) expect(span?.attributes["gen_ai.provider.name"]).toBe(call.provider)
      // The tree: the call's parent is its own rollout's span, in that rollout's trace.
      const parent = rollouts.find((r) => r.spanId === span?.parentSpanId)
      expect(parent?.attributes["proctor.rollout_id"]).toBe(call.rollout_id)
      expect(parent?.traceId).toBe(span?.traceId)
    }
  }, 120_000)

  it("reads the standard OTEL_EXPORTER_OTLP_ENDPOINT when no flag is given, and is off without either", async () => {
    const before = collector.spans.length
    const off = await evalRun([])
    expect(off.result.code, off.result.stderr).toBe(0)
    expect(off.result.stderr).not.toContain("otlp:")
    expect(collector.spans.length).toBe(before)
    const viaEnv = await evalRun([], { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url })
    expect(viaEnv.result.code, viaEnv.result.stderr).toBe(0)
    expect(viaEnv.result.stderr).toMatch(/otlp: \d+ spans sent/)
    await waitFor(
      "the second run's spans",
      () => collector.spans.filter((s) => s.name === "rollout").length >= 2 * SEEDS,
    )
  }, 120_000)

  it("with the collector down, finishes the run and says how many spans were dropped", async () => {
    const { result } = await evalRun(["--otlp-endpoint", `http://127.0.0.1:${await closedPort()}`])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/otlp: 0 of (\d+) spans sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces, \1 dropped/)
  }, 120_000)

  it("refuses an endpoint that is not an http(s) URL in one line, before anything runs", async () => {
    const { result } = await evalRun(["--otlp-endpoint", "localhost:4318"])
    expect(result.code).toBe(2)
    expect(result.stderr.trim()).toBe(
      'proctor eval: --otlp-endpoint: expected an http(s) URL such as http://localhost:4318, got "localhost:4318"',
    )
  }, 60_000)
})
