import { describe, expect, it } from "@effect/vitest"
import { LiveRunState, Solver, startEvalRun, withRunEvents } from "@proctor/core"
import {
  testFinal as final,
  freshDir,
  testResult as result,
  testRunConfig,
  waitForEffect,
  writeRun,
} from "@proctor/test-kit"
import { Deferred, Effect, Exit, Fiber, Layer } from "effect"
import type { RolloutDetail, RowsPage, RunHead } from "../src/api.js"
import { liveRunDirectoryRun, openRunDirectoryRun } from "../src/backend/runDirectoryRun.js"
import { makeViewerApi } from "../src/backend/ViewerApi.js"
import type { ViewerError } from "../src/backend/ViewerError.js"

const failureOf = <A>(exit: Exit.Exit<A, ViewerError>) => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
  const error = exit.cause._tag === "Fail" ? exit.cause.error : null
  if (error === null) throw new Error("expected a ViewerError")
  return { reason: error.reason, field: error.field, message: error.message }
}

/** Polls `check` until it holds (or fails the test after five seconds). */
/** Seeds 0–4 of a six-seed plan: seed 1 errored, seed 5 not run yet. */
const fiveOfSix = Effect.gen(function* () {
  const run = yield* writeRun(freshDir(), [0, 1, 2, 3, 4, 5])
  yield* run.add(result({ seed: 0, score: 1, tokens: 30, cost_usd: 0.001 }), 2)
  yield* run.add(result({ seed: 1, status: "error", error_kind: "http_5xx", error: "x".repeat(300), retries: 2 }))
  yield* run.add(result({ seed: 2, score: 0.25 }), 1)
  yield* run.add(result({ seed: 3, score: 0.75, task_id: "t3" }), 3)
  yield* run.add(result({ seed: 4, score: 0 }))
  return run
})

