import { EvalResult, RunSummary } from "@proctor/core"
import { Schema } from "effect"
import { JobStatus } from "../jobs/JobStatus.js"
import { FieldIssue } from "./ApiErrors.js"

const NullableNumber = Schema.NullOr(Schema.Number)

/** Every 4xx/5xx answer: a stable `code`, a message naming the field, and each wrong field when there are several. */
export const ErrorResponse = Schema.Struct({
  error: Schema.Struct({
    code: Schema.String,
    message: Schema.String,
    field: Schema.optional(Schema.String),
    issues: Schema.optional(Schema.Array(FieldIssue)),
  }),
})
export type ErrorResponse = typeof ErrorResponse.Type

export const JobCreatedResponse = Schema.Struct({ job_id: Schema.String, status: JobStatus })

/** synth-ai's `results` block of the status endpoint. */
export const JobProgress = Schema.Struct({
  mean_score: NullableNumber,
  mean_reward: NullableNumber,
  total_tokens: NullableNumber,
  total_cost_usd: NullableNumber,
  completed: Schema.Number,
  total: Schema.Number,
})

export const JobStatusResponse = Schema.Struct({
  job_id: Schema.String,
  status: JobStatus,
  error: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  started_at: Schema.NullOr(Schema.String),
  completed_at: Schema.NullOr(Schema.String),
  /** The job request as the client sent it, without secrets (`task_app_api_key` and secret-looking keys). */
  config: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  results: JobProgress,
})
export type JobStatusResponse = typeof JobStatusResponse.Type

export const JobSummary = Schema.Struct({
  mean_score: NullableNumber,
  mean_reward: NullableNumber,
  total_tokens: NullableNumber,
  total_cost_usd: NullableNumber,
  num_seeds: Schema.Number,
  num_successful: Schema.Number,
  num_failed: Schema.Number,
})

/** Rows never carry `trace` here: traces come from `/traces` as a zip. */
export const JobResultsResponse = Schema.Struct({
  job_id: Schema.String,
  status: JobStatus,
  summary: JobSummary,
  /** core's error-aware summary (stderr, 95% CI, pass@k, latency percentiles) once the run has summarized. */
  run_summary: Schema.NullOr(RunSummary),
  results: Schema.Array(EvalResult),
})
export type JobResultsResponse = typeof JobResultsResponse.Type

export const JobListResponse = Schema.Struct({
  jobs: Schema.Array(JobStatusResponse),
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  next_cursor: Schema.NullOr(Schema.String),
})

const StatusList = Schema.String.pipe(
  Schema.filter(
    (s) => s.split(",").every((part) => (JobStatus.literals as ReadonlyArray<string>).includes(part.trim())),
    { message: () => `expected one or more of ${JobStatus.literals.join(", ")}, comma-separated` },
  ),
)

export const JobListQuery = Schema.Struct({
  status: Schema.optional(StatusList),
  limit: Schema.optional(
    Schema.NumberFromString.pipe(
      Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 100, {
        message: () => "expected an integer from 1 to 100",
      }),
    ),
  ),
  cursor: Schema.optional(Schema.String.pipe(Schema.maxLength(512))),
})

export const ResultsQuery = Schema.Struct({
  format: Schema.optional(Schema.Literal("json", "jsonl")),
})

export const HealthResponse = Schema.Struct({ status: Schema.Literal("ok") })
const DependencyCheck = Schema.Literal("ok", "unavailable")
export const ReadyResponse = Schema.Struct({
  status: Schema.Literal("ready", "unavailable", "draining"),
  error: Schema.optional(Schema.String),
  checks: Schema.optional(
    Schema.Struct({ database: DependencyCheck, redis: Schema.optional(DependencyCheck) }).annotations({
      description: "each dependency the server needs: the database always, Redis when it was started with --redis-url",
    }),
  ),
})
