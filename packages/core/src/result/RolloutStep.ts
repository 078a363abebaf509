import { Schema } from "effect"

/**
 * One step of a multi-step rollout, stored in the run directory's `steps.jsonl` as it happens and shown as the
 * rollout's timeline: a model turn, a tool call's result, a command run in the sandbox, or a note (setup,
 * grading, a limit reached). Text fields are cut to a bound; `truncated` says so.
 */
export const RolloutStep = Schema.Struct({
  /** The rollout's id (`run_id` of its result) and key; `retry` tells the tries of one key apart. */
  rollout_id: Schema.String,
  seed: Schema.Number,
  attempt: Schema.Number,
  retry: Schema.Number,
  /** 0-based, per try. */
  index: Schema.Number,
  at: Schema.String,
  /** Since the try started. */
  elapsed_ms: Schema.Number,
  kind: Schema.Literal("model", "tool", "command", "note"),
  /** model: the assistant's text; note: what happened; tool: the tool's name. */
  text: Schema.optional(Schema.String),
  /** model: the tool calls it asked for. */
  tool_calls: Schema.optional(
    Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String, arguments: Schema.String })),
  ),
  /** model: tokens of this turn, when known. */
  tokens: Schema.optional(Schema.NullOr(Schema.Number)),
  /** tool: which call this answers. */
  tool_call_id: Schema.optional(Schema.String),
  /** command: the shell line or argv joined; with its exit code, output and duration. */
  command: Schema.optional(Schema.String),
  exit_code: Schema.optional(Schema.NullOr(Schema.Number)),
  stdout: Schema.optional(Schema.String),
  stderr: Schema.optional(Schema.String),
  /** tool: what went back to the model. */
  output: Schema.optional(Schema.String),
  duration_ms: Schema.optional(Schema.Number),
  truncated: Schema.optional(Schema.Boolean),
})
export type RolloutStep = typeof RolloutStep.Type

/** Why an agent's rollout ended. Reaching a limit is a graded result, never an error. */
export const StopReason = Schema.Literal("model_ended", "max_turns", "max_tokens", "max_cost", "max_time")
export type StopReason = typeof StopReason.Type
