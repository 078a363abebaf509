import { Schema } from "effect"

/**
 * The job database failed. `Unavailable` covers a lost connection or a failed statement; `Corrupt` a row
 * proctor cannot read back. The message never carries statement parameters (they may hold ciphertexts): it is
 * what failed and the driver wrapper's own words ("Failed to execute statement").
 */
export class JobStoreError extends Schema.TaggedError<JobStoreError>()("JobStoreError", {
  reason: Schema.Literal("Unavailable", "Corrupt", "Migration"),
  message: Schema.String,
  /**
   * What failed underneath (an `SqlError` and the driver's error in it), kept whole for a debugger. Never logged
   * nor answered: a driver's error can quote a statement's values (see `loggableCause`, `httpErrorOf`).
   */
  cause: Schema.optional(Schema.Defect),
}) {}

/** A database failure while doing `what`: named in the message, and kept as the error's cause. */
export const jobStoreError =
  (what: string, reason: "Unavailable" | "Migration" = "Unavailable") =>
  (cause: unknown): JobStoreError =>
    new JobStoreError({
      reason,
      message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    })
