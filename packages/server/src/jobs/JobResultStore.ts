import { type EvalResult, ResultStore, type ResultStoreService, StoreError } from "@proctor/core"
import { Cause, Effect, Exit, Layer, type Scope } from "effect"
import type { RowSequence } from "./internal/RowSequence.js"
import { JobStore, type JobStoreService } from "./JobStore.js"
import type { JobStoreError } from "./JobStoreError.js"
import type { TallyRow } from "./ResultTally.js"
import { RolloutStore, type RolloutStoreService } from "./RolloutStore.js"

const storeError = (error: JobStoreError) => new StoreError({ reason: "Io", message: error.message, cause: error })

/** Rows are parsed one at a time as the runner walks them, so a resumed 100k-rollout job never holds them all parsed. */
function* parsed(rows: ReadonlyArray<string>): Generator<EvalResult> {
  for (const row of rows) yield JSON.parse(row) as EvalResult
}

/** Told of each committed row and the row it replaced (null for a new key), e.g. to keep live job stats. */
export type OnStored = (result: EvalResult, replaced: TallyRow | null) => void

/** Rows committed by one transaction at most (9 parameters each, far below either database's limit). */
export const MAX_ROWS_PER_COMMIT = 256

interface PendingRow {
  readonly result: EvalResult
  readonly seq: number
  /** Resumes the appender: with success once the row is committed, with the error when its commit failed. */
  readonly answer: (outcome: Effect.Effect<void, StoreError>) => void
}

/** Resumes after the I/O callbacks of this turn of the event loop, so rollouts finishing together share a commit. */
const afterThisTurn = Effect.async<void>((resume) => {
  const immediate = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(immediate))
})

const closed = Effect.fail(new StoreError({ reason: "Io", message: "the job's result store closed before the commit" }))

/**
 * core's `ResultStore` over the job database. `append` returns only once the row is committed, so the runner never
 * counts a rollout that a killed process could lose (SQLite's `synchronous = NORMAL`: not a power loss;
 * PostgreSQL: what its commits survive); rows appended in the same turn of the event loop are committed by one
 * transaction (a group commit), and `onStored` hears of each only after that commit. `completed` reads back what
 * earlier sessions stored.
 */
export const makeJobResultStore = (
  stores: { readonly jobs: JobStoreService; readonly rollouts: RolloutStoreService },
  jobId: string,
  onStored: OnStored = () => {},
  sequence: RowSequence | null = null,
): Effect.Effect<ResultStoreService, never, Scope.Scope> =>
  Effect.gen(function* () {
    // A plain array and callbacks, not a Queue and Deferreds: this runs per rollout, where those cost several times the CPU.
    let pending: Array<PendingRow> = []
    let wake: (() => void) | null = null
    const rowsPending = Effect.async<void>((resume) => {
      if (pending.length > 0) return resume(Effect.void)
      wake = () => {
        wake = null
        resume(Effect.void)
      }
      return Effect.sync(() => {
        wake = null
      })
    })

    const commit = (batch: ReadonlyArray<PendingRow>) =>
      Effect.flatMap(Effect.exit(stores.rollouts.upsertResults(jobId, batch)), (exit) =>
        Effect.sync(() => {
          const outcome = Exit.isSuccess(exit) ? Effect.void : Effect.failCause(Cause.map(exit.cause, storeError))
          batch.forEach((row, i) => {
            if (Exit.isSuccess(exit)) onStored(row.result, exit.value[i] ?? null)
            sequence?.settle(row.seq)
            row.answer(outcome)
          })
        }),
      )

    // Rows taken are always answered: their appenders wait (uninterruptibly, in the runner) until they are.
    const writeBatch = Effect.zipRight(
      Effect.zipRight(rowsPending, afterThisTurn),
      Effect.uninterruptible(
        Effect.suspend(() => {
          const batch = pending.length <= MAX_ROWS_PER_COMMIT ? pending : pending.slice(0, MAX_ROWS_PER_COMMIT)
          pending = pending.length <= MAX_ROWS_PER_COMMIT ? [] : pending.slice(MAX_ROWS_PER_COMMIT)
          return commit(batch)
        }),
      ),
    )
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const row of pending) row.answer(closed)
        pending = []
      }),
    )
    yield* Effect.forkScoped(Effect.forever(writeBatch))

    const service: ResultStoreService = {
      location: null,
      completed: Effect.map(stores.rollouts.resultRows(jobId), parsed).pipe(Effect.mapError(storeError)),
      append: (result) =>
        Effect.async<void, StoreError>((answer) => {
          pending.push({ result, seq: sequence?.take() ?? 0, answer })
          wake?.()
        }),
      appendModelCalls: (calls) => Effect.mapError(stores.rollouts.appendModelCalls(jobId, calls), storeError),
      appendSteps: (steps) => Effect.mapError(stores.rollouts.appendSteps(jobId, steps), storeError),
      appendAgentEvents: (events) => Effect.mapError(stores.rollouts.appendAgentEvents(jobId, events), storeError),
      saveSummary: (summary) => Effect.mapError(stores.jobs.saveSummary(jobId, summary), storeError),
    }
    return service
  })

export const JobResultStoreLayer = (
  jobId: string,
  onStored?: OnStored,
  sequence?: RowSequence,
): Layer.Layer<ResultStore, never, JobStore | RolloutStore> =>
  Layer.scoped(
    ResultStore,
    Effect.flatMap(Effect.all({ jobs: JobStore, rollouts: RolloutStore }), (stores) =>
      makeJobResultStore(stores, jobId, onStored, sequence ?? null),
    ),
  )
