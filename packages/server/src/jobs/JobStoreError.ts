import { Schema } from "effect"

/**
 * The job database failed. `Unavailable` covers a lost connection or a failed statement; `Corrupt` a row
 * proctor cannot read back. The message never carries statement parameters (they may hold ciphertexts).
 */
export class JobStoreError extends Schema.TaggedError<JobStoreError>()("JobStoreError", {
  reason: Schema.Literal("Unavailable", "Corrupt", "Migration"),
  message: Schema.String,
}) {}
