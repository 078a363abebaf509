import {
  type InterceptedRollout,
  InterceptorError,
  type InterceptorOpenOptions,
  type ModelCall,
  Pricing,
  type PricingOverrides,
  type RolloutInterception,
} from "@proctor/core"
import { Effect, Redacted } from "effect"
import { type FinishedCall, type FromWorker, isReply, type Reply, type ToWorker } from "./internal/workerProtocol.js"
import {
  type InterceptorThreadOptions,
  type LaunchedInterceptorThread,
  launchInterceptorThread,
} from "./launchInterceptorThread.js"

export interface InterceptorWorkerOptions extends InterceptorThreadOptions {
  /** Overrides or additions to proctor's price table; calls are priced on this thread as they arrive. */
  readonly pricingOverrides?: PricingOverrides | undefined
  /** A thread `launchInterceptorThread` started earlier (with its own options): taken over, not started again. */
  readonly launched?: LaunchedInterceptorThread | undefined
}

export interface RunningInterceptorWorker extends RolloutInterception {
  /** The interceptor's base URL, e.g. `http://127.0.0.1:41234`; rollouts get `${url}/${cid}/v1`. */
  readonly url: string
  /**
   * Stops the interceptor (in-flight calls end as cancelled) and waits for the thread to exit. Until then the
   * thread keeps the process alive, as a listening server does.
   */
  readonly stop: () => Promise<void>
}

/**
 * Starts the inference interceptor on a worker thread of its own: model calls are proxied on an event loop
 * that the runner's work (journal writes, result handling, progress) never delays, with a heap sized for
 * latency. The runner opens and closes rollouts by message; each call is sent to this thread as it finishes,
 * and closing a rollout returns its calls.
 */
export const startInterceptorWorker = (options: InterceptorWorkerOptions = {}): Promise<RunningInterceptorWorker> => {
  const launched = options.launched ?? launchInterceptorThread(options)
  const { thread } = launched
  // A thread launched ahead (and not kept alive while its command loaded) is now this process's business.
  thread.ref()
  // Priced here, not on the thread: the price table (and the Schema that reads pricing files) stays out of
  // the thread's start-up, and the proxy's event loop does a little less per call.
  const pricing = Pricing.make(options.pricingOverrides ?? [])
  const priced = (call: ModelCall): ModelCall => {
    const cost = pricing.costOf(call.provider, call.model, call.usage)
    return { ...call, cost_usd: typeof cost === "number" && Number.isFinite(cost) ? cost : null }
  }
  const pending = new Map<number, (reply: Reply | null) => void>()
  /** Each open rollout's calls, as the thread sends them. */
  const callsByRollout = new Map<string, Array<ModelCall>>()
  let nextId = 0
  let exitReason: string | null = null

  /** The thread's reply, or null once it has exited. */
  const ask = (message: ToWorker & { readonly id: number }) =>
    Effect.async<Reply | null>((resume) => {
      if (exitReason !== null) return resume(Effect.succeed(null))
      pending.set(message.id, (reply) => resume(Effect.succeed(reply)))
      thread.postMessage(message)
    })

  const open = (request: InterceptorOpenOptions): Effect.Effect<InterceptedRollout, InterceptorError> =>
    Effect.flatMap(
      Effect.suspend(() =>
        ask({
          op: "open",
          id: nextId++,
          runId: request.runId,
          rolloutId: request.rolloutId,
          seed: request.seed,
          attempt: request.attempt,
          upstream: {
            baseUrl: request.upstream.baseUrl,
            apiKey: request.upstream.apiKey ? Redacted.value(request.upstream.apiKey) : null,
            provider: request.upstream.provider ?? null,
          },
        }),
      ),
      (reply) => {
        if (reply?.op === "opened") {
          callsByRollout.set(reply.cid, [])
          return Effect.succeed({ cid: reply.cid, inferenceUrl: reply.inferenceUrl })
        }
        if (reply?.op === "refused") {
          return Effect.fail(new InterceptorError({ reason: reply.reason, message: reply.message }))
        }
        return Effect.fail(
          new InterceptorError({
            reason: "Stopped",
            message: `the interceptor thread has stopped (${exitReason ?? "no answer"})`,
          }),
        )
      },
    )

  // A thread that has died took its unfinished calls with it: the rollout's result is still stored.
  const close = (cid: string): Effect.Effect<ReadonlyArray<ModelCall>> =>
    Effect.map(
      Effect.suspend(() => ask({ op: "close", id: nextId++, cid })),
      () => {
        const calls = callsByRollout.get(cid) ?? []
        callsByRollout.delete(cid)
        // Indexed by start order: a call that never finished leaves a hole, skipped here.
        return calls.filter((call) => call !== undefined)
      },
    )

  let closing: Promise<void> | null = null
  const stop = () => {
    closing ??= (async () => {
      if (exitReason === null) thread.postMessage({ op: "stop" } satisfies ToWorker)
      await launched.exited
    })()
    return closing
  }

  void launched.exited.then((reason) => {
    exitReason = reason
    for (const answer of pending.values()) answer(null)
    pending.clear()
  })
  thread.on("message", (message: FromWorker) => {
    if (message.op === "calls") {
      for (const finished of JSON.parse(message.calls) as Array<FinishedCall>) {
        const calls = callsByRollout.get(finished.cid)
        if (calls !== undefined) calls[finished.index] = priced(finished.call)
      }
    } else if (isReply(message)) {
      const answer = pending.get(message.id)
      pending.delete(message.id)
      answer?.(message)
    }
  })
  return launched.listening.then((url) => ({ url, open, close, stop }))
}
