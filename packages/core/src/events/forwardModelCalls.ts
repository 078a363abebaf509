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
 * lasts (live views show what rollouts in flight have spent). In batches: one wake-up per call would cost more.
 */
export const forwardModelCalls = (runId: string, calls: PubSub.PubSub<ModelCall>, events: PubSub.PubSub<RunEvent>) =>
  Effect.flatMap(PubSub.subscribe(calls), (subscription) =>
    Effect.forkScoped(
      Effect.forever(
        Effect.flatMap(Queue.takeBetween(subscription, 1, 1024), (batch) =>
          PubSub.publishAll(
            events,
            Array.from(batch)
              .filter((call) => call.run_id === runId)
              .map(modelCallFinished),
          ),
        ),
      ),
    ),
  )
