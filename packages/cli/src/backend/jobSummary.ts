import { type EvalResult, type RolloutKey, RunSummary, rolloutKeyId, SummaryAccumulator } from "@proctor/core"
import { Either, Schema } from "effect"
import type { Job } from "./JobsWire.js"

const decodeRunSummary = Schema.decodeUnknownEither(RunSummary)

export interface JobSummaryInput {
  readonly job: Job
  /** Summaries the server sent, in order of preference, whatever their shape; the first `RunSummary` wins. */
  readonly serverSummaries: ReadonlyArray<unknown>
  readonly results: ReadonlyArray<EvalResult>
  /** The seeds the job was planned for, when known (from the submitted or stored config). */
  readonly seeds: ReadonlyArray<number> | null
  readonly attempts: number
  readonly passThreshold: number
}

const millis = (value: string | number | null | undefined): number | null => {
  if (value === null || value === undefined) return null
  const ms = typeof value === "number" ? (value < 1e12 ? value * 1000 : value) : Date.parse(value)
  return Number.isFinite(ms) ? ms : null
}

/** Wall time of a job from its own timestamps (seconds or ISO strings), or 0 when it does not say. */
export const jobDurationMs = (job: Job): number => {
  const start = millis(job.started_at) ?? millis(job.created_at)
  const end = millis(job.completed_at)
  return start !== null && end !== null && end >= start ? end - start : 0
}

/**
 * The same error-aware `RunSummary` direct mode prints. proctor's server sends one; synth-ai's backend sends
 * only its totals, so then it is computed here from the rows, exactly as the runner does (last row of each
 * key wins, keys planned but absent are missing).
 */
export const jobRunSummary = (input: JobSummaryInput): RunSummary => {
  for (const candidate of input.serverSummaries) {
    const fromServer = decodeRunSummary(candidate)
    if (Either.isRight(fromServer)) return fromServer.right
  }
  const latest = new Map<string, EvalResult>()
  for (const result of input.results) latest.set(rolloutKeyId(result), result)
  const accumulator = new SummaryAccumulator({ attempts: input.attempts, passThreshold: input.passThreshold })
  for (const result of latest.values()) accumulator.add(result)
  const planned: Array<RolloutKey> =
    input.seeds === null
      ? Array.from(latest.values(), (r) => ({ seed: r.seed, attempt: r.attempt }))
      : input.seeds.flatMap((seed) => Array.from({ length: input.attempts }, (_, attempt) => ({ seed, attempt })))
  return accumulator.summarize({
    runId: input.job.job_id,
    plannedKeys: planned.length,
    missingKeys: planned.filter((key) => !latest.has(rolloutKeyId(key))),
    durationMs: jobDurationMs(input.job),
  })
}
