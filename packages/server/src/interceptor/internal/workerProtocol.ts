import type { InterceptorErrorReason, InterceptorOpenOptions, ModelCall } from "@proctor/core"
import type { ModelRateLimitRule } from "@proctor/core/rate-gate"

/** What the interceptor thread is started with (`workerData`). */
export interface WorkerSettings {
  readonly host: string
  readonly port: number
  readonly upstreamTimeoutMs: number | undefined
  readonly connectionsPerOrigin: number | null | undefined
  readonly bodyLimit: number | undefined
  readonly modelRateLimits: ReadonlyArray<ModelRateLimitRule>
  /** The shared rate gate, and the module (`@proctor/server/redis-rate-gate`) the thread loads it from. */
  readonly sharedRateGate: { readonly redisUrl: string; readonly prefix: string; readonly module: string } | null
}

export interface OpenMessage extends Omit<InterceptorOpenOptions, "upstream"> {
  readonly op: "open"
  readonly id: number
  readonly upstream: {
    readonly baseUrl: string
    /** The upstream key crosses to the thread in memory only: never logged, never recorded. */
    readonly apiKey: string | null
    readonly provider: string | null
  }
}

export interface CloseMessage {
  readonly op: "close"
  readonly id: number
  readonly cid: string
}

export interface StopMessage {
  readonly op: "stop"
}

export type ToWorker = OpenMessage | CloseMessage | StopMessage

export type FromWorker =
  | { readonly op: "listening"; readonly url: string }
  | { readonly op: "failed"; readonly message: string }
  | { readonly op: "opened"; readonly id: number; readonly cid: string; readonly inferenceUrl: string }
  | { readonly op: "refused"; readonly id: number; readonly reason: InterceptorErrorReason; readonly message: string }
  | { readonly op: "closed"; readonly id: number }
  /**
   * Finished calls (unpriced), a JSON array of `FinishedCall`: sent within CALL_BATCH_MS of finishing, so the
   * thread keeps none, and before the `closed` of their rollout.
   */
  | { readonly op: "calls"; readonly calls: string }

/** A finished call, with the rollout it belongs to and its index in that rollout's start order. */
export interface FinishedCall {
  readonly cid: string
  readonly index: number
  readonly call: ModelCall
}

/** The longest a finished call waits on the thread for others to cross with it. */
export const CALL_BATCH_MS = 10

export type Reply = Extract<FromWorker, { readonly id: number }>

/** Replies to requests carry the request's id; the thread's own announcements do not. */
export const isReply = (message: FromWorker): message is Reply => "id" in message
