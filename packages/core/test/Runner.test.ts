import { describe, expect, it } from "@effect/vitest"
import { testFinal as final, testResult, testRunConfig } from "@proctor/test-kit"
import { Effect, Fiber, Layer, PubSub, Queue, TestClock } from "effect"
import type { EvalRunConfig } from "../src/config/EvalRunConfig.js"
import type { RunEvent } from "../src/events/RunEvents.js"
import { type EvalResult, MAX_RETRY_ERROR_CHARS, MAX_RETRY_LOG_ENTRIES } from "../src/result/EvalResult.js"
import { MAX_REPORTED_JSON_BYTES } from "../src/runner/internal/boundJson.js"
import { makeRunControl } from "../src/runner/RunControl.js"
import { runRollouts } from "../src/runner/Runner.js"
import { Solver, type SolverService } from "../src/solver/Solver.js"
import { ResultStore, type ResultStoreService } from "../src/store/ResultStore.js"
import { TaskAppError } from "../src/taskApp/TaskAppError.js"

const config = (overrides: Partial<EvalRunConfig> = {}): EvalRunConfig =>
  testRunConfig({ seeds: [0, 1, 2], ...overrides })

const memoryStore = (previous: ReadonlyArray<EvalResult> = []) => {
  const appended: Array<EvalResult> = []
  const service: ResultStoreService = {
    location: null,
    completed: Effect.succeed(previous),
    append: (result) => Effect.sync(() => void appended.push(result)),
    appendModelCalls: () => Effect.void,
    appendSteps: () => Effect.void,
    saveSummary: () => Effect.void,
  }
  return { appended, layer: Layer.succeed(ResultStore, service) }
}

const solverLayer = (solve: SolverService["solve"], enforcesTimeout = true) =>
  Layer.succeed(Solver, { name: "test", enforcesTimeout, solve })

const rateLimited = (retryAfterMs: number) =>
  new TaskAppError({ reason: "RateLimited", endpoint: "POST /rollout", status: 429, message: "429", retryAfterMs })

