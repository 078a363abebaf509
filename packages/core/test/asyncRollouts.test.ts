import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { testRunConfig, waitFor } from "@proctor/test-kit"
import { Context, Effect, Either, Exit, Fiber, Layer, Option, TestClock } from "effect"
import { HttpTaskAppSolverLayer } from "../src/solver/HttpTaskAppSolver.js"
import { type RolloutTask, Solver } from "../src/solver/Solver.js"
import { PENDING_ROLLOUTS_FILE, PendingRolloutsFileLayer } from "../src/store/PendingRolloutsFile.js"
import type { StoreError } from "../src/store/ResultStore.js"
import { acceptedRolloutOf, pollStateOf } from "../src/taskApp/AsyncRolloutWire.js"
import { awaitAsyncRollout } from "../src/taskApp/awaitAsyncRollout.js"
import { PendingRollouts } from "../src/taskApp/PendingRollouts.js"
import { MAX_INTERVAL_MS, nextPollDelayMs } from "../src/taskApp/PollSchedule.js"
import { TaskAppClient } from "../src/taskApp/TaskAppClient.js"
import type { TaskAppError } from "../src/taskApp/TaskAppError.js"
import { type AsyncTaskApp, type PollAnswer, startAsyncTaskApp } from "./fixtures/asyncTaskApp.js"

const withApp = (answer: (id: string, poll: number) => PollAnswer) =>
  Effect.acquireRelease(
    Effect.promise(() => startAsyncTaskApp(answer)),
    (app) => Effect.promise(app.close),
  )

/**
 * Waits (in real time: the poller's HTTP is real) until the poller sleeps on the test clock until `wakeMs`: the
 * wake-up times are the schedule under test. (A finished wait, such as the terminate's, may stay in the list.)
 */
const sleepsUntil = (wakeMs: number) =>
  Effect.gen(function* () {
    let seen: ReadonlyArray<number> = []
    for (let tries = 0; tries < 2_000; tries++) {
      seen = Array.from(yield* TestClock.sleeps())
      if (seen.includes(wakeMs)) return
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
    }
    return yield* Effect.die(new Error(`expected a wait until ${wakeMs} ms; the waits were until ${seen.join(", ")}`))
  })

/** Moves the test clock to the poller's next wake-up and waits for the app to see poll number `polls`. */
const pollAt = (app: AsyncTaskApp, wakeMs: number, polls: number) =>
  Effect.gen(function* () {
    yield* sleepsUntil(wakeMs)
    yield* TestClock.setTime(wakeMs)
    yield* Effect.promise(() => waitFor(`poll ${polls}`, () => app.polls.length >= polls))
    expect(app.polls).toHaveLength(polls)
  })

const taskFor = (url: string, timeout_s = 60, seed = 0): RolloutTask => ({
  runId: "run",
  key: { seed, attempt: 0 },
  rolloutId: `run-seed-${seed}`,
  config: testRunConfig({ task_app_url: url, timeout_s }),
})

const solverLayer = (url: string, pending: Layer.Layer<PendingRollouts, StoreError> = PendingRollouts.layer) =>
  HttpTaskAppSolverLayer.pipe(
    Layer.provide(TaskAppClient.layer({ baseUrl: url, timeoutMs: 5_000 })),
    Layer.provide(pending),
  )

/** The solver, built in the test's scope (its connection pool lives as long as the test). */
const buildSolver = <E>(layer: Layer.Layer<Solver, E>) =>
  Effect.map(Layer.build(layer), (context) => Context.get(context, Solver))

const pendingAt = (acceptedAtMs: number, appRolloutId = "r1") => ({
  appRolloutId,
  statusPath: `/rollouts/${appRolloutId}`,
  acceptedAtMs,
})

