import { basename } from "node:path"
import type { RunReader, RunSummary, StoreError } from "@proctor/core"
import { Effect, Stream } from "effect"
import { RunningSummary, type SummaryPlan } from "./RunningSummary.js"

/** What a run directory's manifest says about how its results are scored, with the run config's defaults. */
export const runScoring = (reader: RunReader) => {
  const config = reader.manifest?.config
  return {
    attempts: config?.attempts ?? 1,
    passThreshold: config?.pass_threshold ?? 1,
    clusterBy: config?.cluster_by ?? null,
  }
}

/** What a run needs for its summary to count missing rollouts: its plan from the manifest (none without one). */
export const summaryPlanOf = (reader: RunReader): SummaryPlan => {
  const config = reader.manifest?.config
  const { attempts, passThreshold, clusterBy } = runScoring(reader)
  return { seeds: config?.seeds ?? [], attempts, pass_threshold: passThreshold, cluster_by: clusterBy ?? undefined }
}

/** The run's id as the manifest gives it, or its directory's name. */
export const runIdOf = (reader: RunReader): string => reader.manifest?.run_id ?? basename(reader.dir)

/**
 * The run's summary: `summary.json` as the run last wrote it, or, while a run is still being written (or was
 * killed before writing one), the same summary computed from its results, with the manifest's plan.
 */
export const runSummaryOf = (reader: RunReader): Effect.Effect<RunSummary, StoreError> =>
  Effect.suspend(() => {
    const saved = reader.summary()
    if (saved !== null) return Effect.succeed(saved)
    const running = new RunningSummary(summaryPlanOf(reader))
    return Stream.runForEach(reader.results(), (result) => Effect.sync(() => running.add(result))).pipe(
      Effect.map(() => running.summary(runIdOf(reader))),
    )
  })
