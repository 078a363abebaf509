import { parentPort, workerData } from "node:worker_threads"
import { InterceptorError, Pricing } from "@proctor/core"
import { Cause, Effect, Exit, Option, Redacted } from "effect"
import type { FromWorker, ToWorker, WorkerSettings } from "./internal/workerProtocol.js"
import { startInterceptor } from "./startInterceptor.js"

/**
 * The body of the interceptor thread started by `startInterceptorWorker`: serves the interceptor on its own
 * event loop and answers open / close / stop from the thread that started it. Exported so an instrumented
 * entry (a benchmark's) can run the same thread with its own probes loaded first.
 */
export const runInterceptorWorker = async (): Promise<void> => {
  const port = parentPort
  if (port === null) throw new Error("runInterceptorWorker must run on a worker thread")
  const settings = workerData as WorkerSettings
  const send = (message: FromWorker) => port.postMessage(message)
  let running: Awaited<ReturnType<typeof startInterceptor>>
  try {
    running = await startInterceptor({
      host: settings.host,
      port: settings.port,
      priceCall: Pricing.make(settings.pricingOverrides).costOf,
      upstreamTimeoutMs: settings.upstreamTimeoutMs,
      connectionsPerOrigin: settings.connectionsPerOrigin,
      bodyLimit: settings.bodyLimit,
      // Each call leaves the thread as it finishes: the proxy's heap keeps no records (fewer survivors per
      // scavenge), and closing a rollout costs no burst of copying its calls.
      keepCalls: false,
      onCall: (call, origin) => send({ op: "call", cid: origin.cid, index: origin.index, call }),
    })
  } catch (error) {
    send({ op: "failed", message: error instanceof Error ? error.message : String(error) })
    return
  }
  const { interceptor } = running
  port.on("message", (message: ToWorker) => {
    switch (message.op) {
      case "open": {
        const { apiKey, ...upstream } = message.upstream
        const exit = Effect.runSyncExit(
          interceptor.open({
            runId: message.runId,
            rolloutId: message.rolloutId,
            seed: message.seed,
            attempt: message.attempt,
            upstream: { ...upstream, apiKey: apiKey === null ? null : Redacted.make(apiKey) },
          }),
        )
        if (Exit.isSuccess(exit)) {
          send({ op: "opened", id: message.id, cid: exit.value.cid, inferenceUrl: exit.value.inferenceUrl })
        } else {
          const error = Option.getOrNull(Cause.failureOption(exit.cause))
          send({
            op: "refused",
            id: message.id,
            reason: error instanceof InterceptorError ? error.reason : "Stopped",
            message: error?.message ?? "the interceptor failed to open a rollout",
          })
        }
        return
      }
      case "close":
        // Calls still in flight are cancelled and sent before the reply.
        Effect.runSync(interceptor.close(message.cid))
        send({ op: "closed", id: message.id })
        return
      case "stop":
        // In-flight calls end as cancelled; with the server closed and the port closed the thread exits.
        void running.close().finally(() => port.close())
        return
    }
  })
  send({ op: "listening", url: running.url })
}