describe("the async form's wire", () => {
  it("a 202 or a 2xx with a running status starts an async rollout; a sync answer with a status of its own does not", () => {
    expect(acceptedRolloutOf(202, { rollout_id: "a b" }, undefined, "")).toEqual(
      Option.some(Either.right({ appRolloutId: "a b", statusPath: "/rollouts/a%20b" })),
    )
    expect(acceptedRolloutOf(200, { rollout_id: "x", status: "running" }, undefined, "")._tag).toBe("Some")
    expect(acceptedRolloutOf(200, { status: "success", metrics: { outcome_score: 1 } }, undefined, "")._tag).toBe(
      "None",
    )
    expect(acceptedRolloutOf(200, { metrics: { outcome_score: 1 } }, undefined, "")._tag).toBe("None")
    const noId = acceptedRolloutOf(202, { status: "running" }, undefined, "")
    expect(Option.getOrThrow(noId)._tag).toBe("Left")
    // A status URL (or Location) is polled instead; the app's base path is not repeated.
    const located = acceptedRolloutOf(
      202,
      { rollout_id: "x", status_url: "http://h/apps/m/jobs/x" },
      undefined,
      "/apps/m",
    )
    expect(Option.getOrThrow(located)).toEqual(Either.right({ appRolloutId: "x", statusPath: "/jobs/x" }))
  })

  it("reads the containers contract's statuses", () => {
    expect(pollStateOf({ status: "running" })._tag).toBe("Running")
    expect(pollStateOf({ status: "prepared" })._tag).toBe("Running")
    expect(pollStateOf({ status: "completed", metrics: { outcome_score: 1 } })).toEqual({
      _tag: "Done",
      result: { status: "completed", metrics: { outcome_score: 1 } },
    })
    expect(pollStateOf({ status: "completed", result: { metrics: {} } })).toEqual({
      _tag: "Done",
      result: { metrics: {} },
    })
    expect(pollStateOf({ status: "failed", error: { message: "boom" } })).toEqual({
      _tag: "Failed",
      status: "failed",
      message: "boom",
    })
    expect(pollStateOf({ status: "terminated" })._tag).toBe("Stopped")
    expect(pollStateOf({ status: "weird", terminated: true })._tag).toBe("Done")
  })

  it("the gap between polls grows from 1 s to 5 s, and a Retry-After replaces it, never below 1 s", () => {
    expect([1, 2, 3, 4, 5, 6].map((polls) => nextPollDelayMs(polls, undefined))).toEqual([
      1000, 1500, 2250, 3375, 5000, 5000,
    ])
    expect(nextPollDelayMs(9, 30_000)).toBe(30_000)
    expect(nextPollDelayMs(1, 0)).toBe(1000)
    expect(nextPollDelayMs(100, undefined)).toBe(MAX_INTERVAL_MS)
  })
})

describe("polling a rollout the app runs in the background (TestClock)", () => {
  it.scoped("polls 250 ms after the start, then 1 s apart growing to 5 s, and returns the result", () =>
    Effect.gen(function* () {
      const app = yield* withApp((_, poll) => (poll < 6 ? { status: "running" } : { status: "completed", score: 0.75 }))
      const client = yield* TaskAppClient.make({ baseUrl: app.url, timeoutMs: 5_000 })
      const fiber = yield* Effect.fork(
        awaitAsyncRollout({ client, pending: pendingAt(0), timeoutS: 600, firstDelayMs: 250 }),
      )
      yield* pollAt(app, 250, 1)
      yield* pollAt(app, 1_250, 2)
      yield* pollAt(app, 2_750, 3)
      yield* pollAt(app, 5_000, 4)
      yield* pollAt(app, 8_375, 5)
      yield* pollAt(app, 13_375, 6)
      const settled = yield* Fiber.join(fiber)
      expect(settled).toMatchObject({ _tag: "Done", response: { metrics: { outcome_score: 0.75 } } })
    }),
  )

  it.scoped("honours Retry-After (a long one as given, a short one raised to 1 s) and polls through a 503", () =>
    Effect.gen(function* () {
      const answers: ReadonlyArray<PollAnswer> = [
        { status: "running", retryAfter: "3" },
        { status: "running", retryAfter: "0" },
        { http: 503 },
        { status: "completed", score: 1 },
      ]
      const app = yield* withApp((_, poll) => answers[poll - 1]!)
      const client = yield* TaskAppClient.make({ baseUrl: app.url, timeoutMs: 5_000 })
      const fiber = yield* Effect.fork(
        awaitAsyncRollout({ client, pending: pendingAt(0), timeoutS: 600, firstDelayMs: 250 }),
      )
      yield* pollAt(app, 250, 1)
      yield* pollAt(app, 3_250, 2)
      yield* pollAt(app, 4_250, 3)
      // After the 503, the gap is the third one of the schedule (2.25 s).
      yield* pollAt(app, 6_500, 4)
      expect((yield* Fiber.join(fiber))._tag).toBe("Done")
    }),
  )

  it.scoped(
    "stops at the rollout's deadline without a poll past it, and the app's failure is an error of its own",
    () =>
      Effect.gen(function* () {
        const app = yield* withApp((id) => (id === "r1" ? { status: "running" } : { status: "failed" }))
        const client = yield* TaskAppClient.make({ baseUrl: app.url, timeoutMs: 5_000 })
        const fiber = yield* Effect.fork(
          Effect.flip(awaitAsyncRollout({ client, pending: pendingAt(0), timeoutS: 3, firstDelayMs: 250 })),
        )
        yield* pollAt(app, 250, 1)
        yield* pollAt(app, 1_250, 2)
        yield* pollAt(app, 2_750, 3)
        // The next poll (at 5 s) would be past the 3 s deadline: the wait ends there.
        yield* sleepsUntil(3_000)
        yield* TestClock.setTime(3_000)
        const timedOut: TaskAppError = yield* Fiber.join(fiber)
        expect(timedOut.reason).toBe("Timeout")
        expect(timedOut.retryable).toBe(true)
        expect(app.polls).toHaveLength(3)

        const failed = yield* Effect.fork(
          Effect.flip(awaitAsyncRollout({ client, pending: pendingAt(3_000, "r2"), timeoutS: 60, firstDelayMs: 250 })),
        )
        yield* pollAt(app, 3_250, 4)
        const error = yield* Fiber.join(failed)
        expect(error.reason).toBe("RolloutFailed")
        expect(error.message).toContain("env crashed")
      }),
  )
})

