import { describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import { testResult } from "@proctor/test-kit"
import { Deferred, Effect, Either, Fiber } from "effect"
import {
  JobDatabase,
  JobStore,
  JobStoreError,
  type JobStoreService,
  makeJobResultStore,
  RolloutStore,
  type RolloutStoreService,
} from "../src/index.js"
import { RowSequence } from "../src/jobs/internal/RowSequence.js"
import { tempDir } from "./api.harness.js"

const row = (seed: number): EvalResult => testResult({ seed, score: 1, latency_ms: 5 })

/** `program` over a job store on SQLite in a fresh data dir. */
const withStore = <A, E>(
  program: (stores: { readonly jobs: JobStoreService; readonly rollouts: RolloutStoreService }) => Effect.Effect<A, E>,
) =>
  Effect.suspend(() => {
    const dir = tempDir()
    return Effect.flatMap(Effect.all({ jobs: JobStore, rollouts: RolloutStore }), program).pipe(
      Effect.provide(JobDatabase.layerSqlite(dir.path)),
      Effect.ensuring(Effect.sync(dir.remove)),
    )
  })

describe("the job's result store commits rows in groups, and counts none before its commit", () => {
  it.effect("rows appended together share one transaction; no append returns, and none is counted, before it", () =>
    withStore(({ jobs, rollouts: store }) =>
      Effect.scoped(
        Effect.gen(function* () {
          const inCommit = yield* Deferred.make<void>()
          const letCommit = yield* Deferred.make<void>()
          const batches: Array<number> = []
          const gated: RolloutStoreService = {
            ...store,
            upsertResults: (jobId, writes) =>
              Effect.sync(() => batches.push(writes.length)).pipe(
                Effect.zipRight(Deferred.succeed(inCommit, undefined)),
                Effect.zipRight(Deferred.await(letCommit)),
                Effect.zipRight(store.upsertResults(jobId, writes)),
              ),
          }
          const counted: Array<number> = []
          const sequence = new RowSequence(0)
          const results = yield* makeJobResultStore(
            { jobs, rollouts: gated },
            "g",
            (result) => counted.push(result.seed),
            sequence,
          )
          const appends = yield* Effect.fork(
            Effect.all(
              [0, 1, 2, 3, 4].map((seed) => results.append(row(seed))),
              { concurrency: "unbounded" },
            ),
          )

          yield* Deferred.await(inCommit)
          expect(batches).toEqual([5])
          expect(appends.unsafePoll()).toBeNull()
          expect(counted).toEqual([])
          expect(sequence.committed()).toBe(0)
          expect(yield* store.resultRows("g")).toEqual([])

          yield* Deferred.succeed(letCommit, undefined)
          yield* Fiber.join(appends)
          expect(counted).toEqual([0, 1, 2, 3, 4])
          expect(sequence.committed()).toBe(5)
          expect((yield* store.resultRows("g")).length).toBe(5)
          // A later row is a transaction of its own.
          yield* results.append(row(5))
          expect(batches).toEqual([5, 1])
        }),
      ),
    ),
  )

  it.effect("a failed commit fails every append of its group and counts none of them", () =>
    withStore(({ jobs, rollouts: store }) =>
      Effect.scoped(
        Effect.gen(function* () {
          const failing: RolloutStoreService = {
            ...store,
            upsertResults: () => Effect.fail(new JobStoreError({ reason: "Unavailable", message: "disk full" })),
          }
          const counted: Array<number> = []
          const sequence = new RowSequence(0)
          const results = yield* makeJobResultStore(
            { jobs, rollouts: failing },
            "f",
            (result) => counted.push(result.seed),
            sequence,
          )
          const outcomes = yield* Effect.all(
            [0, 1, 2].map((seed) => Effect.either(results.append(row(seed)))),
            { concurrency: "unbounded" },
          )
          for (const outcome of outcomes) {
            expect(Either.isLeft(outcome) && outcome.left.message).toBe("disk full")
          }
          expect(counted).toEqual([])
          // Their numbers never appear, so readers of the committed prefix do not wait for them.
          expect(sequence.committed()).toBe(3)
        }),
      ),
    ),
  )
})
