/**
 * The interceptor thread as `proctor eval` runs it (`runInterceptorWorker`), with the bench's probes loaded
 * first on the same thread: its event-loop delay, its GC pauses and its heap are the interceptor's own.
 *
 *   {probe: id, op: "memory", gc}  → {probe: id, heapUsed, heapTotal, external, arrayBuffers}
 *   {probe: id, op: "pauses"}      → {probe: id, loopDelay {p50, p99, max}, minor {count, ms, max}, major {…},
 *                                    stalls [[start, ms]], gcPauses [[start, ms]]}
 *                                   since the last "pauses": event-loop delay (sampled every 2 ms), GC pauses,
 *                                   in ms; starts are epoch ms
 */
import { constants, PerformanceObserver } from "node:perf_hooks"
import { parentPort } from "node:worker_threads"
import { runInterceptorWorker } from "@proctor/server"

interface ProbeMessage {
  readonly probe: number
  readonly op: "memory" | "pauses"
  readonly gc?: boolean
}

/**
 * A 2 ms interval timer: how late each tick fires is the loop's delay (GC, long callbacks, or the thread
 * waiting for a core), and ticks over 1 ms late are kept as stalls with their wall-clock start
 * (performance.timeOrigin-based, comparable across processes). GC pauses likewise, by kind.
 */
const TICK_MS = 2
const STALL_MS = 1
let delays: Array<number> = []
let stalls: Array<[number, number]> = []
let lastTick = performance.now()
setInterval(() => {
  const now = performance.now()
  const late = Math.max(0, now - lastTick - TICK_MS)
  delays.push(late)
  if (late > STALL_MS) stalls.push([performance.timeOrigin + lastTick + TICK_MS, late])
  lastTick = now
}, TICK_MS)
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

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const gc = (globalThis as { gc?: () => void }).gc

parentPort!.on("message", (message: ProbeMessage) => {
  if (typeof message.probe !== "number") return
  if (message.op === "memory") {
    if (message.gc && gc !== undefined) {
      gc()
      gc()
    }
    const m = process.memoryUsage()
    parentPort!.postMessage({
      probe: message.probe,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    })
    return
  }
  const sorted = delays.sort((a, b) => a - b)
  parentPort!.postMessage({
    probe: message.probe,
    loopDelay: {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length === 0 ? 0 : sorted[sorted.length - 1]!,
    },
    minor,
    major,
    stalls,
    gcPauses,
  })
  delays = []
  stalls = []
  gcPauses = []
  minor = emptyGc()
  major = emptyGc()
})

await runInterceptorWorker()