describe("the task-app solver with an async app", () => {
  it.scoped("starts, polls and scores a rollout, then forgets it", () =>
    Effect.gen(function* () {
      const app = yield* withApp(() => ({ status: "completed", score: 0.5 }))
      const pending = yield* PendingRollouts.make
      const solver = yield* buildSolver(solverLayer(app.url, Layer.succeed(PendingRollouts, pending)))
      const fiber = yield* Effect.fork(solver.solve(taskFor(app.url)))
      yield* sleepsUntil(250)
      expect(Option.getOrThrow(yield* pending.held({ seed: 0, attempt: 0 })).appRolloutId).toBe("r1")
      yield* TestClock.setTime(250)
      const final = yield* Fiber.join(fiber)
      expect(final.score).toBe(0.5)
      expect(Option.isNone(yield* pending.held({ seed: 0, attempt: 0 }))).toBe(true)
    }),
  )

  it.scoped("terminates a rollout past its timeout, and one it abandons when interrupted (Ctrl-C)", () =>
    Effect.gen(function* () {
      const app = yield* withApp(() => ({ status: "running" }))
      const solver = yield* buildSolver(solverLayer(app.url))
      const timingOut = yield* Effect.fork(Effect.flip(solver.solve(taskFor(app.url, 1))))
      yield* pollAt(app, 250, 1)
      yield* sleepsUntil(1_000)
      yield* TestClock.setTime(1_000)
      const error = yield* Fiber.join(timingOut)
      expect(error._tag === "TaskAppError" && error.reason).toBe("Timeout")
      expect(app.terminated).toEqual([{ id: "r1", reason: "timeout" }])

      const cancelled = yield* Effect.fork(solver.solve(taskFor(app.url, 60, 1)))
      yield* pollAt(app, 1_250, 2)
      expect(Exit.isInterrupted(yield* Fiber.interrupt(cancelled))).toBe(true)
      expect(app.terminated).toEqual([
        { id: "r1", reason: "timeout" },
        { id: "r2", reason: "cancelled" },
      ])
    }),
  )

  it.scopedLive(
    "after a restart, re-attaches to a rollout the app still holds and runs again one it no longer knows",
    () =>
      Effect.gen(function* () {
        const app = yield* withApp((id) => (id === "gone" ? { http: 404 } : { status: "completed", score: 1 }))
        const dir = mkdtempSync(join(tmpdir(), "proctor-async-"))
        const held = (seed: number, appRolloutId: string) =>
          JSON.stringify({ op: "hold", seed, attempt: 0, ...pendingAt(Date.now(), appRolloutId) })
        writeFileSync(join(dir, PENDING_ROLLOUTS_FILE), `${held(0, "kept")}\n${held(1, "gone")}\n`)
        const solver = yield* buildSolver(solverLayer(app.url, PendingRolloutsFileLayer(dir)))
        const results = yield* Effect.all([
          solver.solve(taskFor(app.url, 60, 0)),
          solver.solve(taskFor(app.url, 60, 1)),
        ])
        expect(results.map((r) => r.score)).toEqual([1, 1])
        // Seed 0 was polled where it stood; seed 1's id was unknown, so it was started again (as r1).
        expect(app.started).toEqual(["r1"])
        expect(app.polls).toEqual(["kept", "gone", "r1"])
        const lines = readFileSync(join(dir, PENDING_ROLLOUTS_FILE), "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l))
        expect(lines.slice(2).map((l) => [l.op, l.seed])).toEqual([
          ["release", 0],
          ["release", 1],
          ["hold", 1],
          ["release", 1],
        ])
      }),
  )
})
