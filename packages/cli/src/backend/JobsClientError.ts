import { Schema } from "effect"

export const JobsClientErrorReason = Schema.Literal(
  "Unreachable",
  "Unauthorized",
  "NotFound",
  "BadRequest",
  "Server",
  "Decode",
)
export type JobsClientErrorReason = typeof JobsClientErrorReason.Type

/**
 * Any failure talking to an eval job server. `Unauthorized`, `NotFound` and `BadRequest` are the caller's to
 * fix (the CLI exits 2); `Unreachable`, `Server` and `Decode` are the server's or the network's (exit 1).
 */
export class JobsClientError extends Schema.TaggedError<JobsClientError>()("JobsClientError", {
  reason: JobsClientErrorReason,
  message: Schema.String,
  /** The endpoint, without the host's credentials (there are none in it: the key travels in a header). */
  endpoint: Schema.String,
  status: Schema.optional(Schema.Number),
  /** The server's machine-readable `error.code`, when it sent one. */
  code: Schema.optional(Schema.String),
  /** The request field the server rejected (`error.field`), when it said. */
  field: Schema.optional(Schema.String),
}) {
  /** True when retrying the same request later may succeed. */
  get transient(): boolean {
    return this.reason === "Unreachable" || this.reason === "Server"
  }
}
