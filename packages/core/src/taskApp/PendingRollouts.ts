import { Context, Effect, Layer, Option } from "effect"
import type { RolloutKey } from "../result/EvalResult.js"
import type { StoreError } from "../store/ResultStore.js"

/** A rollout a task app runs in the background for a key of the run, as proctor remembers it. */
export interface PendingRollout {
  /** The task app's id of the rollout (its `rollout_id`). */
  readonly appRolloutId: string
  readonly statusPath: string
  /** When the app accepted it (epoch ms): the rollout's deadline runs from here, across sessions of the run. */
  readonly acceptedAtMs: number
}

export interface PendingRolloutsService {
  /** The rollout the app still runs for `key`, when an earlier try (or session) left one. */
  readonly held: (key: RolloutKey) => Effect.Effect<Option.Option<PendingRollout>>
  /** Remembered before the first poll, so a session killed while polling re-attaches on resume. */
  readonly hold: (key: RolloutKey, pending: PendingRollout) => Effect.Effect<void, StoreError>
  /** The rollout settled (a result, an error, or proctor terminated it): nothing to re-attach to. */
  readonly release: (key: RolloutKey) => Effect.Effect<void, StoreError>
}

export const pendingKeyOf = (key: RolloutKey) => `${key.seed}:${key.attempt}`

/**
 * Task-app rollouts answered in the async form and not yet settled. The run directory keeps them in a file
 * (`PendingRolloutsFile`), so `proctor eval --resume` polls again the rollouts the app still holds; without that
 * layer they are kept in memory for the session.
 */
export class PendingRollouts extends Context.Tag("@proctor/core/PendingRollouts")<
  PendingRollouts,
  PendingRolloutsService
>() {
  static readonly make = Effect.sync((): PendingRolloutsService => {
    const pending = new Map<string, PendingRollout>()
    return {
      held: (key) => Effect.sync(() => Option.fromNullable(pending.get(pendingKeyOf(key)))),
      hold: (key, entry) => Effect.sync(() => void pending.set(pendingKeyOf(key), entry)),
      release: (key) => Effect.sync(() => void pending.delete(pendingKeyOf(key))),
    }
  })

  static readonly layer = Layer.effect(PendingRollouts, PendingRollouts.make)
}
