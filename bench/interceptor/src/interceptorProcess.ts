/**
 * The interceptor on its own process, as `proctor eval` runs it: `startInterceptorWorker` (a thread of its own
 * with proctor's pricing, on 127.0.0.1), its entry `probedInterceptorThread.ts` loading the bench's probes on
 * that thread first. The bench drives it over the IPC channel (`child_process.fork`, bench-shared's ipc.ts):
 *
 *   {id, op: "open", runId, rolloutId, seed, attempt, baseUrl, apiKey}  → {id, cid, inferenceUrl}
 *   {id, op: "close", cid, detail}  → {id, calls, ok, latencies?}   (latencies: the interceptor's own
 *                                                                    latency_ms / ttft_ms of each call)
 *   {id, op: "memory", gc}          → {id, rss, heapUsed, heapTotal, external, arrayBuffers, openRollouts,
 *                                      inFlight}                    (gc: collect first, on both threads;
 *                                                                    needs --expose-gc; heap figures are the
 *                                                                    two threads' heaps added up — this one
 *                                                                    holds each rollout's calls until it
 *                                                                    closes, as the runner's thread does)
 *   {id, op: "pauses"}              → {id, loopDelay {p50, p99, max}, minor {count, ms, max}, major {…},
 *                                      stalls [[start, ms]], gcPauses [[start, ms]]}   (the thread's)
 *   {id, op: "tick", on}            → {id}      (starts or stops the probe's 2 ms timer on the thread)
 *
 * Prints `{"url": …}` on stdout once it listens; exits when the IPC channel closes.
 */
import { BroadcastChannel } from "node:worker_threads"
import { answerIpc, percentiles } from "@proctor/bench-shared"
import { startInterceptorWorker } from "@proctor/server/internal/interceptor-thread"
import { Effect, Redacted } from "effect"
import { PROBE_CHANNEL, type ProbeRequest } from "./probeChannel.js"

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

const running = await startInterceptorWorker({
  host: "127.0.0.1",
  port: 0,
  entry: new URL("./probedInterceptorThread.js", import.meta.url),
})

type HeapFigure = "heapUsed" | "heapTotal" | "external" | "arrayBuffers"
const gc = (globalThis as { gc?: () => void }).gc

/** Asks the probes on the interceptor's thread. */
const probes = new BroadcastChannel(PROBE_CHANNEL)
probes.unref()
const waiting = new Map<number, (reply: Record<string, unknown>) => void>()
probes.onmessage = (event) => {
  const { probe, ...reply } = (event as unknown as { data: { probe: number } & Record<string, unknown> }).data
  waiting.get(probe)?.(reply)
  waiting.delete(probe)
}
let nextProbe = 0
const probe = (message: Omit<ProbeRequest, "probe">) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const id = nextProbe++
    waiting.set(id, resolve)
    probes.postMessage({ probe: id, ...message } satisfies ProbeRequest)
  })

/** What is open and in flight, from the interceptor's own health route. */
const health = async () =>
  (await (await fetch(`${running.url}/healthz`)).json()) as { open_rollouts: number; in_flight: number }

const answer = async (message: Message): Promise<object> => {
  switch (message.op) {
    case "open": {
      const opened = await Effect.runPromise(
        running.open({
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
      const calls = await Effect.runPromise(running.close(message.cid))
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
      const { loopDelays, ...pauses } = await probe({ op: "pauses" })
      const delay = percentiles(loopDelays as Array<number>)
      return { loopDelay: { p50: delay.p50, p99: delay.p99, max: delay.max }, ...pauses }
    }
    case "tick":
      await probe({ op: "tick", on: message.on })
      return {}
    case "memory": {
      const proxy = (await probe({ op: "memory", gc: message.gc })) as Record<HeapFigure, number>
      if (message.gc && gc !== undefined) {
        gc()
        gc()
      }
      const here = process.memoryUsage()
      const open = await health()
      return {
        rss: here.rss,
        heapUsed: here.heapUsed + proxy.heapUsed,
        heapTotal: here.heapTotal + proxy.heapTotal,
        external: here.external + proxy.external,
        arrayBuffers: here.arrayBuffers + proxy.arrayBuffers,
        openRollouts: open.open_rollouts,
        inFlight: open.in_flight,
      }
    }
  }
}

answerIpc<Message>(answer)

process.on("disconnect", () => {
  void running.stop().finally(() => process.exit(0))
})

process.stdout.write(`${JSON.stringify({ url: running.url })}\n`)
