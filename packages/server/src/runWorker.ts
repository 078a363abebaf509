import type { Effect } from "effect"
import { type RolloutWorker, type RolloutWorkerOptions, rolloutWorker } from "./cluster/RolloutWorker.js"
import type { StartError } from "./lifetime/StartError.js"
import { untilSignal } from "./lifetime/untilSignal.js"

export interface RunWorkerOptions extends RolloutWorkerOptions {
  /** Signals that drain and stop the worker (a second one hands its rollouts back at once). Default SIGTERM, SIGINT. */
  readonly signals?: ReadonlyArray<NodeJS.Signals> | undefined
  /** Runs once the worker takes rollouts and the signal handlers are in. */
  readonly onReady?: ((worker: RolloutWorker) => Effect.Effect<void>) | undefined
  /** Runs on the first signal, as the drain starts. */
  readonly onDrain?: Effect.Effect<void> | undefined
}

/**
 * `proctor worker`, beside `serve`: a rollout worker until a signal. The first drains it (no more rollouts;
 * in-flight ones finish within `drainGraceMs`, the rest are handed back to the queue); a second hands them back at
 * once. Interrupting this Effect drains the same way.
 */
export const runWorker = (options: RunWorkerOptions): Effect.Effect<void, StartError> =>
  untilSignal((hurry) => rolloutWorker(options, hurry), {
    signals: options.signals,
    onReady: options.onReady,
    onDrain: options.onDrain,
  })
