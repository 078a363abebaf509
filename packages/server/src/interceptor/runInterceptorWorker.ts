import { parentPort, workerData } from "node:worker_threads"
import { DEFAULT_UPSTREAM_TIMEOUT_MS, InterceptorCore } from "@proctor/core/interceptor-core"
import { type ListeningInterceptor, listenInterceptor } from "@proctor/core/interceptor-server"
import { localRateGate, type ModelRateGate } from "@proctor/core/rate-gate"
import { Redacted } from "effect"
import type { FromWorker, ToWorker, WorkerSettings } from "./internal/workerProtocol.js"

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
  const core = new InterceptorCore({
    baseUrl: null,
    priceCall: () => null,
    // Each call leaves the thread as it finishes: the proxy's heap keeps no records (fewer survivors per
    // scavenge), and closing a rollout costs no burst of copying its calls.
    keepCalls: false,
    publish: (call, origin) => send({ op: "call", cid: origin.cid, index: origin.index, call }),
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
        // Calls still in flight are cancelled and sent before the reply.
        core.close(message.cid)
        send({ op: "closed", id: message.id })
        return
      case "stop":
        // In-flight calls end as cancelled; with the server closed and the port closed the thread exits.
        void server
          .close()
          .finally(() => core.shutdown())
          .finally(() => rateGate.close())
          .finally(() => port.close())
        return
    }
  })
  send({ op: "listening", url: server.url })
}
