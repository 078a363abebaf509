import { randomFillSync } from "node:crypto"
import { Agent, request as httpRequest } from "node:http"
import { selfCpu, startCpuMeter, type ZeroWorkTaskApp } from "@proctor/bench-shared"
import { Pool } from "undici"
import { CONCURRENCY } from "./settings.js"

const hexPool = Buffer.alloc(8192)
let hexOffset = hexPool.length
const randomHex = (bytes: number): string => {
  if (hexOffset + bytes > hexPool.length) {
    randomFillSync(hexPool)
    hexOffset = 0
  }
  const hex = hexPool.toString("hex", hexOffset, hexOffset + bytes)
  hexOffset += bytes
  return hex
}

/**
 * The body `proctor eval --url URL --seeds …` sends (packages/core/src/RolloutRequestBuilder.ts with the
 * CLI's defaults: no app_id/env_name/policy/model, no trace, timeout 300 s), built and serialised per
 * request as proctor does.
 */
const rolloutBody = (seed: number): string => {
  const runId = `eval-seed-${seed}-${randomHex(4)}`
  return JSON.stringify({
    run_id: runId,
    trace_correlation_id: runId,
    env: { env_name: "default", config: {}, seed },
    policy: { policy_name: "policy", config: {} },
    record: { trajectories: true, logprobs: false, value: false, return_trace: false, trace_format: "compact" },
    on_done: "reset",
    safety: { max_ops: 100_000, max_time_s: 300 },
    training_session_id: null,
    synth_base_url: null,
    mode: "eval",
  })
}

const REQUEST_HEADERS = { "content-type": "application/json", accept: "application/json" }

interface RolloutAnswer {
  readonly metrics?: { readonly outcome_score?: number }
}

/** The answer must be the zero-work app's: status 200 and score = seed % 2. */
const isExpected = (status: number, text: string, seed: number) =>
  status === 200 && (JSON.parse(text) as RolloutAnswer).metrics?.outcome_score === seed % 2

export interface LoopRun {
  readonly seconds: number
  readonly throughput: number
  /** CPU seconds of this (client) process during the measurement. */
  readonly cpuSeconds: number
  /** Cores used by other processes on the machine during the measurement. */
  readonly otherCores: number
}

const runWorkers = async (
  app: ZeroWorkTaskApp,
  n: number,
  one: (seed: number) => Promise<boolean>,
): Promise<LoopRun> => {
  let next = 0
  let wrong = 0
  const worker = async () => {
    while (next < n) {
      const seed = next++
      if (!(await one(seed))) wrong++
    }
  }
  const meter = startCpuMeter([app.pid])
  const cpu0 = selfCpu()
  const t0 = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const seconds = (performance.now() - t0) / 1000
  const cpuSeconds = selfCpu() - cpu0
  const otherCores = meter().otherCores
  if (wrong > 0) throw new Error(`${wrong} of ${n} answers were not the expected rollout response`)
  return { seconds, throughput: n / seconds, cpuSeconds, otherCores }
}

/** A bare undici `Pool` loop: CONCURRENCY connections, CONCURRENCY workers. */
export const bareUndici = async (app: ZeroWorkTaskApp, n: number): Promise<LoopRun> => {
  const pool = new Pool(app.origin, { connections: CONCURRENCY, keepAliveTimeout: 30_000 })
  try {
    return await runWorkers(app, n, async (seed) => {
      const res = await pool.request({
        method: "POST",
        path: "/rollout",
        headers: REQUEST_HEADERS,
        body: rolloutBody(seed),
      })
      return isExpected(res.statusCode, await res.body.text(), seed)
    })
  } finally {
    await pool.close()
  }
}

/** A bare `node:http` keep-alive loop (`http.Agent`, maxSockets CONCURRENCY). */
export const bareNodeHttp = async (app: ZeroWorkTaskApp, n: number): Promise<LoopRun> => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const post = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          agent,
          host: "127.0.0.1",
          port: app.ready.port,
          method: "POST",
          path: "/rollout",
          headers: { ...REQUEST_HEADERS, "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (chunk: Buffer) => chunks.push(chunk))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
          res.on("error", reject)
        },
      )
      req.on("error", reject)
      req.end(body)
    })
  try {
    return await runWorkers(app, n, async (seed) => {
      const { status, text } = await post(rolloutBody(seed))
      return isExpected(status, text, seed)
    })
  } finally {
    agent.destroy()
  }
}