describe("the viewer data API over a run directory", () => {
  it.scoped(
    "pages through the rows with each rollout's model calls counted, and opens one rollout with its calls",
    () =>
      Effect.gen(function* () {
        const run = yield* fiveOfSix
        const api = makeViewerApi([yield* openRunDirectoryRun(run.dir)])

        const first = (yield* api.get("runs/0/rows", { from: "0", limit: "2" })) as RowsPage
        expect(first).toMatchObject({ next: 2, complete: false })
        const rest = (yield* api.get("runs/0/rows", { from: String(first.next) })) as RowsPage
        expect(rest).toMatchObject({ next: 5, complete: true })
        const rows = [...first.rows, ...rest.rows]
        expect(rows.map((r) => [r.seed, r.calls, r.turns, r.passed])).toEqual([
          [0, 2, 2, true],
          [1, 0, null, null],
          [2, 1, 1, false],
          [3, 3, 3, true],
          [4, 0, null, false],
        ])
        expect(rows[1]).toMatchObject({ status: "error", error_kind: "http_5xx", retries: 2, score: null })
        expect(rows[1]!.error).toHaveLength(200)
        expect(rows[3]!.task_id).toBe("t3")
        expect(rows[0]).toMatchObject({ tokens: 30, cost_usd: 0.001, task_id: null })

        const detail = (yield* api.get("runs/0/rollouts/3/0", {})) as RolloutDetail
        expect(detail.result).toMatchObject({ seed: 3, score: 0.75 })
        expect(detail.calls.map((c) => c.response_message)).toEqual([
          { role: "assistant", content: "step 0 of seed 3" },
          { role: "assistant", content: "step 1 of seed 3" },
          { role: "assistant", content: "step 2 of seed 3" },
        ])
      }),
  )

  it.live("computes the summary of an unfinished run, and trusts a stored one only while it counts every row", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const run = yield* fiveOfSix
        const viewerRun = yield* openRunDirectoryRun(run.dir, { followEveryMs: 10 })
        const api = makeViewerApi([viewerRun])
        const heads = () => Effect.map(api.get("runs", {}), (body) => (body as { runs: Array<RunHead> }).runs)

        const [unfinished] = yield* heads()
        expect(unfinished).toMatchObject({ index: 0, name: "run", run_id: "run-view", live: false })
        expect(unfinished!.config?.seeds).toEqual([0, 1, 2, 3, 4, 5])
        expect(unfinished!.summary).toMatchObject({ planned: 6, completed: 5, ok: 4, errored: 1, missing: 1 })
        expect(unfinished!.summary?.missing_keys).toEqual([{ seed: 5, attempt: 0 }])
        expect(unfinished!.progress).toMatchObject({ planned: 6, done: 5, ok: 4, errored: 1, retries: 2, inFlight: 0 })

        const stored = { ...unfinished!.summary!, run_id: "as-stored" }
        yield* run.finish(stored)
        expect((yield* heads())[0]).toMatchObject({ summary: { run_id: "as-stored" }, progress: null })

        // Another session adds seed 5: the stored summary no longer covers the run.
        yield* run.add(result({ seed: 5, score: 1 }))
        yield* waitForEffect(
          "the new row followed",
          Effect.map(heads(), ([head]) => head!.summary?.completed === 6),
        )
        expect((yield* heads())[0]!.summary).toMatchObject({ run_id: "run-view", completed: 6, missing: 0 })
      }),
    ),
  )

  it.live("tells its watchers when rows are appended to a run it follows, and serves them", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const run = yield* writeRun(freshDir(), [0, 1])
        yield* run.add(result({ seed: 0, score: 1 }))
        const api = makeViewerApi([yield* openRunDirectoryRun(run.dir, { followEveryMs: 20 })])
        expect(yield* api.get("runs/0/rows", {})).toMatchObject({ next: 1, complete: true })
        const updates: Array<number> = []
        const updated = yield* Deferred.make<void>()
        const stop = api.watch((index) => {
          updates.push(index)
          Deferred.unsafeDone(updated, Exit.void)
        })
        yield* run.add(result({ seed: 1, score: 0 }), 1)
        yield* Deferred.await(updated)
        stop()
        expect(updates).toEqual([0])
        const page = (yield* api.get("runs/0/rows", { from: "1" })) as RowsPage
        expect(page).toMatchObject({ next: 2, complete: true })
        expect(page.rows.map((r) => [r.seed, r.calls])).toEqual([[1, 1]])
      }),
    ),
  )

  it.scoped("says what is wrong with a request: the parameter, the run, the rollout or the route", () =>
    Effect.gen(function* () {
      const run = yield* fiveOfSix
      const api = makeViewerApi([yield* openRunDirectoryRun(run.dir)])
      const fail = (path: string, query: Record<string, string> = {}) =>
        Effect.map(Effect.exit(api.get(path, query)), failureOf)

      expect(yield* fail("runs/0/rows", { from: "-1" })).toEqual({
        reason: "InvalidRequest",
        field: "from",
        message: 'from: expected a row position (an integer ≥ 0), got "-1"',
      })
      expect(yield* fail("runs/0/rows", { limit: "50000" })).toMatchObject({ reason: "InvalidRequest", field: "limit" })
      expect(yield* fail("compare", { a: "0" })).toMatchObject({
        reason: "InvalidRequest",
        field: "b",
        message: "b: is required",
      })
      expect(yield* fail("runs/3/rows")).toMatchObject({
        reason: "NotFound",
        message: "no run 3: this viewer has runs 0 to 0",
      })
      expect(yield* fail("runs/0/rollouts/9/0")).toMatchObject({ reason: "NotFound" })
      expect(yield* fail("runs/0/rollouts/x/0")).toMatchObject({ reason: "NotFound" })
      expect(yield* fail("runs/0/live")).toMatchObject({
        reason: "NotFound",
        message: "run 0 is not followed live here",
      })
      expect(yield* fail("nothing/here")).toMatchObject({ reason: "NotFound" })
    }),
  )

  it.scoped("compares two runs seed by seed", () =>
    Effect.gen(function* () {
      const a = yield* fiveOfSix
      const b = yield* writeRun(freshDir(), [0, 2, 3, 9])
      for (const [seed, score] of [
        [0, 0],
        [2, 1],
        [3, 1],
        [9, 1],
      ] as const)
        yield* b.add(result({ seed, score }))
      const api = makeViewerApi([yield* openRunDirectoryRun(a.dir), yield* openRunDirectoryRun(b.dir)])
      const comparison = (yield* api.get("compare", { a: "0", b: "1" })) as Record<string, unknown>
      expect(comparison.pairs).toBe(3)
      // Passing is A's: its run passes at 0.5 (seed 3's 0.75 passes in both runs, so it is no flip).
      expect(comparison.pass_threshold).toBe(0.5)
      expect(comparison.flips).toEqual({ a_only: [0], b_only: [2] })
      expect(comparison.per_seed).toEqual([
        { seed: 0, a: 1, b: 0 },
        { seed: 2, a: 0.25, b: 1 },
        { seed: 3, a: 0.75, b: 1 },
      ])
    }),
  )

  it.live("serves a running eval: its rows from its directory as they land, what is in flight from its events", () =>
    Effect.gen(function* () {
      const live = new LiveRunState()
      const api = makeViewerApi([liveRunDirectoryRun(live, "math")])
      const head = () => Effect.map(api.get("runs", {}), (body) => (body as { runs: Array<RunHead> }).runs[0]!)
      const rows = () => Effect.map(api.get("runs/0/rows", {}), (page) => (page as RowsPage).rows)

      expect(yield* head()).toMatchObject({ name: "math", live: true, config: null, summary: null })
      expect(yield* rows()).toEqual([])

      const gate = yield* Deferred.make<void>()
      const solver = Layer.succeed(Solver, {
        name: "gated",
        enforcesTimeout: true,
        solve: (task) => (task.key.seed === 2 ? Effect.as(Deferred.await(gate), final(1)) : Effect.succeed(final(0.5))),
      })
      const config = testRunConfig({ seeds: [0, 1, 2], concurrency: 3 })
      const run = yield* Effect.fork(
        withRunEvents(live.onEvent, (events) => startEvalRun({ config, runDir: freshDir(), events, solver })),
      )
      yield* waitForEffect(
        "two rows and seed 2 in flight",
        Effect.map(Effect.zip(rows(), api.get("runs/0/live", {})), ([shown, now]) => {
          const inflight = (now as { inflight: Array<{ seed: number; state: string }> }).inflight
          return shown.length === 2 && inflight.length === 1 && inflight[0]!.seed === 2
        }),
      )
      expect(yield* head()).toMatchObject({
        live: true,
        config: { seeds: [0, 1, 2] },
        summary: { completed: 2, missing: 1 },
        progress: { planned: 3, done: 2, inFlight: 1 },
      })

      yield* Deferred.succeed(gate, undefined)
      const outcome = yield* Fiber.join(run)
      const ended = yield* head()
      expect(ended).toMatchObject({ live: false, run_id: outcome.runId, progress: { done: 3, inFlight: 0 } })
      expect(ended.summary).toEqual(outcome.summary)
      expect((yield* rows()).map((r) => r.seed).sort()).toEqual([0, 1, 2])
    }),
  )
})
