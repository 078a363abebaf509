import { Schema } from "effect"
import type { ErrorKind } from "../result/EvalResult.js"
import type { ModelCall } from "../result/ModelCall.js"

export const ModelCallsFailedReason = Schema.Literal("Unauthorized", "RateLimited", "Unavailable", "Rejected")
export type ModelCallsFailedReason = typeof ModelCallsFailedReason.Type

const KINDS: Record<ModelCallsFailedReason, ErrorKind> = {
  Unauthorized: "auth",
  RateLimited: "rate_limited",
  Unavailable: "http_5xx",
  Rejected: "http_4xx",
}

/**
 * Every model call a rollout made through the interceptor failed, so whatever the task app scored says
 * nothing about the model: the rollout is an error of the kind the upstream's answer names. A refused key
 * (`Unauthorized`) or a refused request (`Rejected`) would fail again; a rate limit or an unavailable
 * upstream is a system error, retried like the task app's own.
 */
export class ModelCallsFailed extends Schema.TaggedError<ModelCallsFailed>()("ModelCallsFailed", {
  reason: ModelCallsFailedReason,
  message: Schema.String,
  retryable: Schema.Boolean,
  retryAfterMs: Schema.optional(Schema.Number),
}) {
  get kind(): ErrorKind {
    return KINDS[this.reason]
  }
}

const reasonOf = (status: number | null): ModelCallsFailedReason =>
  status === 401 || status === 403
    ? "Unauthorized"
    : status === 429
      ? "RateLimited"
      : status === null || status >= 500
        ? "Unavailable"
        : "Rejected"

/** The failure of a rollout none of whose model calls succeeded; null when one did, or when it made none. */
export const modelCallsFailure = (calls: ReadonlyArray<ModelCall>): ModelCallsFailed | null => {
  if (calls.some((call) => call.outcome === "ok")) return null
  const failed = calls.filter((call) => call.outcome === "error")
  const last = failed[failed.length - 1]
  if (last === undefined) return null
  const reason = reasonOf(last.status)
  const answer = last.status === null ? "" : ` ${last.status}`
  return new ModelCallsFailed({
    reason,
    retryable: reason === "RateLimited" || reason === "Unavailable",
    message:
      `no model call succeeded (${failed.length} failed); the upstream's last answer was${answer}: ` +
      (last.error ?? "no detail"),
  })
}
