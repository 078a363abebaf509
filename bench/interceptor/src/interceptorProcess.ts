/**
 * The interceptor on its own process, as `proctor eval` embeds it: `startInterceptor` on 127.0.0.1 with
 * proctor's pricing table. The bench drives it over the IPC channel (`child_process.fork`):
 *
 *   {id, op: "open", runId, rolloutId, seed, attempt, baseUrl, apiKey}  → {id, cid, inferenceUrl}
 *   {id, op: "close", cid, detail}  → {id, calls, ok, latencies?}   (latencies: the interceptor's own
 *                                                                    latency_ms / ttft_ms of each call)
 *   {id, op: "memory", gc}          → {id, rss, heapUsed, heapTotal, external, arrayBuffers, openRollouts,
 *                                      inFlight}                    (gc: collect first; needs --expose-gc)
 *   {id, op: "pauses"}              → {id, loopDelay {p50, p99, max}, minor {count, ms, max}, major {…},
 *                                      stalls [[start, ms]], gcPauses [[start, ms]]}
 *                                     since the last "pauses": event-loop delay (sampled every 2 ms), GC
 *                                     pauses on the main thread, in ms; starts are epoch ms
 *
 * Prints `{"url": …}` on stdout once it listens; exits when the IPC channel closes.
 */
import { constants, PerformanceObserver } from "node:perf_hooks"
import { Pricing } from "@proctor/core"
import { startInterceptor } from "@proctor/server"
import { Effect, Redacted } from "effect"

interface OpenMessage {
  readonly id: number
  readonly op: "open"
  readonly runId: string
  readonly rolloutId: string
  readonly seed: number
  readonly attempt: number
  readonly baseUrl: string
  readonly apiKey: string
}

interface CloseMessage {
  readonly id: number
  readonly op: "close"
  readonly cid: string
  readonly detail: boolean
}

interface MemoryMessage {
  readonly id: number
  readonly op: "memory"
  readonly gc: boolean
}

interface PausesMessage {
  readonly id: number
  readonly op: "pauses"
}

type Message = OpenMessage | CloseMessage | MemoryMessage | PausesMessage

/**
 * What stalls the event loop. A 2 ms interval timer: how late each tick fires is the loop's delay (GC, long
 * callbacks, or the process waiting for a core), and ticks over 1 ms late are kept as stalls with their
 * wall-clock start (performance.timeOrigin-based, comparable across processes). GC pauses likewise, by kind.
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

const send = (reply: object) => {
  // The bench may have gone (Ctrl-C) with a request in flight.
  if (process.connected) process.send!(reply)
}

const pricing = Pricing.make([])
const running = await startInterceptor({ host: "127.0.0.1", port: 0, priceCall: pricing.costOf })
const { interceptor } = running
const gc = (globalThis as { gc?: () => void }).gc

process.on("message", (raw: unknown) => {
  const message = raw as Message
  try {
    switch (message.op) {
      case "open": {
        const opened = Effect.runSync(
          interceptor.open({
            runId: message.runId,
            rolloutId: message.rolloutId,
            seed: message.seed,
            attempt: message.attempt,
            upstream: { baseUrl: message.baseUrl, apiKey: Redacted.make(message.apiKey), provider: "openai" },
          }),
        )
        send({ id: message.id, cid: opened.cid, inferenceUrl: opened.inferenceUrl })
        return
      }
      case "close": {
        const calls = Effect.runSync(interceptor.close(message.cid))
        const ok = calls.filter((c) => c.outcome === "ok" && c.usage !== null).length
        send({
          id: message.id,
          calls: calls.length,
          ok,
          ...(message.detail
            ? { latencies: calls.map((c) => c.latency_ms), ttfts: calls.map((c) => c.ttft_ms ?? -1) }
            : {}),
        })
        return
      }
      case "pauses": {
        const sorted = delays.sort((a, b) => a - b)
        send({
          id: message.id,
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
        return
      }
      case "memory": {
        if (message.gc && gc !== undefined) {
          gc()
          gc()
        }
        const m = process.memoryUsage()
        send({
          id: message.id,
          rss: m.rss,
          heapUsed: m.heapUsed,
          heapTotal: m.heapTotal,
          external: m.external,
          arrayBuffers: m.arrayBuffers,
          openRollouts: interceptor.openRollouts(),
          inFlight: interceptor.inFlight(),
        })
        return
      }
    }
  } catch (error) {
    send({ id: message.id, error: error instanceof Error ? error.message : String(error) })
  }
})

process.on("disconnect", () => {
  void running.close().finally(() => process.exit(0))
})

process.stdout.write(`${JSON.stringify({ url: running.url })}\n`)
