import { Schema } from "effect"
import type { ErrorKind } from "../result/EvalResult.js"

export { parseRetryAfter } from "../internal/retryAfter.js"

export const TaskAppErrorReason = Schema.Literal(
  "Unreachable",
  "Timeout",
  "HttpStatus",
  "Unauthorized",
  "RateLimited",
  "MalformedBody",
  "Decode",
  "NoScore",
  "TooLarge",
  "RolloutFailed",
)
export type TaskAppErrorReason = typeof TaskAppErrorReason.Type

const kindOfReason: Record<Exclude<TaskAppErrorReason, "HttpStatus">, ErrorKind> = {
  Unreachable: "unreachable",
  Timeout: "timeout",
  RateLimited: "rate_limited",
  MalformedBody: "malformed_body",
  Unauthorized: "auth",
  Decode: "decode",
  NoScore: "no_score",
  TooLarge: "too_large",
  // The app's handler failed a rollout it ran in the background: what a 5xx is for the sync form, so retried alike.
  RolloutFailed: "http_5xx",
}

/** Any failure talking to a task app, classified so the runner knows whether a retry can help. */
export class TaskAppError extends Schema.TaggedError<TaskAppError>()("TaskAppError", {
  reason: TaskAppErrorReason,
  message: Schema.String,
  endpoint: Schema.String,
  status: Schema.optional(Schema.Number),
  /** Milliseconds the server asked us to wait (`Retry-After`), when it said. */
  retryAfterMs: Schema.optional(Schema.Number),
}) {
  /** System errors are retried; everything else is an answer that retrying cannot change. */
  get retryable(): boolean {
    switch (this.reason) {
      case "Unreachable":
      case "Timeout":
      case "RateLimited":
      case "MalformedBody":
      case "RolloutFailed":
        return true
      case "HttpStatus":
        return this.status !== undefined && this.status >= 500
      default:
        return false
    }
  }

  get kind(): ErrorKind {
    if (this.reason === "HttpStatus") return this.status !== undefined && this.status >= 500 ? "http_5xx" : "http_4xx"
    return kindOfReason[this.reason]
  }
}

/** synth-ai task apps answer a bad key with 400 `{"detail":{"error":{"code":"unauthorised"}}}`. */
export const isUnauthorisedEnvelope = (body: unknown): boolean => {
  if (typeof body !== "object" || body === null) return false
  const detail = (body as { detail?: unknown }).detail
  if (typeof detail !== "object" || detail === null) return false
  const error = (detail as { error?: unknown }).error
  if (typeof error !== "object" || error === null) return false
  const code = (error as { code?: unknown }).code
  return code === "unauthorised" || code === "unauthorized"
}
