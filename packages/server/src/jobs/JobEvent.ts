import { Schema } from "effect"

/**
 * What the job event stream (SSE) sends. The names follow synth-ai's stream client: it counts
 * `seed.completed` and stops at `job.completed` / `job.failed`, reading `data.completed` and `data.total`.
 * proctor adds `rollout.step`: an agent rollout's step as it happens, in one line (its whole step is in the timeline).
 */
export const JobEventType = Schema.Literal(
  "job.status",
  "job.started",
  "seed.completed",
  "seed.retried",
  "rollout.step",
  "job.stopping",
  "job.completed",
  "job.failed",
  "job.cancelled",
  "job.interrupted",
)
export type JobEventType = typeof JobEventType.Type

export const JobEvent = Schema.Struct({
  type: JobEventType,
  job_id: Schema.String,
  message: Schema.String,
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
})
export type JobEvent = typeof JobEvent.Type

/** After these the stream ends: the job is over, or (interrupted) this server stopped running it for now. */
export const endsStream = (type: JobEventType): boolean =>
  type === "job.completed" || type === "job.failed" || type === "job.cancelled" || type === "job.interrupted"
