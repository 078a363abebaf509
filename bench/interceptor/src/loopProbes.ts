/**
 * The bench's probes on the interceptor's event loop (its process's main thread, where `proctor eval` serves it):
 * a 2 ms interval timer whose lateness is the loop's delay (GC, long callbacks, or the thread waiting for a core),
 * ticks over 1 ms late kept as stalls with their wall-clock start (performance.timeOrigin-based, comparable
 * across processes), and GC pauses by kind. Each tick wakes the thread, which costs CPU the interceptor would not
 * spend (tens of µs a tick on a VM), so CPU per call is measured with the timer stopped (`setTicking(false)`).
 */
import { constants, PerformanceObserver } from "node:perf_hooks"

const TICK_MS = 2
const STALL_MS = 1

export interface GcTally {
  count: number
  ms: number
  max: number
}

const emptyGc = (): GcTally => ({ count: 0, ms: 0, max: 0 })
let delays: Array<number> = []
let stalls: Array<[number, number]> = []
let gcPauses: Array<[number, number]> = []
let minor = emptyGc()
let major = emptyGc()
let lastTick = 0
let ticking: ReturnType<typeof setInterval> | null = null

const tick = () => {
  const now = performance.now()
  const late = Math.max(0, now - lastTick - TICK_MS)
  delays.push(late)
  if (late > STALL_MS) stalls.push([performance.timeOrigin + lastTick + TICK_MS, late])
  lastTick = now
}

export const setTicking = (on: boolean): void => {
  if (ticking !== null) clearInterval(ticking)
  ticking = null
  if (!on) return
  lastTick = performance.now()
  // Unreferenced: it never keeps the process alive once the interceptor has stopped.
  ticking = setInterval(tick, TICK_MS).unref()
}

/** Starts the timer and the GC observer. */
export const startProbes = (): void => {
  setTicking(true)
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
}

/** Event-loop delays (ms), stalls, GC pauses and their tallies since the previous call. */
export const takePauses = () => {
  const taken = { loopDelays: delays, minor, major, stalls, gcPauses }
  delays = []
  stalls = []
  gcPauses = []
  minor = emptyGc()
  major = emptyGc()
  return taken
}
