import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { fileURLToPath } from "node:url"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createBaselineModel, type RunningBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { children, ensureBuilt } from "./jobs.process.js"
import { type LimitedUpstream, peakPerSecond, startLimitedUpstream } from "./limitedUpstream.js"

// Real Redis on 127.0.0.1:6379, shared with other tests: the gate's keys are under a prefix of this test's own.
const REDIS_URL = "redis://127.0.0.1:6379"
/** The upstream accepts this many requests in any second and answers 429 above it. */
const LIMIT_PER_S = 10
const PROCESSES = 3
const CALLS_PER_PROCESS = 24
const CALLERS_PER_PROCESS = 8
const driver = fileURLToPath(new URL("./fixtures/rateGateDriver.mjs", import.meta.url))

const startDriver = (upstreamUrl: string, prefix: string) => {
  const child: ChildProcess = spawn(
    process.execPath,
    [driver, upstreamUrl, REDIS_URL, prefix, String(CALLS_PER_PROCESS), String(CALLERS_PER_PROCESS)],
    { stdio: ["pipe", "pipe", "pipe"] },
  )
  children.add(child)
  let stdout = ""
  let stderr = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      if (stdout.startsWith("ready\n")) resolve()
    })
    child.once("exit", (code) => reject(new Error(`driver exited (${code}) before it was ready: ${stderr}`)))
  })
  const done = new Promise<{ statuses: Record<string, number>; recorded: Array<number | null> }>((resolve, reject) =>
    child.once("exit", (code) => {
      children.delete(child)
      if (code !== 0) reject(new Error(`driver exited with ${code}: ${stderr}`))
      else resolve(JSON.parse(stdout.slice("ready\n".length)))
    }),
  )
  done.catch(() => {})
  return { child, ready, done, go: () => child.stdin!.end("go\n") }
}

describe("a model rate limit shared through Redis by 3 processes", () => {
  let model: RunningBaselineModel
  let upstream: LimitedUpstream
  const prefix = `test-rate-gate-${randomUUID()}`

  beforeAll(async () => {
    ensureBuilt()
    model = await createBaselineModel().listen()
    upstream = await startLimitedUpstream(model, LIMIT_PER_S)
  })
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL")
    await upstream?.close()
    await model?.close()
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}:*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })

  it(`settles below the upstream's ${LIMIT_PER_S} requests/s, and every call completes without a 429 reaching its caller`, async () => {
    const drivers = Array.from({ length: PROCESSES }, () => startDriver(upstream.url, prefix))
    await Promise.all(drivers.map((d) => d.ready))
    for (const d of drivers) d.go()
    const tallies = await Promise.all(drivers.map((d) => d.done))

    for (const tally of tallies) {
      expect(tally.statuses).toEqual({ 200: CALLS_PER_PROCESS })
      expect(tally.recorded).toEqual(Array(CALLS_PER_PROCESS).fill(200))
    }
    const { arrivals } = upstream
    const ok = arrivals.filter((a) => a.status === 200)
    const limited = arrivals.filter((a) => a.status === 429)
    expect(ok).toHaveLength(PROCESSES * CALLS_PER_PROCESS)
    // The first burst runs into the limit (nothing is known of it yet)...
    expect(limited.length).toBeGreaterThan(0)
    // ...then every process slows down together: over the second half of the run the upstream sees fewer than
    // the limit per second and hardly a 429 (on a loaded machine, timers that fire late can still bunch a few calls
    // into one second), and the 429s were few overall — every 429 paused all three processes, not only its own.
    const first = arrivals[0]!.at
    const last = arrivals.at(-1)!.at
    const secondHalf = arrivals.filter((a) => a.at >= (first + last) / 2)
    const timeline = arrivals.map((a) => `${Math.round(a.at - first)}${a.status === 429 ? "!" : ""}`).join(" ")
    const halfRate = secondHalf.length / ((last - (first + last) / 2) / 1000)
    const halfLimited = secondHalf.filter((a) => a.status === 429).length
    expect(halfRate, `arrivals (ms, ! = 429): ${timeline}`).toBeLessThan(LIMIT_PER_S)
    expect(halfLimited, `arrivals (ms, ! = 429): ${timeline}`).toBeLessThanOrEqual(secondHalf.length / 10)
    // At "go" all 24 callers send at once: 14 or so of the first burst are refused, and callers whose 200 came back
    // before the shared pause reached their process send once more into the limit; a gate each process kept to
    // itself would keep running into it, process by process, all run long.
    expect(limited.length).toBeLessThan(4 * LIMIT_PER_S)
    console.log(
      `rate gate: ${arrivals.length} upstream requests in ${((last - first) / 1000).toFixed(1)} s, ` +
        `${limited.length} answered 429; second half ${halfRate.toFixed(1)} req/s with ${halfLimited} 429s, ` +
        `peak ${peakPerSecond(secondHalf, 0)} in a second (limit ${LIMIT_PER_S})`,
    )
  })
})
