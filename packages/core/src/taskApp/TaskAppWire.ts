import { Either, type ParseResult, Schema } from "effect"
import { conformsToRolloutResponse } from "./internal/conformsToRolloutResponse.js"

/**
 * The synth-ai task-app wire contract. Requests are the superset every generation accepts; responses are
 * decoded leniently (every field optional, unknown keys preserved) because task apps of several
 * generations are in the wild.
 */

const OptionalNumber = Schema.optional(Schema.NullOr(Schema.Number))
const Json = Schema.Unknown

export const TraceFormat = Schema.Literal("compact", "full", "structured")
export type TraceFormat = typeof TraceFormat.Type

export interface RolloutRequest {
  readonly run_id: string
  readonly trace_correlation_id: string
  readonly env: { readonly env_name: string; readonly config: Record<string, unknown>; readonly seed: number }
  readonly policy: {
    readonly policy_name: string
    readonly config: Record<string, unknown>
    readonly output_mode?: unknown
    readonly structured_config?: unknown
  }
  readonly record: {
    readonly trajectories: true
    readonly logprobs: false
    readonly value: false
    readonly return_trace: boolean
    readonly trace_format: TraceFormat
  }
  readonly on_done: "reset"
  readonly safety: { readonly max_ops: number; readonly max_time_s: number }
  readonly training_session_id: null
  readonly synth_base_url: string | null
  readonly mode: "eval"
  readonly ops?: ReadonlyArray<unknown>
}

/** Optional in synth-ai's pydantic models, which send it as `null` when unset: `null` decodes as absent. */
const Nullable = <S extends Schema.Schema.Any>(schema: S) =>
  Schema.optionalWith(schema, { nullable: true, exact: true })
const JsonObject = Schema.Record({ key: Schema.String, value: Json })

export const RolloutRequestSchema = Schema.Struct({
  run_id: Nullable(Schema.String),
  trace_correlation_id: Nullable(Schema.String),
  env: Schema.Struct({
    env_id: Nullable(Schema.String),
    env_name: Nullable(Schema.String),
    config: Nullable(JsonObject),
    seed: Nullable(Schema.Number),
  }),
  policy: Schema.Struct({
    policy_name: Nullable(Schema.String),
    policy_id: Nullable(Schema.String),
    config: Nullable(JsonObject),
    output_mode: Nullable(Json),
    structured_config: Nullable(Json),
  }),
  record: Nullable(
    Schema.Struct({
      trajectories: Nullable(Schema.Boolean),
      logprobs: Nullable(Schema.Boolean),
      value: Nullable(Schema.Boolean),
      return_trace: Nullable(Schema.Boolean),
      trace_format: Nullable(Schema.String),
    }),
  ),
  on_done: Nullable(Schema.String),
  safety: Nullable(Schema.Struct({ max_ops: Nullable(Schema.Number), max_time_s: Nullable(Schema.Number) })),
  training_session_id: Nullable(Schema.String),
  synth_base_url: Nullable(Schema.String),
  mode: Nullable(Schema.String),
  ops: Nullable(Schema.Array(Json)),
})

export const RolloutMetrics = Schema.Struct({
  episode_returns: Schema.optional(Schema.NullOr(Schema.Array(Schema.Number))),
  mean_return: OptionalNumber,
  num_steps: OptionalNumber,
  num_episodes: OptionalNumber,
  outcome_score: OptionalNumber,
  events_score: OptionalNumber,
  outcome_reward: OptionalNumber,
  outcome_objectives: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Json }))),
  event_rewards: Schema.optional(Schema.NullOr(Schema.Array(Json))),
  reward_mean: OptionalNumber,
  episode_rewards: Schema.optional(Schema.NullOr(Schema.Array(Json))),
  details: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Json }))),
})
export type RolloutMetrics = typeof RolloutMetrics.Type

export const TrajectoryStep = Schema.Struct({
  obs: Schema.optional(Json),
  tool_calls: Schema.optional(Json),
  reward: Schema.optional(Schema.NullOr(Schema.Number)),
  done: Schema.optional(Schema.NullOr(Schema.Boolean)),
  truncated: Schema.optional(Schema.NullOr(Schema.Boolean)),
  info: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Json }))),
})
export type TrajectoryStep = typeof TrajectoryStep.Type

export const Trajectory = Schema.Struct({
  env_id: Schema.optional(Schema.NullOr(Schema.String)),
  policy_id: Schema.optional(Schema.NullOr(Schema.String)),
  steps: Schema.optional(Schema.Array(TrajectoryStep)),
  final: Schema.optional(Json),
  length: Schema.optional(Schema.NullOr(Schema.Number)),
  inference_url: Schema.optional(Schema.NullOr(Schema.String)),
})
export type Trajectory = typeof Trajectory.Type

export const RolloutResponse = Schema.Struct({
  run_id: Schema.optional(Schema.NullOr(Schema.String)),
  trace_correlation_id: Schema.optional(Schema.NullOr(Schema.String)),
  trajectories: Schema.optional(Schema.NullOr(Schema.Array(Trajectory))),
  metrics: Schema.optional(Schema.NullOr(RolloutMetrics)),
  reward_info: Schema.optional(Schema.NullOr(RolloutMetrics)),
  trace: Schema.optional(Json),
  aborted: Schema.optional(Schema.NullOr(Schema.Boolean)),
  ops_executed: Schema.optional(Schema.NullOr(Schema.Number)),
  pipeline_metadata: Schema.optional(Json),
})
export type RolloutResponse = typeof RolloutResponse.Type

const decodeWithSchema = Schema.decodeUnknownEither(RolloutResponse, { onExcessProperty: "preserve", errors: "first" })

/**
 * Decoding keeps unknown keys so nothing a task app reports is thrown away. It is on the hot path, so a
 * conforming value is checked by hand and passed through as is; only a suspect one pays for the Schema.
 */
export const decodeRolloutResponse = (json: unknown): Either.Either<RolloutResponse, ParseResult.ParseError> =>
  conformsToRolloutResponse(json) ? Either.right(json as RolloutResponse) : decodeWithSchema(json)

export const HealthResponse = Schema.Struct({
  healthy: Schema.optional(Schema.Boolean),
  status: Schema.optional(Schema.String),
})