describe("runner", () => {
  it.effect("retries a 429 no sooner than its Retry-After, then records one result", () =>
    Effect.gen(function* () {
      const calls: Array<number> = []
      const store = memoryStore()
      const solve: SolverService["solve"] = () =>
        Effect.flatMap(TestClock.currentTimeMillis, (now) => {
          calls.push(now)
          return calls.length < 3 ? Effect.fail(rateLimited(3_000)) : Effect.succeed(final(1))
        })
      const fiber = yield* Effect.fork(
        runRollouts({ runId: "r", config: config({ seeds: [7] }) }).pipe(
          Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
        ),
      )
      yield* TestClock.adjust("2999 millis")
      expect(calls).toEqual([0])
      yield* TestClock.adjust("1 millis")
      expect(calls).toEqual([0, 3000])
      yield* TestClock.adjust("3 seconds")
      const outcome = yield* Fiber.join(fiber)
      expect(calls).toEqual([0, 3000, 6000])
      expect(store.appended).toHaveLength(1)
      expect(store.appended[0]).toMatchObject({ seed: 7, status: "ok", retries: 2, score: 1 })
      expect(outcome.summary.retries).toBe(2)
    }),
  )

  it.scoped("keeps each failed try in retry_log and tells watchers when each try starts", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      const events = yield* PubSub.unbounded<RunEvent>()
      const subscription = yield* PubSub.subscribe(events)
      let tries = 0
      const solve: SolverService["solve"] = () =>
        Effect.suspend(() => (++tries < 3 ? Effect.fail(rateLimited(2_000)) : Effect.succeed(final(1))))
      const fiber = yield* Effect.fork(
        runRollouts({ runId: "r", config: config({ seeds: [4] }), events }).pipe(
          Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
        ),
      )
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(store.appended[0]?.retry_log).toEqual([
        { kind: "rate_limited", error: "429", delay_ms: expect.any(Number), at: expect.any(String) },
        { kind: "rate_limited", error: "429", delay_ms: expect.any(Number), at: expect.any(String) },
      ])
      for (const entry of store.appended[0]!.retry_log!) expect(entry.delay_ms).toBeGreaterThanOrEqual(2_000)
      const published = Array.from(yield* Queue.takeAll(subscription))
      const tryEvents = published.flatMap((e) =>
        e._tag === "RolloutStarted" || e._tag === "RolloutRetried" ? [e] : [],
      )
      expect(tryEvents.map((e) => `${e._tag} ${e.key.seed}:${e.key.attempt} ${e.retry}`)).toEqual([
        "RolloutStarted 4:0 0",
        "RolloutRetried 4:0 1",
        "RolloutStarted 4:0 1",
        "RolloutRetried 4:0 2",
        "RolloutStarted 4:0 2",
      ])
      // Each try says how long it is given (the run's timeout): a live view counts down to it.
      for (const started of tryEvents.filter((e) => e._tag === "RolloutStarted")) {
        expect(started).toMatchObject({ timeoutMs: config({}).timeout_s * 1000 })
      }
    }),
  )

  it.effect("keeps retry_log bounded: the latest tries, each message cut short; none without retries", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      let tries = 0
      const solve: SolverService["solve"] = (task) =>
        task.key.seed === 1
          ? Effect.succeed(final(1))
          : Effect.suspend(() =>
              Effect.fail(
                new TaskAppError({
                  reason: "HttpStatus",
                  status: 503,
                  endpoint: "POST /rollout",
                  message: `try ${++tries} ${"x".repeat(2_000)}`,
                }),
              ),
            )
      const fiber = yield* Effect.fork(
        runRollouts({ runId: "r", config: config({ seeds: [0, 1], max_retries: 30 }) }).pipe(
          Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
        ),
      )
      yield* TestClock.adjust("1 day")
      yield* Fiber.join(fiber)
      const failed = store.appended.find((r) => r.seed === 0)!
      expect(failed).toMatchObject({ status: "error", retries: 30 })
      const log = failed.retry_log!
      expect(log).toHaveLength(MAX_RETRY_LOG_ENTRIES)
      // Tries 11 … 30 were retried; try 31 is the final error, not a retry.
      expect(log.map((entry) => Number(entry.error.split(" ")[1]))).toEqual(
        Array.from({ length: MAX_RETRY_LOG_ENTRIES }, (_, i) => 11 + i),
      )
      for (const entry of log) expect(entry.error.length).toBe(MAX_RETRY_ERROR_CHARS)
      expect(store.appended.find((r) => r.seed === 1)).not.toHaveProperty("retry_log")
    }),
  )

  it.effect("records the task's cluster value and clusters the error bar by it (cluster_by)", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      const solve: SolverService["solve"] = (task) =>
        Effect.succeed(task.key.seed === 2 ? final(0) : { ...final(task.key.seed === 0 ? 1 : 0), cluster: "passage-a" })
      const outcome = yield* runRollouts({ runId: "r", config: config({ cluster_by: "passage" }) }).pipe(
        Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
      )
      const bySeed = [...store.appended].sort((a, b) => a.seed - b.seed)
      expect(bySeed.map((r) => r.cluster)).toEqual(["passage-a", "passage-a", undefined])
      expect(outcome.summary.metrics).toMatchObject({
        estimator: "clustered_by:passage",
        n_clusters: 2,
        seed_fallbacks: 1,
      })
    }),
  )

  it.effect("keeps what the solver said (details, final, info) on the result, bounded", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      const transcript = "x".repeat(MAX_REPORTED_JSON_BYTES)
      const solve: SolverService["solve"] = () =>
        Effect.succeed({
          ...final(0),
          details: { expected: 4, got: 5, transcript },
          final: { answer: 5 },
          info: { finish_reason: "stop" },
        })
      yield* runRollouts({ runId: "r", config: config({ seeds: [0] }) }).pipe(
        Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
      )
      const row = JSON.parse(JSON.stringify(store.appended[0])) as EvalResult
      expect(row).toMatchObject({
        details: { expected: 4, got: 5, _truncated: { omitted_keys: ["transcript"] } },
        final: { answer: 5 },
        info: { finish_reason: "stop" },
      })
      expect(JSON.stringify(row.details).length).toBeLessThanOrEqual(MAX_REPORTED_JSON_BYTES)
    }),
  )

  it.effect("never retries an auth error or a decode error", () =>
    Effect.gen(function* () {
      let calls = 0
      const store = memoryStore()
      const solve: SolverService["solve"] = (task) => {
        calls++
        return Effect.fail(
          new TaskAppError({
            reason: task.key.seed === 0 ? "Unauthorized" : "Decode",
            endpoint: "POST /rollout",
            message: "no",
          }),
        )
      }
      yield* runRollouts({ runId: "r", config: config({ seeds: [0, 1] }) }).pipe(
        Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
      )
      expect(calls).toBe(2)
      expect(store.appended.map((r) => r.error_kind).sort()).toEqual(["auth", "decode"])
    }),
  )

  it.effect("gives up after max_retries and records the classified error", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      const solve: SolverService["solve"] = () =>
        Effect.fail(new TaskAppError({ reason: "HttpStatus", status: 502, endpoint: "POST /rollout", message: "502" }))
      const fiber = yield* Effect.fork(
        runRollouts({ runId: "r", config: config({ seeds: [0], max_retries: 2 }) }).pipe(
          Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
        ),
      )
      yield* TestClock.adjust("1 minute")
      const outcome = yield* Fiber.join(fiber)
      expect(store.appended[0]).toMatchObject({ status: "error", error_kind: "http_5xx", retries: 2 })
      expect(outcome.summary.errors_by_kind).toEqual({ http_5xx: 1 })
    }),
  )

  it.effect("times out in-process solvers that do not enforce the deadline themselves", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      const fiber = yield* Effect.fork(
        runRollouts({ runId: "r", config: config({ seeds: [0], timeout_s: 5, max_retries: 0 }) }).pipe(
          Effect.provide(
            Layer.merge(
              store.layer,
              solverLayer(() => Effect.never, false),
            ),
          ),
        ),
      )
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.join(fiber)
      expect(store.appended[0]).toMatchObject({ status: "error", error_kind: "timeout" })
    }),
  )

  it.effect("runs only the keys the store does not hold, attempts included", () =>
    Effect.gen(function* () {
      const done = { seed: 1, attempt: 1, status: "ok", score: 1 } as EvalResult
      const store = memoryStore([done])
      const seen: Array<string> = []
      const solve: SolverService["solve"] = (task) =>
        Effect.sync(() => {
          seen.push(`${task.key.seed}:${task.key.attempt}`)
          return final(0)
        })
      const outcome = yield* runRollouts({ runId: "r", config: config({ seeds: [0, 1], attempts: 2 }) }).pipe(
        Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
      )
      expect(seen.sort()).toEqual(["0:0", "0:1", "1:0"])
      expect(outcome.summary.completed).toBe(4)
      expect(outcome.summary.missing).toBe(0)
    }),
  )

  it.scoped("a stop request ends the taking of new work and abandons waits; missing keys stay resumable", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      const control = makeRunControl()
      const events = yield* PubSub.unbounded<RunEvent>()
      const subscription = yield* PubSub.subscribe(events)
      const solve: SolverService["solve"] = (task) =>
        task.key.seed === 0 ? Effect.succeed(final(1)) : Effect.fail(rateLimited(60_000))
      const fiber = yield* Effect.fork(
        runRollouts({ runId: "r", config: config({ seeds: [0, 1, 2, 3], concurrency: 2 }), control, events }).pipe(
          Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
        ),
      )
      yield* TestClock.adjust("1 second")
      control.requestStop()
      const outcome = yield* Fiber.join(fiber)
      expect(outcome.interrupted).toBe(true)
      expect(store.appended.map((r) => r.seed)).toEqual([0])
      expect(outcome.summary.missing).toBe(3)
      const tags = Array.from(yield* Queue.takeAll(subscription), (e) => e._tag)
      expect(tags).toContain("StopRequested")
      expect(tags.at(-1)).toBe("RunFinished")
    }),
  )

  it.scoped("after a resume, progress counts the whole run (done and ok add up) and says what was already done", () =>
    Effect.gen(function* () {
      const earlier = [
        testResult({ seed: 0, score: 1 }),
        testResult({ seed: 1, status: "error", error: "boom", error_kind: "http_5xx" }),
      ]
      const store = memoryStore(earlier)
      const events = yield* PubSub.unbounded<RunEvent>()
      const subscription = yield* PubSub.subscribe(events)
      const outcome = yield* runRollouts({ runId: "r", config: config({ seeds: [0, 1, 2, 3] }), events }).pipe(
        Effect.provide(
          Layer.merge(
            store.layer,
            solverLayer(() => Effect.succeed(final(0.5))),
          ),
        ),
      )
      const progress = Array.from(yield* Queue.takeAll(subscription)).flatMap((e) =>
        e._tag === "RolloutFinished" ? [e.progress] : [],
      )
      expect(progress.at(-1)).toMatchObject({ planned: 4, done: 4, ok: 3, errored: 1, scored: 3, alreadyDone: 2 })
      expect(progress.at(-1)!.scoreSum).toBe(2)
      expect(outcome.summary).toMatchObject({ completed: 4, session_completed: 2 })
    }),
  )

  it.effect("an in-process solver's result without a finite score is a no_score error, not an ok row", () =>
    Effect.gen(function* () {
      const store = memoryStore()
      const scores = [null, Number.NaN, 0.25]
      const solve: SolverService["solve"] = (task) => Effect.succeed({ ...final(0), score: scores[task.key.seed]! })
      const outcome = yield* runRollouts({ runId: "r", config: config({ max_retries: 2 }) }).pipe(
        Effect.provide(Layer.merge(store.layer, solverLayer(solve))),
      )
      const bySeed = (seed: number) => store.appended.find((r) => r.seed === seed)
      for (const seed of [0, 1]) {
        expect(bySeed(seed)).toMatchObject({ status: "error", error_kind: "no_score", score: null, retries: 0 })
        expect(bySeed(seed)!.error).toBe("test finished without a finite score")
      }
      expect(bySeed(2)).toMatchObject({ status: "ok", score: 0.25 })
      expect(outcome.summary.errors_by_kind).toEqual({ no_score: 2 })
    }),
  )
})
