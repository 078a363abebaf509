import type { StopReason } from "../result/RolloutStep.js"

/** A rollout's limits; null is none. The run's come from its config, a solver may override them per task. */
export interface LimitSettings {
  /** Model turns (nanoeval's max steps). */
  readonly maxTurns: number | null
  /** Tokens (in and out) of the rollout's model calls, enforced by the interceptor. */
  readonly maxTokens: number | null
  /** USD of the rollout's model calls, enforced by the interceptor. */
  readonly maxCost: number | null
  /** The agent's working time, sandbox start-up and grading excluded. */
  readonly agentTimeoutS: number | null
  /** Grading time, from `startGrading()` on. */
  readonly verifierTimeoutS: number | null
}

/**
 * What a solver knows and says of its rollout's limits (nanoeval's LimitsHelper). One per try of a rollout.
 *
 * - Turns: each `model` step a solver emits counts one (call `recordTurn()` yourself only for turns you do not emit
 *   as steps). A turn past `maxTurns` is refused: `recordTurn()` answers false and the limit is reached. After
 *   `countTurnsAsCalls()` a turn is instead each model call the interceptor forwards (`recordCall()`), and the call
 *   past `maxTurns` gets the interceptor's error answer (code `max_turns`).
 * - Tokens and cost: the interceptor counts the rollout's calls; once the budget is spent, the next call gets an
 *   error answer (HTTP 400, `{"error":{"type":"proctor_limit","code":"max_tokens",…}}`) and the limit is reached.
 * - Time: the agent's clock runs from the start of the try; `pause()`/`resume()` leave out what is not the agent's
 *   doing, and `startGrading()` stops it for good and starts the grading clock (`verifierTimeoutS`).
 *
 * Once a limit is reached, `reached()` names it and `signal` is aborted: the solver should stop acting, grade, and
 * return its final result (its `stop_reason` defaults to the limit). A solver that neither returns nor starts
 * grading within `LIMIT_GRACE_MS` is stopped and scored 0 with that stop reason; grading longer than
 * `verifierTimeoutS` is an error of kind `verifier`. Reaching a limit is never an error and never retried.
 */
export interface RolloutLimits {
  readonly settings: () => LimitSettings
  /** Per-task limits (a Harbor task's `[agent] timeout_sec`), given before the agent starts; unnamed ones stay. */
  readonly override: (settings: Partial<LimitSettings>) => void
  readonly turns: () => number
  /** Turns still allowed; null without a limit. */
  readonly turnsLeft: () => number | null
  /** Counts a turn; false (and the limit reached) when it would be one past `maxTurns`. */
  readonly recordTurn: () => boolean
  /**
   * From now on a turn is a model call the interceptor forwards, not a `model` step: for an agent whose own output
   * is no count of its calls (a command-line agent's events are items, several to a call).
   */
  readonly countTurnsAsCalls: () => void
  /** The interceptor's count of a call it is about to forward: `recordTurn()` after `countTurnsAsCalls()`, else true. */
  readonly recordCall: () => boolean
  /** Says a limit was reached (the first one said stays). */
  readonly reach: (reason: Exclude<StopReason, "model_ended">) => void
  readonly reached: () => Exclude<StopReason, "model_ended"> | null
  /** Aborted when a limit is reached: pass it to what the agent waits on. */
  readonly signal: AbortSignal
  /** The agent's working time so far, in ms. */
  readonly agentElapsedMs: () => number
  /** Null without a time limit. */
  readonly agentTimeLeftMs: () => number | null
  readonly pause: () => void
  readonly resume: () => void
  /** The agent is done: its clock stops and grading's starts. */
  readonly startGrading: () => void
}

/** How long a solver has, once a limit is reached, to return its result or start grading. */
export const LIMIT_GRACE_MS = 10_000

export const NO_LIMITS: LimitSettings = {
  maxTurns: null,
  maxTokens: null,
  maxCost: null,
  agentTimeoutS: null,
  verifierTimeoutS: null,
}
