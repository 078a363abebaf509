import type { Effect } from "effect"
import { type RolloutWorker, type RolloutWorkerOptions, rolloutWorker } from "./cluster/RolloutWorker.js"
import type { StartError } from "./lifetime/StartError.js"
import { type UntilSignalOptions, untilSignal } from "./lifetime/untilSignal.js"

/** What `runWorker` runs: the worker, and what to do once it takes rollouts and when a signal starts its drain. */
export interface RunWorkerOptions extends RolloutWorkerOptions, UntilSignalOptions<RolloutWorker> {}

/**
 * `proctor worker`, beside `serve`: a rollout worker until a signal. The first drains it (no more rollouts;
 * in-flight ones finish within `drainGraceMs`, the rest are handed back to the queue); a second hands them back at
 * once. Interrupting this Effect drains the same way.
 */
export const runWorker = (options: RunWorkerOptions): Effect.Effect<void, StartError> =>
  untilSignal((hurry) => rolloutWorker(options, hurry), options)
