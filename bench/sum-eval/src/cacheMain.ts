/**
 * sum-eval with the response cache: the 2,000-prompt "sum" eval run twice by `proctor eval --cache` on one fresh
 * cache directory, as whole processes. The first run asks the model (20 ms late) every question and fills the
 * cache; the second, identical, must make no upstream call (every line of its model_calls.jsonl says `cached`) and
 * finish at least 5× faster, spawn to exit. Prints its figures and does not touch bench/RESULTS.md.
 *
 * Flags: --prompts N (default 2000), --latency-ms N (the model's, default the sum eval's 20 ms; a hosted model takes
 * hundreds), --cli PATH (another build's `bin.cjs`).
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { argNumber, log, timedNode } from "@proctor/bench-shared"
import { proctorArgs, type Servers } from "./measurements.js"
import { MODEL_LATENCY_MS, PROMPTS } from "./settings.js"
import { startModelAndApp } from "./sumServers.js"

const CACHE_SPEEDUP_TARGET = 5
const LATENCY_MS = argNumber("--latency-ms", MODEL_LATENCY_MS)

interface CachedRun {
  readonly wallS: number
  readonly inRunS: number
  readonly upstreamCalls: number
  readonly cachedCalls: number
  readonly avoidedUsd: number | null
}

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), "proctor-sum-eval-cache-"))
  const env = { ...process.env, ENVIRONMENT_API_KEY: randomBytes(16).toString("hex") }
  const { model, app } = await startModelAndApp(env, LATENCY_MS)
  const servers: Servers = {
    modelUrl: model.ready,
    appUrl: app.ready.url,
    proxy: { url: "", pid: 0 },
    pids: [model.pid, app.pid],
    env,
  }
  const cacheDir = join(work, "cache")
  const run = async (name: string): Promise<CachedRun> => {
    const runDir = join(work, name)
    const args = [...proctorArgs(servers, PROMPTS, runDir), "--cache", "--cache-dir", cacheDir]
    const result = await timedNode(args, env)
    if (result.code !== 0) throw new Error(`proctor eval exited ${result.code}:\n${result.stderrTail}`)
    const { summary } = JSON.parse(result.stdout) as {
      summary: { ok: number; duration_s: number; cache?: { calls: number; avoided_usd: number } }
    }
    if (summary.ok !== PROMPTS) throw new Error(`${name}: ${summary.ok} of ${PROMPTS} rollouts ok`)
    const calls = readFileSync(join(runDir, "model_calls.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { cached?: boolean })
    const cachedCalls = calls.filter((call) => call.cached === true).length
    return {
      wallS: result.wallMs / 1000,
      inRunS: summary.duration_s,
      upstreamCalls: calls.length - cachedCalls,
      cachedCalls,
      avoidedUsd: summary.cache?.avoided_usd ?? null,
    }
  }
  try {
    const first = await run("first")
    log(`first run: ${JSON.stringify(first)}`)
    const second = await run("second")
    log(`second run: ${JSON.stringify(second)}`)
    const speedup = first.wallS / second.wallS
    const verdict = {
      prompts: PROMPTS,
      model_latency_ms: LATENCY_MS,
      first,
      second,
      speedup_wall: Number(speedup.toFixed(2)),
      speedup_in_run: Number((first.inRunS / second.inRunS).toFixed(2)),
      zero_upstream_calls: second.upstreamCalls === 0,
      at_least_5x: speedup >= CACHE_SPEEDUP_TARGET,
    }
    console.log(JSON.stringify(verdict, null, 2))
    if (!verdict.zero_upstream_calls || !verdict.at_least_5x) process.exitCode = 1
  } finally {
    await Promise.all([model.stop(), app.stop()])
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
