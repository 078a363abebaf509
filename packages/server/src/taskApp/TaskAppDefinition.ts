import type { ReceivedRolloutRequest } from "@proctor/core"
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from "fastify"

type Awaitable<A> = A | Promise<A>
type JsonObject = Record<string, unknown>

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
  /** When the outcome score differs from `score` (defaults to it). */
  readonly outcomeScore?: number | null
  readonly eventsScore?: number | null
}

export interface RolloutContext {
  /** Aborted when the caller hangs up, so a rollout stops paying for model calls nobody will read. */
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
   * in `ENVIRONMENT_API_KEY_ALIASES`, read once when the app is created.
   */
  readonly apiKey?: string | ReadonlyArray<string>
  /**
   * synth-ai's `require_api_key` (default true). With it on and no key configured, every endpoint but `GET /`
   * answers 503 `missing_environment_api_key`, as synth-ai does: an app that cannot check keys says so
   * rather than serving anyone.
   */
  readonly requireApiKey?: boolean
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
