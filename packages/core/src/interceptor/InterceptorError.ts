import { Schema } from "effect"

export const InterceptorErrorReason = Schema.Literal("NotListening", "InvalidUpstream", "Stopped")
export type InterceptorErrorReason = typeof InterceptorErrorReason.Type

/**
 * Opening a rollout on the interceptor failed: it has no public URL yet (`NotListening`: the server has
 * not started), the upstream base URL is not an absolute http(s) URL (`InvalidUpstream`), or the interceptor
 * has stopped (`Stopped`: shut down with its scope).
 */
export class InterceptorError extends Schema.TaggedError<InterceptorError>()("InterceptorError", {
  reason: InterceptorErrorReason,
  message: Schema.String,
}) {}
