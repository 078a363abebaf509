/**
 * The interceptor on its own process, as `proctor eval` runs it: an `Interceptor` with proctor's pricing served on
 * this thread's event loop (`startInterceptor`, the same `serveInterceptor` the CLI uses, on 127.0.0.1), with the
 * bench's probes (loopProbes.ts) on the same loop. The bench drives it over the IPC channel (`child_process.fork`,
 * bench-shared's ipc.ts):
 *
 *   {id, op: "open", runId, rolloutId, seed, attempt, baseUrl, apiKey}  → {id, cid, inferenceUrl}
 *   {id, op: "close", cid, detail}  → {id, calls, ok, latencies?}   (latencies: the interceptor's own
 *                                                                    latency_ms / ttft_ms of each call)
 *   {id, op: "memory", gc}          → {id, rss, heapUsed, heapTotal, external, arrayBuffers, openRollouts,
 *                                      inFlight}                    (gc: collect first; needs --expose-gc)
 *   {id, op: "pauses"}              → {id, loopDelay {p50, p99, max}, minor {count, ms, max}, major {…},
 *                                      stalls [[start, ms]], gcPauses [[start, ms]]}
 *   {id, op: "tick", on}            → {id}      (starts or stops the probe's 2 ms timer)
 *
 * Prints `{"url": …}` on stdout once it listens; exits when the IPC channel closes.
 */
import { answerIpc, percentiles } from "@proctor/bench-shared"
import { Pricing } from "@proctor/core"
import { startInterceptor } from "@proctor/server"
import { Effect, Redacted } from "effect"
import { setTicking, startProbes, takePauses } from "./loopProbes.js"

interface OpenMessage {
  readonly op: "open"
  readonly runId: string
  readonly rolloutId: string
  readonly seed: number
  readonly attempt: number
  readonly baseUrl: string
  readonly apiKey: string
}

interface CloseMessage {
  readonly op: "close"
  readonly cid: string
  readonly detail: boolean
}

interface MemoryMessage {
  readonly op: "memory"
  readonly gc: boolean
}

interface PausesMessage {
  readonly op: "pauses"
}

interface TickMessage {
  readonly op: "tick"
  readonly on: boolean
}

type Message = OpenMessage | CloseMessage | MemoryMessage | PausesMessage | TickMessage

startProbes()
const pricing = await Effect.runPromise(Pricing.make([]))
const { interceptor, url, close } = await startInterceptor({ host: "127.0.0.1", priceCall: pricing.costOf })

const gc = (globalThis as { gc?: () => void }).gc

const answer = async (message: Message): Promise<object> => {
  switch (message.op) {
    case "open": {
      const opened = await Effect.runPromise(
        interceptor.open({
          runId: message.runId,
          rolloutId: message.rolloutId,
          seed: message.seed,
          attempt: message.attempt,
          upstream: { baseUrl: message.baseUrl, apiKey: Redacted.make(message.apiKey), provider: "openai" },
        }),
      )
      return { cid: opened.cid, inferenceUrl: opened.inferenceUrl }
    }
    case "close": {
      const calls = await Effect.runPromise(interceptor.close(message.cid))
      const ok = calls.filter((c) => c.outcome === "ok" && c.usage !== null).length
      return {
        calls: calls.length,
        ok,
        ...(message.detail
          ? { latencies: calls.map((c) => c.latency_ms), ttfts: calls.map((c) => c.ttft_ms ?? -1) }
          : {}),
      }
    }
    case "pauses": {
      const { loopDelays, ...pauses } = takePauses()
      const delay = percentiles(loopDelays)
      return { loopDelay: { p50: delay.p50, p99: delay.p99, max: delay.max }, ...pauses }
    }
    case "tick":
      setTicking(message.on)
      return {}
    case "memory": {
      if (message.gc && gc !== undefined) {
        gc()
        gc()
      }
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage()
      return {
        rss,
        heapUsed,
        heapTotal,
        external,
        arrayBuffers,
        openRollouts: interceptor.openRollouts(),
        inFlight: interceptor.inFlight(),
      }
    }
  }
}

answerIpc<Message>(answer)

process.on("disconnect", () => {
  void close().finally(() => process.exit(0))
})

process.stdout.write(`${JSON.stringify({ url })}\n`)
