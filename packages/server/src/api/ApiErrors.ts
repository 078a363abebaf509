import { Schema } from "effect"

export const FieldIssue = Schema.Struct({ field: Schema.String, message: Schema.String })
export type FieldIssue = typeof FieldIssue.Type

/**
 * A request the API refuses, naming the field. `HostNotAllowed` (the task-app URL is outside the server's
 * allow-list) is a 403; every other reason a 400.
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  reason: Schema.Literal("InvalidField", "HostNotAllowed"),
  field: Schema.String,
  message: Schema.String,
  issues: Schema.Array(FieldIssue),
}) {
  static readonly field = (
    field: string,
    message: string,
    reason: "InvalidField" | "HostNotAllowed" = "InvalidField",
  ) => new InvalidRequest({ reason, field, message: `${field}: ${message}`, issues: [{ field, message }] })
}

/** No API key, or one the server does not know (or has revoked). */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  reason: Schema.Literal("MissingKey", "InvalidKey"),
  message: Schema.String,
}) {}

/** The job does not exist, or belongs to another key: the two are indistinguishable on purpose. */
export class JobNotFound extends Schema.TaggedError<JobNotFound>()("JobNotFound", {
  reason: Schema.Literal("NotFound"),
  message: Schema.String,
}) {}

/** The key's token bucket is empty; `retryAfterMs` is when the next request will be let through. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  reason: Schema.Literal("TooManyRequests"),
  message: Schema.String,
  retryAfterMs: Schema.Number,
}) {}
