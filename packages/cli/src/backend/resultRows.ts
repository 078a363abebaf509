import { ErrorKind, type EvalResult, GraderVerdicts, RetryLogEntry, RolloutStatus, StopReason } from "@proctor/core"
import { Either, ParseResult, Schema } from "effect"

const nullableNumber = Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null })

/**
 * A result row as a job server sends it. proctor's server sends full `EvalResult`s; synth-ai's backend sends
 * only synth-ai's fields, so proctor's bookkeeping fields get neutral defaults (attempt 0, no retries,
 * status from `error`) and an error kind this CLI does not know is dropped rather than failing the decode.
 */
const WireResultRow = Schema.Struct({
  seed: Schema.Number,
  score: nullableNumber,
  reward_mean: nullableNumber,
  outcome_score: nullableNumber,
  events_score: nullableNumber,
  latency_ms: nullableNumber,
  verifier_score: nullableNumber,
  tokens: nullableNumber,
  cost_usd: nullableNumber,
  error: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  trace: Schema.optional(Schema.Unknown),
  attempt: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  status: Schema.optional(RolloutStatus),
  error_kind: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  retries: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  started_at: Schema.optionalWith(Schema.String, { default: () => "" }),
  finished_at: Schema.optionalWith(Schema.String, { default: () => "" }),
  run_id: Schema.optional(Schema.String),
  // What the task app said and what proctor read from it, as direct mode keeps them.
  task_id: Schema.optional(Schema.Union(Schema.String, Schema.Number)),
  details: Schema.optional(Schema.Unknown),
  final: Schema.optional(Schema.Unknown),
  info: Schema.optional(Schema.Unknown),
  cluster: Schema.optional(Schema.String),
  // proctor's server sends these for agent and graded runs; kept as they come, a value this CLI cannot read dropped.
  retry_log: Schema.optional(Schema.Unknown),
  stop_reason: Schema.optional(Schema.Unknown),
  turns: Schema.optional(Schema.Number),
  messages: Schema.optional(Schema.Number),
  grades: Schema.optional(Schema.Unknown),
})

const decodeWire = Schema.decodeUnknownEither(WireResultRow)
const isErrorKind = Schema.is(ErrorKind)
const isStopReason = Schema.is(StopReason)
const isRetryLog = Schema.is(Schema.Array(RetryLogEntry))
const isGraderVerdicts = Schema.is(GraderVerdicts)

/** One row as an `EvalResult`, or a one-line reason it is not one. */
export const decodeResultRow = (raw: unknown): Either.Either<EvalResult, string> =>
  Either.map(
    Either.mapLeft(decodeWire(raw), (error) => ParseResult.TreeFormatter.formatErrorSync(error).split("\n").join(" ")),
    (row): EvalResult => {
      const { status, error_kind, run_id, trace, retry_log, stop_reason, turns, messages, grades, ...rest } = row
      return {
        ...rest,
        status: status ?? (row.error === null ? "ok" : "error"),
        error_kind: error_kind !== null && isErrorKind(error_kind) ? error_kind : null,
        ...(trace === undefined ? {} : { trace }),
        ...(run_id === undefined ? {} : { run_id }),
        ...(isRetryLog(retry_log) ? { retry_log } : {}),
        ...(isStopReason(stop_reason) ? { stop_reason } : {}),
        ...(turns === undefined ? {} : { turns }),
        ...(messages === undefined ? {} : { messages }),
        ...(isGraderVerdicts(grades) ? { grades } : {}),
      }
    },
  )
