import { Schema } from "effect"

/**
 * The eval job API's response bodies (synth-ai's shapes plus proctor's additions). Decoding is lenient:
 * only what the CLI relies on is checked, optional fields may be missing or null, and unknown keys are kept
 * (decode with `onExcessProperty: "preserve"`) so a newer server's extras survive a round trip to `--json`.
 */
const opt = <S extends Schema.Schema.Any>(schema: S) => Schema.optional(Schema.NullOr(schema))
const Timestamp = Schema.Union(Schema.String, Schema.Number)

/** pending | running | completed | failed | cancelled, kept as a string so an unknown state is shown, not rejected. */
export const JobState = Schema.String
export type JobState = typeof JobState.Type

const TERMINAL = new Set(["completed", "failed", "cancelled", "canceled", "succeeded", "error"])

export const isTerminalState = (state: string): boolean => TERMINAL.has(state.toLowerCase())

export const isSuccessState = (state: string): boolean => state === "completed" || state === "succeeded"

export const SubmittedJob = Schema.Struct({ job_id: Schema.String, status: Schema.optional(JobState) })
export type SubmittedJob = typeof SubmittedJob.Type

/** The `results` block of a job: counters while it runs, totals once it is done. */
export const JobProgress = Schema.Struct({
  mean_score: opt(Schema.Number),
  total_tokens: opt(Schema.Number),
  total_cost_usd: opt(Schema.Number),
  completed: opt(Schema.Number),
  total: opt(Schema.Number),
})
export type JobProgress = typeof JobProgress.Type

export const Job = Schema.Struct({
  job_id: Schema.String,
  status: JobState,
  error: opt(Schema.Unknown),
  created_at: opt(Timestamp),
  started_at: opt(Timestamp),
  completed_at: opt(Timestamp),
  config: opt(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  results: opt(JobProgress),
})
export type Job = typeof Job.Type

export const JobList = Schema.Struct({
  jobs: Schema.Array(Job),
  next_cursor: opt(Schema.Union(Schema.String, Schema.Number)),
})
export type JobList = typeof JobList.Type

/** `GET /api/eval/jobs/{id}/results`; rows are decoded one by one with `decodeResultRow`. */
export const JobResults = Schema.Struct({
  job_id: Schema.optional(Schema.String),
  status: Schema.optional(JobState),
  summary: opt(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  results: Schema.Array(Schema.Unknown),
})
export type JobResults = typeof JobResults.Type

/** `{error: {code, message, field?}}`, and FastAPI's `{detail: …}` from synth-ai's own backend. */
export const ErrorBody = Schema.Union(
  Schema.Struct({
    error: Schema.Struct({
      code: Schema.optional(Schema.String),
      message: Schema.optional(Schema.String),
      field: Schema.optional(Schema.String),
    }),
  }),
  Schema.Struct({ detail: Schema.Unknown }),
)
export type ErrorBody = typeof ErrorBody.Type

/** A job's `error` as one line: servers send a string, or an object with a `message`. */
export const jobErrorText = (error: unknown): string | null => {
  if (error === null || error === undefined || error === "") return null
  if (typeof error === "string") return error
  if (typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message
  }
  return JSON.stringify(error)
}
