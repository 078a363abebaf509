/**
 * The interceptor thread as `proctor eval` runs it (`runInterceptorWorker`), with the bench's probes loaded
 * first on the same thread: its event-loop delay, its GC pauses and its heap are the interceptor's own. The
 * probes answer on the BroadcastChannel of probeChannel.ts.
 */
import { constants, PerformanceObserver } from "node:perf_hooks"
import { BroadcastChannel } from "node:worker_threads"
import { runInterceptorWorker } from "@proctor/server/internal/interceptor-thread"
import { PROBE_CHANNEL, type ProbeRequest } from "./probeChannel.js"

/**
 * A 2 ms interval timer: how late each tick fires is the loop's delay (GC, long callbacks, or the thread
 * waiting for a core), and ticks over 1 ms late are kept as stalls with their wall-clock start
 * (performance.timeOrigin-based, comparable across processes). GC pauses likewise, by kind.
 */
const TICK_MS = 2
const STALL_MS = 1
let delays: Array<number> = []
let stalls: Array<[number, number]> = []
let lastTick = 0
const tick = () => {
  const now = performance.now()
  const late = Math.max(0, now - lastTick - TICK_MS)
  delays.push(late)
  if (late > STALL_MS) stalls.push([performance.timeOrigin + lastTick + TICK_MS, late])
  lastTick = now
}
let ticking: ReturnType<typeof setInterval> | null = null
const setTicking = (on: boolean) => {
  if (ticking !== null) clearInterval(ticking)
  ticking = null
  if (!on) return
  lastTick = performance.now()
  // Unreferenced, like the channel: neither keeps the thread alive once the interceptor has stopped.
  ticking = setInterval(tick, TICK_MS).unref()
}
setTicking(true)
const emptyGc = () => ({ count: 0, ms: 0, max: 0 })
let minor = emptyGc()
let major = emptyGc()
let gcPauses: Array<[number, number]> = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind
    const into = kind === constants.NODE_PERFORMANCE_GC_MINOR ? minor : major
    into.count++
    into.ms += entry.duration
    into.max = Math.max(into.max, entry.duration)
    gcPauses.push([performance.timeOrigin + entry.startTime, entry.duration])
  }
}).observe({ entryTypes: ["gc"] })

const gc = (globalThis as { gc?: () => void }).gc

const probes = new BroadcastChannel(PROBE_CHANNEL)
probes.unref()
probes.onmessage = (event) => {
  const message = (event as unknown as { data: ProbeRequest }).data
  if (typeof message.probe !== "number") return
  if (message.op === "tick") {
    setTicking(message.on === true)
    probes.postMessage({ probe: message.probe })
    return
  }
  if (message.op === "memory") {
    if (message.gc && gc !== undefined) {
      gc()
      gc()
    }
    const m = process.memoryUsage()
    probes.postMessage({
      probe: message.probe,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    })
    return
  }
  probes.postMessage({ probe: message.probe, loopDelays: delays, minor, major, stalls, gcPauses })
  delays = []
  stalls = []
  gcPauses = []
  minor = emptyGc()
  major = emptyGc()
}

await runInterceptorWorker()
