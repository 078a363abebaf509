import type { JobProgress, JobStatusResponse, JobSummary } from "../api/ApiSchemas.js"
import type { JobEvent } from "./JobEvent.js"
import { isTerminal } from "./JobStatus.js"
import type { JobRecord } from "./JobStore.js"
import type { ResultStats } from "./ResultTally.js"

/**
 * synth-ai's `results` block of `GET /api/eval/jobs/{id}`. `mean_reward` repeats `mean_score` because newer
 * synth-ai clients read that name.
 */
export const resultsView = (job: JobRecord, stats: ResultStats): typeof JobProgress.Type => ({
  mean_score: stats.meanScore,
  mean_reward: stats.meanScore,
  total_tokens: stats.totalTokens,
  total_cost_usd: stats.totalCostUsd,
  completed: stats.completed,
  total: job.planned,
})

/** synth-ai's `summary` block of `GET /api/eval/jobs/{id}/results`. */
export const summaryView = (job: JobRecord, stats: ResultStats): typeof JobSummary.Type => ({
  mean_score: stats.meanScore,
  mean_reward: stats.meanScore,
  total_tokens: stats.totalTokens,
  total_cost_usd: stats.totalCostUsd,
  num_seeds: job.numSeeds,
  num_successful: stats.ok,
  num_failed: stats.completed - stats.ok,
})

/** The status answer: its shape is the one `JobStatusResponse` declares (and the API's OpenAPI document shows). */
export const statusView = (job: JobRecord, stats: ResultStats): JobStatusResponse => ({
  job_id: job.id,
  status: job.status,
  error: job.error,
  created_at: job.createdAt,
  started_at: job.startedAt,
  completed_at: job.completedAt,
  // What the client sent, not what it resolved to: a default it never sent would read as its choice.
  // A stored config is a plain JSON object; its interface only lacks the index signature.
  config: (job.requested ?? job.config) as Readonly<Record<string, unknown>>,
  results: resultsView(job, stats),
})

/** The first event of every stream: where the job stands now. */
export const snapshotEvent = (job: JobRecord, stats: ResultStats): JobEvent => ({
  type: "job.status",
  job_id: job.id,
  message: `${job.status}: ${stats.completed}/${job.planned} rollouts`,
  data: { status: job.status, error: job.error, ...resultsView(job, stats) },
})

/** The last event of a finished job, live or replayed. */
export const terminalEvent = (job: JobRecord, stats: ResultStats): JobEvent | null => {
  if (!isTerminal(job.status)) return null
  return {
    type: job.status === "completed" ? "job.completed" : job.status === "failed" ? "job.failed" : "job.cancelled",
    job_id: job.id,
    message: job.error ?? `${job.status}: ${stats.completed}/${job.planned} rollouts`,
    data: {
      status: job.status,
      error: job.error,
      completed_at: job.completedAt,
      ...resultsView(job, stats),
      summary: summaryView(job, stats),
      run_summary: job.summary,
    },
  }
}
