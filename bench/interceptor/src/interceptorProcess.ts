/**
 * The interceptor on its own process, as `proctor eval` embeds it: `startInterceptor` on 127.0.0.1 with
 * proctor's pricing table. The bench drives it over the IPC channel (`child_process.fork`):
 *
 *   {id, op: "open", runId, rolloutId, seed, attempt, baseUrl, apiKey}  → {id, cid, inferenceUrl}
 *   {id, op: "close", cid, detail}  → {id, calls, ok, latencies?}   (latencies: the interceptor's own
 *                                                                    latency_ms / ttft_ms of each call)
 *   {id, op: "memory", gc}          → {id, rss, heapUsed, heapTotal, external, arrayBuffers, openRollouts,
 *                                      inFlight}                    (gc: collect first; needs --expose-gc)
 *   {id, op: "pauses"}              → {id, loopDelay {p50, p99, max}, minor {count, ms, max}, major {…}}
 *                                     since the last "pauses": event-loop delay (sampled every 2 ms) and
 *                                     GC pauses on the main thread, in ms
 *
 * Prints `{"url": …}` on stdout once it listens; exits when the IPC channel closes.
 */
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"
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

/** What stalls the event loop: its delay, and GC pauses by kind. */
const loopDelay = monitorEventLoopDelay({ resolution: 2 })
loopDelay.enable()
const emptyGc = () => ({ count: 0, ms: 0, max: 0 })
let minor = emptyGc()
let major = emptyGc()
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind
    const into = kind === constants.NODE_PERFORMANCE_GC_MINOR ? minor : major
    into.count++
    into.ms += entry.duration
    into.max = Math.max(into.max, entry.duration)
  }
}).observe({ entryTypes: ["gc"] })

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
        // The histogram holds the interval between ticks; the delay is what exceeds the resolution.
        const ms = (ns: number) => Math.max(0, ns / 1e6 - 2)
        send({
          id: message.id,
          loopDelay: {
            p50: ms(loopDelay.percentile(50)),
            p99: ms(loopDelay.percentile(99)),
            max: ms(loopDelay.max),
          },
          minor,
          major,
        })
        loopDelay.reset()
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
