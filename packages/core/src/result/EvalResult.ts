import { Schema } from "effect"
import { GraderVerdicts } from "../grader/Grader.js"
import { StopReason } from "./RolloutStep.js"

const NullableNumber = Schema.NullOr(Schema.Number)

export const RolloutStatus = Schema.Literal("ok", "error")
export type RolloutStatus = typeof RolloutStatus.Type

/**
 * Why a rollout errored. `unreachable`, `timeout`, `http_5xx`, `rate_limited` and `malformed_body` are
 * system errors (retried); the rest are results of the task or the model and are never retried.
 * `no_score`: the task app answered 2xx but no finite score can be read from the answer; `too_large`: its
 * answer was longer than `max_response_bytes`. `sandbox`: the rollout's sandbox would not build or start, died or
 * was killed (a system error: retried, never scored); `verifier`: the task's tests ran but left no reward.
 */
export const ErrorKind = Schema.Literal(
  "unreachable",
  "timeout",
  "http_5xx",
  "rate_limited",
  "malformed_body",
  "http_4xx",
  "auth",
  "decode",
  "aborted",
  "solver",
  "no_score",
  "too_large",
  "sandbox",
  "verifier",
  "judge",
)
export type ErrorKind = typeof ErrorKind.Type

/** A failed try of a rollout that was retried: what went wrong, how long the runner waited, when it failed. */
export const RetryLogEntry = Schema.Struct({
  kind: ErrorKind,
  /** The error's message, cut to `MAX_RETRY_ERROR_CHARS`. */
  error: Schema.String,
  delay_ms: Schema.Number,
  /** When the try failed (ISO 8601). */
  at: Schema.String,
})
export type RetryLogEntry = typeof RetryLogEntry.Type

/** `retry_log` keeps the most recent tries only (`retries` still counts them all), each message cut to this. */
export const MAX_RETRY_LOG_ENTRIES = 20
export const MAX_RETRY_ERROR_CHARS = 500

/** One row of results: synth-ai's `EvalResult` plus proctor's bookkeeping fields. */
export const EvalResult = Schema.Struct({
  seed: Schema.Number,
  score: NullableNumber,
  reward_mean: NullableNumber,
  outcome_score: NullableNumber,
  events_score: NullableNumber,
  latency_ms: NullableNumber,
  verifier_score: NullableNumber,
  tokens: NullableNumber,
  cost_usd: NullableNumber,
  error: Schema.NullOr(Schema.String),
  trace: Schema.optional(Schema.Unknown),
  attempt: Schema.Number,
  status: RolloutStatus,
  error_kind: Schema.NullOr(ErrorKind),
  retries: Schema.Number,
  started_at: Schema.String,
  finished_at: Schema.String,
  run_id: Schema.optional(Schema.String),
  /** The task's own id, for runs of `evaluate()` (whose tasks are JSON objects, not seeds). */
  task_id: Schema.optional(Schema.Union(Schema.String, Schema.Number)),
  /** What the task app said about the rollout, kept so a score can be explained: `metrics.details`, */
  details: Schema.optional(Schema.Unknown),
  /** the last trajectory's `final`, */
  final: Schema.optional(Schema.Unknown),
  /** and the last step's `info`; each bounded by `boundJson` (a larger one is cut, with a `_truncated` marker). */
  info: Schema.optional(Schema.Unknown),
  /**
   * The rollout's value of the run's `cluster_by` key (numbers as strings), as the task app reported it in
   * `metrics.details`; absent when the run names no key or the task app sent no value.
   */
  cluster: Schema.optional(Schema.String),
  /** Each failed try before the final one, oldest first (at most `MAX_RETRY_LOG_ENTRIES`, the latest); absent without retries. */
  retry_log: Schema.optional(Schema.Array(RetryLogEntry)),
  /** Agent rollouts: why the agent stopped (a limit reached is a graded result), its model turns and messages. */
  stop_reason: Schema.optional(StopReason),
  turns: Schema.optional(Schema.Number),
  messages: Schema.optional(Schema.Number),
  /** The run's graders' verdicts, one per grader name (dataset runs, and runs with `graders`). */
  grades: Schema.optional(GraderVerdicts),
})
export type EvalResult = typeof EvalResult.Type

/** `EvalResult`'s number-or-null fields, in synth-ai's column order. */
export const NUMERIC_RESULT_FIELDS = [
  "score",
  "reward_mean",
  "outcome_score",
  "events_score",
  "latency_ms",
  "verifier_score",
  "tokens",
  "cost_usd",
] as const satisfies ReadonlyArray<keyof EvalResult>
export type NumericResultField = (typeof NUMERIC_RESULT_FIELDS)[number]

/** A rollout is identified by its seed and attempt within a run. */
export interface RolloutKey {
  readonly seed: number
  readonly attempt: number
}

export const rolloutKeyId = (key: RolloutKey): string => `${key.seed}:${key.attempt}`
