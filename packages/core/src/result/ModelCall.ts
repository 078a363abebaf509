import { Schema } from "effect"

const NullableNumber = Schema.NullOr(Schema.Number)

export const ModelApi = Schema.Literal("chat_completions", "responses", "messages")
export type ModelApi = typeof ModelApi.Type

export const TokenUsage = Schema.Struct({
  prompt_tokens: NullableNumber,
  completion_tokens: NullableNumber,
  total_tokens: NullableNumber,
  /** Prompt tokens served from the provider's cache (billed at the cached-input rate where one exists). */
  cached_tokens: NullableNumber,
  reasoning_tokens: NullableNumber,
})
export type TokenUsage = typeof TokenUsage.Type

/**
 * One model call seen by the inference interceptor, as recorded in `model_calls.jsonl` and assembled into
 * traces. Never holds an API key or request headers.
 */
export const ModelCall = Schema.Struct({
  call_id: Schema.String,
  /** proctor's run id, and the rollout's own id (`run_id` sent to the task app). */
  run_id: Schema.String,
  rollout_id: Schema.String,
  seed: Schema.Number,
  attempt: Schema.Number,
  api: ModelApi,
  provider: Schema.NullOr(Schema.String),
  model: Schema.NullOr(Schema.String),
  stream: Schema.Boolean,
  /** The request body minus transport settings: messages / input, tools, sampling parameters. */
  request: Schema.Unknown,
  /** The assistant's answer (message with content and tool calls), reassembled from chunks when streamed. */
  response_message: Schema.Unknown,
  status: NullableNumber,
  outcome: Schema.Literal("ok", "error", "cancelled"),
  error: Schema.NullOr(Schema.String),
  started_at: Schema.String,
  completed_at: Schema.String,
  latency_ms: Schema.Number,
  /** Time to first token (first content or tool-call delta) for streams; null otherwise. */
  ttft_ms: NullableNumber,
  usage: Schema.NullOr(TokenUsage),
  finish_reason: Schema.NullOr(Schema.String),
  /** Null when the model has no known price: unpriced, never $0. A call answered from the cache cost 0. */
  cost_usd: NullableNumber,
  /**
   * Whose call this is: absent for the policy's (what the rollout itself called), `judge` for a model grader's
   * call on the judge's own upstream, so the two are counted and priced apart.
   */
  role: Schema.optionalWith(Schema.Literal("judge"), { exact: true }),
  /** A judge call's grader (its name in the eval's graders). */
  grader: Schema.optionalWith(Schema.String, { exact: true }),
  /** True when the response cache answered (no upstream call); absent otherwise. */
  cached: Schema.optional(Schema.Boolean),
  /** A cached call's price had it gone upstream (null: unpriced): the spend the cache avoided. */
  avoided_cost_usd: Schema.optional(NullableNumber),
})
export type ModelCall = typeof ModelCall.Type
