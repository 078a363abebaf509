import type { ErrorKind, EvalResult, RolloutKey } from "../result/EvalResult.js"
import type { RolloutStep } from "../result/RolloutStep.js"
import type { RunSummary } from "../summary/Summary.js"

/**
 * Counters of a run so far, as the progress display and the server's event stream show them. The counts
 * cover the whole run, earlier sessions of a resumed run included; `elapsedMs` is this session's, and
 * `done − alreadyDone` rollouts were completed in it.
 */
export interface RunProgress {
  readonly planned: number
  readonly done: number
  readonly ok: number
  readonly errored: number
  readonly retries: number
  readonly inFlight: number
  readonly scoreSum: number
  readonly scored: number
  /** Ok rollouts with a score at or above the run's pass threshold, and below it (the runner's; a job's feed may lack them). */
  readonly correct?: number
  readonly wrong?: number
  readonly elapsedMs: number
  /** Rollouts earlier sessions completed before this one started. */
  readonly alreadyDone: number
}

export type RunEvent =
  | {
      readonly _tag: "RunStarted"
      readonly runId: string
      readonly runDir: string | null
      readonly planned: number
      readonly alreadyDone: number
    }
  /**
   * A try of a rollout begins: `retry` 0 is its first, n its n-th retry (after a `RolloutRetried`). `timeoutMs`:
   * the most time the try is given (the run's `timeout`, or an agent's own shorter limit), when the runner knows it.
   */
  | { readonly _tag: "RolloutStarted"; readonly key: RolloutKey; readonly retry: number; readonly timeoutMs?: number }
  /**
   * A step of a multi-step rollout, as stored in `steps.jsonl`; `agentTimeLeftMs`: the agent's working time left
   * as of this step, when it has a time limit.
   */
  | { readonly _tag: "RolloutStep"; readonly step: RolloutStep; readonly agentTimeLeftMs?: number }
  /** A model call of a rollout in flight finished (seen by the run's interceptor): what it spent. */
  | {
      readonly _tag: "ModelCallFinished"
      readonly key: RolloutKey
      readonly tokens: number | null
      readonly costUsd: number | null
    }
  | { readonly _tag: "RolloutFinished"; readonly result: EvalResult; readonly progress: RunProgress }
  | {
      readonly _tag: "RolloutRetried"
      readonly key: RolloutKey
      readonly retry: number
      readonly errorKind: ErrorKind
      readonly error: string
      readonly delayMs: number
    }
  /**
   * A rollout is no longer run here, whatever became of it (its result, if any, is told apart): a cluster worker
   * tells it after every rollout it ran, so that live views on other processes stop showing it in flight.
   */
  | { readonly _tag: "RolloutLeft"; readonly key: RolloutKey }
  | { readonly _tag: "StopRequested"; readonly inFlight: number }
  | { readonly _tag: "RunFinished"; readonly summary: RunSummary; readonly interrupted: boolean }
