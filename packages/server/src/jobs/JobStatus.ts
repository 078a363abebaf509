import { Schema } from "effect"

/** synth-ai's job statuses, in the order a job moves through them. */
export const JobStatus = Schema.Literal("pending", "running", "completed", "failed", "cancelled")
export type JobStatus = typeof JobStatus.Type

export const jobStatuses: ReadonlyArray<JobStatus> = JobStatus.literals

/** A job in one of these never changes again (synth-ai's `is_terminal`). */
export const isTerminal = (status: JobStatus): boolean =>
  status === "completed" || status === "failed" || status === "cancelled"
