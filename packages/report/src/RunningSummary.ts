import { type EvalResult, type RolloutKey, type RunProgress, type RunSummary, SummaryAccumulator } from "@proctor/core"

export interface SummaryPlan {
  readonly seeds: ReadonlyArray<number>
  readonly attempts: number
  readonly pass_threshold: number
  readonly cluster_by?: string | undefined
}

/**
 * The summary of a run that has none stored yet (still running, or stopped before its end), kept up to date
 * as its results are read: each result is folded in once, so following a growing run costs only its new rows.
 */
export class RunningSummary {
  private readonly accumulator: SummaryAccumulator
  /** Keys seen, as seed × attempts + attempt: which planned keys are missing. */
  private readonly done = new Set<number>()
  private firstStartMs = Number.POSITIVE_INFINITY
  private lastFinishMs = Number.NEGATIVE_INFINITY
  /** Results folded in so far (their positions 0 … added − 1 in the run's order). */
  added = 0

  constructor(private readonly plan: SummaryPlan) {
    this.accumulator = new SummaryAccumulator({
      attempts: plan.attempts,
      passThreshold: plan.pass_threshold,
      clusterBy: plan.cluster_by,
    })
  }

  add(result: EvalResult): void {
    this.added++
    this.accumulator.add(result)
    this.done.add(result.seed * this.plan.attempts + result.attempt)
    const started = Date.parse(result.started_at)
    const finished = Date.parse(result.finished_at)
    if (started < this.firstStartMs) this.firstStartMs = started
    if (finished > this.lastFinishMs) this.lastFinishMs = finished
  }

  summary(runId: string): RunSummary {
    const missingKeys: Array<RolloutKey> = []
    for (const seed of this.plan.seeds) {
      for (let attempt = 0; attempt < this.plan.attempts; attempt++) {
        if (!this.done.has(seed * this.plan.attempts + attempt)) missingKeys.push({ seed, attempt })
      }
    }
    const durationMs = this.added === 0 ? 0 : Math.max(0, this.lastFinishMs - this.firstStartMs)
    return this.accumulator.summarize({
      runId,
      // A run without a plan (no manifest) planned what it did.
      plannedKeys: Math.max(this.plan.seeds.length * this.plan.attempts, this.done.size),
      missingKeys,
      durationMs,
    })
  }
}

/** Progress counters as a summary gives them, for a run nobody here follows live. */
export const progressOfSummary = (summary: RunSummary): RunProgress => ({
  planned: summary.planned,
  done: summary.completed,
  ok: summary.ok,
  errored: summary.errored,
  retries: summary.retries,
  inFlight: 0,
  scoreSum: (summary.metrics.mean_score ?? 0) * summary.metrics.count,
  scored: summary.metrics.count,
  elapsedMs: summary.run_duration_s * 1000,
  alreadyDone: 0,
})
