import { Schema } from "effect"

/** A report file could not be written, or the results feeding it could not be read. */
export class ReportWriteError extends Schema.TaggedError<ReportWriteError>()("ReportWriteError", {
  path: Schema.String,
  message: Schema.String,
}) {}
