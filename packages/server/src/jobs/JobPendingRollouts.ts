import {
  type PendingRollout,
  PendingRollouts,
  type PendingRolloutsService,
  pendingKeyOf,
  type RolloutKey,
  StoreError,
} from "@proctor/core"
import { Effect, Layer, Option } from "effect"
import type { JobStoreError } from "./JobStoreError.js"
import type { RolloutStoreService } from "./RolloutStore.js"

const storeError = (error: JobStoreError) => new StoreError({ reason: "Io", message: error.message, cause: error })

/**
 * core's `PendingRollouts` over the job database (`async_rollouts`): what the job's task app held when the job was
 * opened here is read once; a hold is written before the first poll, a release when the rollout settles. A key that
 * may have been held elsewhere since (`heldElsewhere`: a rollout a killed worker had, delivered to this one) is looked
 * up on its own, so the rollout is polled again instead of started over.
 */
export const makeJobPendingRollouts = (
  rollouts: RolloutStoreService,
  jobId: string,
  heldElsewhere: (key: RolloutKey) => boolean = () => false,
) =>
  Effect.gen(function* () {
    const held = new Map<string, PendingRollout>()
    for (const row of yield* rollouts.heldAsyncRollouts(jobId, null)) held.set(pendingKeyOf(row), row.pending)
    const service: PendingRolloutsService = {
      held: (key) => {
        const known = held.get(pendingKeyOf(key))
        if (known !== undefined || !heldElsewhere(key)) return Effect.succeed(Option.fromNullable(known))
        // Not knowing whether the app holds it would start it a second time: a read that fails is the rollout's end.
        return rollouts.heldAsyncRollouts(jobId, key).pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.pending)),
          Effect.orDie,
        )
      },
      hold: (key, pending) =>
        Effect.zipRight(
          Effect.mapError(rollouts.holdAsyncRollout(jobId, key, pending), storeError),
          Effect.sync(() => void held.set(pendingKeyOf(key), pending)),
        ),
      release: (key) =>
        Effect.zipRight(
          Effect.sync(() => void held.delete(pendingKeyOf(key))),
          Effect.mapError(rollouts.releaseAsyncRollout(jobId, key), storeError),
        ),
    }
    return service
  })

export const JobPendingRolloutsLayer = (
  rollouts: RolloutStoreService,
  jobId: string,
  heldElsewhere?: (key: RolloutKey) => boolean,
): Layer.Layer<PendingRollouts, JobStoreError> =>
  Layer.effect(PendingRollouts, makeJobPendingRollouts(rollouts, jobId, heldElsewhere))
