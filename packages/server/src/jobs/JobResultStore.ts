import { type EvalResult, ResultStore, type ResultStoreService, StoreError } from "@proctor/core"
import { Effect, Layer } from "effect"
import type { RowSequence } from "./internal/RowSequence.js"
import { JobStore, type JobStoreService } from "./JobStore.js"
import type { JobStoreError } from "./JobStoreError.js"
import type { TallyRow } from "./ResultTally.js"

const storeError = (error: JobStoreError) => new StoreError({ reason: "Io", message: error.message })

/** Rows are parsed one at a time as the runner walks them, so a resumed 100k-rollout job never holds them all parsed. */
function* parsed(rows: ReadonlyArray<string>): Generator<EvalResult> {
  for (const row of rows) yield JSON.parse(row) as EvalResult
}

/**
 * core's `ResultStore` over the job database: `append` returns only once the row is committed, so the runner
 * never counts a rollout that a crash could lose; `completed` reads back what earlier sessions stored.
 */
/** Told of each committed row and the row it replaced (null for a new key), e.g. to keep live job stats. */
export type OnStored = (result: EvalResult, replaced: TallyRow | null) => void

export const makeJobResultStore = (
  store: JobStoreService,
  jobId: string,
  onStored: OnStored = () => {},
  sequence: RowSequence | null = null,
): ResultStoreService => ({
  location: null,
  completed: Effect.map(store.resultRows(jobId), parsed).pipe(Effect.mapError(storeError)),
  append: (result) => {
    const seq = sequence?.take() ?? 0
    return store.upsertResult(jobId, result, seq).pipe(
      Effect.map((replaced) => onStored(result, replaced)),
      Effect.mapError(storeError),
      Effect.ensuring(Effect.sync(() => sequence?.settle(seq))),
    )
  },
  appendModelCalls: (calls) => Effect.mapError(store.appendModelCalls(jobId, calls), storeError),
  saveSummary: (summary) => Effect.mapError(store.saveSummary(jobId, summary), storeError),
})

export const JobResultStoreLayer = (
  jobId: string,
  onStored?: OnStored,
  sequence?: RowSequence,
): Layer.Layer<ResultStore, never, JobStore> =>
  Layer.effect(
    ResultStore,
    Effect.map(JobStore, (store) => makeJobResultStore(store, jobId, onStored, sequence ?? null)),
  )
