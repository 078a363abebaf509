import { fileURLToPath } from "node:url"
import { selfCpu, startCpuMeter, timedNode, type ZeroWorkTaskApp } from "@proctor/bench-shared"
import { Pool } from "undici"
import { nodeHttpLoop } from "./nodeHttpLoop.js"
import { countWrong, isExpected, REQUEST_HEADERS, rolloutBody } from "./rolloutWire.js"
import { CONCURRENCY } from "./settings.js"

export interface LoopRun {
  readonly seconds: number
  readonly throughput: number
  /** CPU seconds of this (client) process during the measurement. */
  readonly cpuSeconds: number
  /** Cores used by other processes on the machine during the measurement. */
  readonly otherCores: number
}

const measured = async (app: ZeroWorkTaskApp, n: number, loop: () => Promise<number>): Promise<LoopRun> => {
  const meter = startCpuMeter([app.pid])
  const cpu0 = selfCpu()
  const t0 = performance.now()
  const wrong = await loop()
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
    return await measured(app, n, () =>
      countWrong(n, CONCURRENCY, async (seed) => {
        const res = await pool.request({
          method: "POST",
          path: "/rollout",
          headers: REQUEST_HEADERS,
          body: rolloutBody(seed),
        })
        return isExpected(res.statusCode, await res.body.text(), seed)
      }),
    )
  } finally {
    await pool.close()
  }
}

/** The bare `node:http` loop, timed in this process. */
export const bareNodeHttp = (app: ZeroWorkTaskApp, n: number): Promise<LoopRun> =>
  measured(app, n, () => nodeHttpLoop(app.ready.port, n, CONCURRENCY))

export interface WholeProcessRun {
  /** Spawn to exit. */
  readonly wallSeconds: number
  readonly wallThroughput: number
  readonly peakRssMb: number
  readonly cpuSeconds: number
  readonly otherCores: number
}

const BARE_LOOP_PROCESS = fileURLToPath(new URL("bareLoopProcess.js", import.meta.url))

/** The bare `node:http` loop as a whole process of its own (`bareLoopProcess.ts`), timed from spawn to exit. */
export const bareNodeHttpProcess = async (app: ZeroWorkTaskApp, n: number): Promise<WholeProcessRun> => {
  const meter = startCpuMeter([app.pid])
  const run = await timedNode([BARE_LOOP_PROCESS, String(app.ready.port), String(n), String(CONCURRENCY)])
  if (run.code !== 0) throw new Error(`the bare loop process exited with ${run.code}:\n${run.stderrTail}`)
  const wallSeconds = run.wallMs / 1000
  return {
    wallSeconds,
    wallThroughput: n / wallSeconds,
    peakRssMb: run.peakRssBytes / 2 ** 20,
    cpuSeconds: run.cpuSeconds,
    otherCores: meter(run.cpuSeconds).otherCores,
  }
}
