import { Schema } from "effect"

/**
 * Why a judge gave no verdict: its answer did not parse (`unparseable`), named a score outside the declared range
 * or a label not declared (`out_of_range`), or the call failed (`call_failed`: transport, 5xx, 429; `refused`: any
 * other 4xx, not retried). The first three are retried with backoff; when the retries are spent the rollout's grade
 * is this error, of kind `judge`, never a silent 0.
 */
export const JudgeErrorReason = Schema.Literal("unparseable", "out_of_range", "call_failed", "refused")
export type JudgeErrorReason = typeof JudgeErrorReason.Type

export class JudgeError extends Schema.TaggedError<JudgeError>()("JudgeError", {
  reason: JudgeErrorReason,
  /** The grader that asked. */
  grader: Schema.String,
  message: Schema.String,
  /** The judge's answer as given (cut to 500 characters), when there was one. */
  answer: Schema.optionalWith(Schema.String, { exact: true }),
  cause: Schema.optionalWith(Schema.Defect, { exact: true }),
}) {
  /** The error kind a result records for it. */
  get kind(): "judge" {
    return "judge"
  }

  get retryable(): boolean {
    return this.reason !== "refused"
  }
}
