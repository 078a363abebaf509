import { Effect, PubSub, Queue } from "effect"
import type { ModelCall } from "../result/ModelCall.js"
import type { RunEvent } from "./RunEvents.js"

/** A finished model call as the run event a live view folds: what its rollout has spent. */
export const modelCallFinished = (call: ModelCall): RunEvent => ({
  _tag: "ModelCallFinished",
  key: { seed: call.seed, attempt: call.attempt },
  tokens: call.usage?.total_tokens ?? null,
  costUsd: call.cost_usd,
})

/**
 * Publishes each of this run's model calls, as it finishes, as a `ModelCallFinished` event for as long as the scope
 * lasts (live views show what rollouts in flight have spent). In batches at most every `batchEveryMs`: a wake-up per
 * call cost more than the call's own record (a judged dataset eval makes thousands a second), and a live view redraws
 * no faster. The calls still waiting when the scope closes are published before it closes.
 */
export const forwardModelCalls = (
  runId: string,
  calls: PubSub.PubSub<ModelCall>,
  events: PubSub.PubSub<RunEvent>,
  batchEveryMs = 50,
) =>
  Effect.flatMap(PubSub.subscribe(calls), (subscription) => {
    const forward = (batch: Iterable<ModelCall>) =>
      PubSub.publishAll(
        events,
        Array.from(batch)
          .filter((call) => call.run_id === runId)
          .map(modelCallFinished),
      )
    return Effect.forkScoped(
      Effect.forever(
        // Taken calls are published even if the scope closes right after they were taken.
        Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(restore(Queue.takeBetween(subscription, 1, 1024)), forward),
        ).pipe(Effect.zipRight(Effect.sleep(batchEveryMs))),
      ).pipe(Effect.onInterrupt(() => Effect.flatMap(Queue.takeAll(subscription), forward))),
    )
  })
