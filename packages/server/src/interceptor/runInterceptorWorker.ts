import { parentPort, workerData } from "node:worker_threads"
import { DEFAULT_UPSTREAM_TIMEOUT_MS, InterceptorCore } from "@proctor/core/interceptor-core"
import { type ListeningInterceptor, listenInterceptor } from "@proctor/core/interceptor-server"
import { localRateGate, type ModelRateGate } from "@proctor/core/rate-gate"
import { Redacted } from "effect"
import {
  CALL_BATCH_MS,
  type FinishedCall,
  type FromWorker,
  type ToWorker,
  type WorkerSettings,
} from "./internal/workerProtocol.js"

/**
 * The body of the interceptor thread started by `startInterceptorWorker`: serves the interceptor on its own
 * event loop and answers open / close / stop from the thread that started it. It runs the interceptor's plain
 * core, without Effect's runtime or Schema: the thread starts in a fresh isolate on every `proctor eval`, and
 * what it loads is compiled again there. Calls leave unpriced; the starting thread prices them. Exported
 * (from `@proctor/server/internal/interceptor-thread` only) for a thread entry of another build: the CLI's
 * bundle, a benchmark's probes.
 */
export const runInterceptorWorker = async (): Promise<void> => {
  const port = parentPort
  if (port === null) throw new Error("runInterceptorWorker must run on a worker thread")
  const settings = workerData as WorkerSettings
  const send = (message: FromWorker) => port.postMessage(message)
  const shared = settings.sharedRateGate
  const rateGate: ModelRateGate =
    shared === null
      ? localRateGate({ limits: settings.modelRateLimits })
      : ((await import(shared.module)) as typeof import("./redisRateGate.js")).redisRateGate({
          redisUrl: shared.redisUrl,
          prefix: shared.prefix,
          limits: settings.modelRateLimits,
        })
  // Each call leaves the proxy's heap as it finishes, as JSON (its form in model_calls.jsonl): one flat string
  // instead of an object graph that survives scavenges and is cloned field by field on the way out. Finished
  // calls cross together, at most CALL_BATCH_MS after the first of them (and before any reply about a rollout):
  // one message, one wake-up of the starting thread, per batch instead of per call. A call finishing in the
  // window's last fifth sends the batch, so under load the timer is cleared before it would wake this thread.
  const finished: Array<string> = []
  let batchStartedAt = 0
  let batchTimer: ReturnType<typeof setTimeout> | null = null
  const sendCalls = () => {
    if (batchTimer !== null) clearTimeout(batchTimer)
    batchTimer = null
    if (finished.length === 0) return
    send({ op: "calls", calls: `[${finished.join(",")}]` })
    finished.length = 0
  }
  const core = new InterceptorCore({
    baseUrl: null,
    priceCall: () => null,
    keepCalls: false,
    publish: (call, origin) => {
      finished.push(JSON.stringify({ cid: origin.cid, index: origin.index, call } satisfies FinishedCall))
      if (batchTimer === null) {
        batchStartedAt = performance.now()
        batchTimer = setTimeout(sendCalls, CALL_BATCH_MS)
      } else if (performance.now() - batchStartedAt >= CALL_BATCH_MS * 0.8) {
        sendCalls()
      }
    },
    upstreamTimeoutMs: settings.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    connectionsPerOrigin: settings.connectionsPerOrigin ?? null,
    rateGate,
  })
  let server: ListeningInterceptor
  try {
    server = await listenInterceptor(core, settings)
  } catch (error) {
    await core.shutdown()
    await rateGate.close()
    send({ op: "failed", message: error instanceof Error ? error.message : String(error) })
    return
  }
  port.on("message", (message: ToWorker) => {
    switch (message.op) {
      case "open": {
        const { apiKey, ...upstream } = message.upstream
        const opened = core.open({
          runId: message.runId,
          rolloutId: message.rolloutId,
          seed: message.seed,
          attempt: message.attempt,
          upstream: { ...upstream, apiKey: apiKey === null ? null : Redacted.make(apiKey) },
        })
        send(
          "refused" in opened
            ? { op: "refused", id: message.id, reason: opened.refused, message: opened.message }
            : { op: "opened", id: message.id, cid: opened.cid, inferenceUrl: opened.inferenceUrl },
        )
        return
      }
      case "close":
        // Calls still in flight are cancelled; every call of the rollout is sent before the reply.
        core.close(message.cid)
        sendCalls()
        send({ op: "closed", id: message.id })
        return
      case "stop":
        // In-flight calls end as cancelled; with the server closed and the port closed the thread exits.
        void server
          .close()
          .finally(() => core.shutdown())
          .finally(sendCalls)
          .finally(() => rateGate.close())
          .finally(() => port.close())
        return
    }
  })
  send({ op: "listening", url: server.url })
}
