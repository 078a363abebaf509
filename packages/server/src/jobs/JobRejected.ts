import { Schema } from "effect"

/** A job the server will not take now: the key has too many jobs in progress, or the server is shutting down. */
export class JobRejected extends Schema.TaggedError<JobRejected>()("JobRejected", {
  reason: Schema.Literal("QuotaExceeded", "ShuttingDown"),
  message: Schema.String,
}) {}
