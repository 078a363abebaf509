import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from "fastify"

type Awaitable<A> = A | Promise<A>
type JsonObject = Record<string, unknown>

/**
 * What a rollout handler receives: synth-ai's rollout request, lenient, because its clients of several
 * generations send subsets, and nulls for what they leave unset (a null arrives here as an absent field).
 * `run_id` is always there: the SDK fills it in (with the correlation id) when a newer client sends only
 * `trace_correlation_id`, or `null`. Plain TypeScript, so the SDK's types need nothing but fastify's; the
 * SDK's tests hold it to the decoding schema's type (@proctor/core's `RolloutRequestSchema`).
 */
export interface ReceivedRolloutRequest {
  readonly run_id: string
  readonly trace_correlation_id?: string
  readonly env: {
    readonly env_id?: string
    readonly env_name?: string
    readonly config?: { readonly [key: string]: unknown }
    readonly seed?: number
  }
  readonly policy: {
    readonly policy_name?: string
    readonly policy_id?: string
    readonly config?: { readonly [key: string]: unknown }
    readonly output_mode?: unknown
    readonly structured_config?: unknown
  }
  readonly record?: {
    readonly trajectories?: boolean
    readonly logprobs?: boolean
    readonly value?: boolean
    readonly return_trace?: boolean
    readonly trace_format?: string
  }
  readonly on_done?: string
  readonly safety?: { readonly max_ops?: number; readonly max_time_s?: number }
  readonly training_session_id?: string
  readonly synth_base_url?: string
  readonly mode?: string
  readonly ops?: ReadonlyArray<unknown>
}

/** A path in the rollout request, as `TaskAppDefinition.requires` names it. */
export type RequiredField =
  | `policy.config.${string}`
  | `env.config.${string}`
  | "env.seed"
  | "env.env_name"
  | "policy.policy_name"
  | "policy.output_mode"
  | "policy.structured_config"

/** One step of the trajectory, as the task app saw it; missing fields get synth-ai's defaults. */
export interface RolloutStep {
  readonly obs?: unknown
  readonly tool_calls?: ReadonlyArray<unknown>
  readonly reward?: number | null
  readonly done?: boolean
  readonly truncated?: boolean | null
  /** Per-step extras; `usage` (`total_tokens`…) here is where proctor finds tokens when nothing else says. */
  readonly info?: JsonObject | null
}

/** What a rollout handler returns; the SDK turns it into synth-ai's response with both metric vocabularies. */
export interface RolloutResult {
  /** The outcome reward of the episode, usually 0…1. */
  readonly score: number
  readonly steps?: ReadonlyArray<RolloutStep>
  /** The trajectory's `final` (the last observation, the submitted answer…). */
  readonly final?: JsonObject | null
  /** A v3 session trace (see `sessionTrace`); sent only when the caller asked with `record.return_trace`. */
  readonly trace?: object | null
  /** `metrics.details`: free-form, and where `tokens`, `cost_usd` and `verifier_score` are read from. */
  readonly details?: JsonObject
  /** `metrics.outcome_score` when it differs from `score` (left out, it is `score`; `null` sends null). */
  readonly outcomeScore?: number | null
  readonly eventsScore?: number | null
}

export interface RolloutContext {
  /**
   * Aborted when the caller hangs up (sync form) or asks to terminate the rollout (async form), so a rollout stops
   * paying for model calls nobody will read.
   */
  readonly signal: AbortSignal
  /** The id echoed in the response; forward it to the model (it is already in the inference URL if proctor's interceptor is in use). */
  readonly traceCorrelationId: string
  readonly log: FastifyBaseLogger
}

export interface TaskAppDefinition {
  readonly appId: string
  readonly name: string
  readonly description?: string
  readonly version?: string
  /** `GET /task_info` with no seed answers `{"taskset": …}`; also shown in `GET /info`. */
  readonly taskset: JsonObject
  /**
   * `GET /task_info?seed=…`: the per-seed task info, merged over the app's base info (`task`, `environment`,
   * `dataset`, `rubric`, `inference`, `limits`) as synth-ai's `TaskInfo`. Defaults to `{task_metadata: {seed}}`.
   */
  readonly taskInfo?: (seed: number) => Awaitable<JsonObject>
  readonly rollout: (request: ReceivedRolloutRequest, context: RolloutContext) => Awaitable<RolloutResult>
  readonly dataset?: JsonObject
  readonly rubrics?: JsonObject
  readonly inference?: JsonObject
  readonly limits?: JsonObject
  /**
   * Keys callers may present. Default: `ENVIRONMENT_API_KEY` (or synth-ai's dev fallbacks) plus the comma list
   * in `ENVIRONMENT_API_KEY_ALIASES`, read once when the app is created. With no key from either,
   * `createTaskApp` refuses to create the app unless `auth: "none"` says so.
   */
  readonly apiKey?: string | ReadonlyArray<string>
  /**
   * `"none"` serves every caller without a key (the app warns on stderr when created): for a loopback-only
   * app during development. Anything else needs a key, so an app never serves the world by accident.
   */
  readonly auth?: "key" | "none"
  /**
   * What the rollout handler cannot do without, as paths in the request (`"policy.config.inference_url"`,
   * `"policy.config.model"`, `"env.seed"`…). A request where one is missing, null or blank is answered 400
   * `missing_field` naming it, before the handler runs.
   */
  readonly requires?: ReadonlyArray<RequiredField>
  /**
   * `"async"`: `POST /rollout` answers 202 `{rollout_id, status: "running", status_url}` at once and runs the handler
   * in the background, for rollouts longer than an HTTP request should stay open; `GET /rollouts/{id}` answers
   * `{status: "running"}`, then the rollout response with `status: "completed"` (or `"failed"` with the error), and
   * `POST /rollouts/{id}/terminate` aborts the handler's `signal`. Default `"sync"`: the answer is the result.
   */
  readonly rolloutMode?: "sync" | "async"
  /** How long a settled async rollout's answer is kept for callers to poll; default 10 minutes. */
  readonly asyncRetentionMs?: number
  /** Fastify's logger option; off by default so a task app's stdout stays its own. */
  readonly logger?: FastifyServerOptions["logger"]
}

export interface ListenOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number
  /** Defaults to 127.0.0.1: a task app is reachable from elsewhere only when its author says so. */
  readonly host?: string
}

export interface RunningTaskApp {
  /** `http://host:port`, ready for proctor's `--url`. */
  readonly url: string
  readonly close: () => Promise<void>
}

export interface TaskApp {
  readonly app: FastifyInstance
  readonly listen: (options?: ListenOptions) => Promise<RunningTaskApp>
}
