import type { EvalResult } from "@proctor/core"
import { rolloutRow } from "@proctor/viewer/api"
import type { ViewerRun } from "@proctor/viewer/backend"
import { Chunk, Effect, Option, Stream } from "effect"
import { isTerminal } from "../jobs/JobStatus.js"
import type { JobRecord } from "../jobs/JobStore.js"
import type { JobStoreError } from "../jobs/JobStoreError.js"
import type { LiveRun } from "../jobs/LocalJobs.js"
import { emptyStats } from "../jobs/ResultTally.js"
import type { RolloutStoreService } from "../jobs/RolloutStore.js"

/** Rows read per query when a comparison walks a job's results. */
const RESULTS_PAGE = 5_000

/**
 * A job as the viewer serves it: its rows from the job database in the order they were stored, its model calls
 * and agent rollouts' steps from the same, what is in flight while it runs (`following`: this process's run of it,
 * or a cluster's workers' as this replica folds it). The summary is the one stored when the job ended; while it
 * runs, its progress stands in.
 */
export const jobViewerRun = (
  job: JobRecord,
  store: RolloutStoreService,
  following: () => LiveRun | null,
): ViewerRun<JobStoreError> => {
  const parse = (json: string) => JSON.parse(json) as EvalResult
  return {
    head: Effect.gen(function* () {
      const live = following()
      const stats = live === null && !isTerminal(job.status) ? (yield* store.resultStats([job.id])).get(job.id) : null
      const progress =
        live !== null
          ? live.state.progress()
          : isTerminal(job.status)
            ? null
            : {
                planned: job.planned,
                done: stats?.completed ?? emptyStats.completed,
                ok: stats?.ok ?? 0,
                errored: (stats?.completed ?? 0) - (stats?.ok ?? 0),
                retries: 0,
                inFlight: 0,
                scoreSum: 0,
                scored: 0,
                elapsedMs: 0,
                alreadyDone: 0,
              }
      return {
        name: job.config.app_id ?? job.id,
        run_id: job.id,
        live: live !== null,
        config: job.config,
        summary: job.summary,
        progress,
      }
    }),
    rows: (from, limit) =>
      Effect.map(
        store.viewerRows(job.id, { offset: from, limit, maxSeq: following()?.committedSeq ?? null }),
        (stored) => {
          const rows = stored.map((row) => rolloutRow(parse(row.json), row.calls, job.config.pass_threshold))
          return { rows, next: from + rows.length, complete: rows.length < limit }
        },
      ),
    rollout: (seed, attempt) =>
      Effect.gen(function* () {
        const row = yield* store.rolloutOf(job.id, { seed, attempt })
        if (row === null) return Option.none()
        const result = parse(row.json)
        const calls = yield* store.modelCallsOf(job.id, { seed, attempt })
        return Option.some({ result: row.trace === null ? result : { ...result, trace: JSON.parse(row.trace) }, calls })
      }),
    // An agent rollout's timeline, stored step by step by whichever process runs it (this one or a worker).
    steps: (seed, attempt) => store.stepsOf(job.id, { seed, attempt }),
    agentEvents: (seed, attempt) => store.agentEventsOf(job.id, { seed, attempt }),
    live: Effect.sync(() => following()?.state.view() ?? null),
    results: Stream.paginateChunkEffect(0, (offset) =>
      Effect.map(store.viewerRows(job.id, { offset, limit: RESULTS_PAGE, maxSeq: null }), (rows) => [
        Chunk.fromIterable(rows.map((row) => parse(row.json))),
        rows.length < RESULTS_PAGE ? Option.none() : Option.some(offset + rows.length),
      ]),
    ),
    watch: (onChange) => following()?.state.watch(onChange) ?? (() => {}),
  }
}
