import { type EvalResult, type RunSummary, rolloutKeyId } from "@proctor/core"
import { Effect, Either } from "effect"
import type { JobsClientService } from "./JobsClient.js"
import type { JobsClientError } from "./JobsClientError.js"
import type { Job } from "./JobsWire.js"
import { jobRunSummary } from "./jobSummary.js"
import { decodeResultRow } from "./resultRows.js"

/** What summarizing a job needs from its config: what was planned and what counts as a pass. */
export interface JobPlan {
  readonly seeds: ReadonlyArray<number> | null
  readonly attempts: number
  readonly passThreshold: number
}

const isNumberArray = (value: unknown): value is ReadonlyArray<number> =>
  Array.isArray(value) && value.every((item) => typeof item === "number")

/** The plan a job's stored config describes (synth-ai's backend stores less; the defaults are direct mode's). */
export const planOfJob = (job: Job): JobPlan => {
  const config = job.config ?? {}
  return {
    seeds: isNumberArray(config.seeds) ? config.seeds : null,
    attempts: typeof config.attempts === "number" && config.attempts >= 1 ? config.attempts : 1,
    passThreshold: typeof config.pass_threshold === "number" ? config.pass_threshold : 1,
  }
}

export interface JobResultSet {
  readonly results: ReadonlyArray<EvalResult>
  readonly summary: RunSummary
  /** Rows the server sent that are not results (counted, not fatal: the rest are still worth showing). */
  readonly skipped: number
}

/**
 * A job's result rows, as direct mode reads its journal back (the last row of each (seed, attempt) wins, in
 * (seed, attempt) order), and its error-aware summary. Traces are dropped from the rows: `--traces-dir` takes
 * them from the traces zip, and a big job's traces need not sit in memory.
 */
export const fetchJobResults = (
  client: JobsClientService,
  job: Job,
  plan: JobPlan,
): Effect.Effect<JobResultSet, JobsClientError> =>
  Effect.map(client.results(job.job_id), (body) => {
    const latest = new Map<string, EvalResult>()
    let skipped = 0
    for (const raw of body.results) {
      const row = decodeResultRow(raw)
      if (Either.isLeft(row)) {
        skipped++
        continue
      }
      const { trace: _trace, ...rest } = row.right
      latest.set(rolloutKeyId(rest), rest)
    }
    const results = Array.from(latest.values()).sort((a, b) => a.seed - b.seed || a.attempt - b.attempt)
    const summary = jobRunSummary({
      job,
      // proctor's server puts core's summary beside synth-ai's totals; synth-ai's backend has only the totals.
      serverSummaries: [body.summary, body.summary?.run_summary, (body as { run_summary?: unknown }).run_summary],
      results,
      seeds: plan.seeds,
      attempts: plan.attempts,
      passThreshold: plan.passThreshold,
    })
    return { results, summary, skipped }
  })
