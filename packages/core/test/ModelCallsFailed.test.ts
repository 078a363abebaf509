import { describe, expect, it } from "@effect/vitest"
import { testCall, testFinal, testRunConfig } from "@proctor/test-kit"
import { Effect, Fiber, Layer, TestClock } from "effect"
import type { RolloutInterception } from "../src/interceptor/Interceptor.js"
import type { EvalResult } from "../src/result/EvalResult.js"
import type { ModelCall } from "../src/result/ModelCall.js"
import { runRollouts } from "../src/runner/Runner.js"
import { interceptedSolver } from "../src/solver/InterceptedSolver.js"
import { modelCallsFailure } from "../src/solver/ModelCallsFailed.js"
import { Solver } from "../src/solver/Solver.js"
import { ResultStore } from "../src/store/ResultStore.js"

const call = (outcome: ModelCall["outcome"], status: number | null, error: string | null = null): ModelCall =>
  testCall({ outcome, status, error, response_message: null })

describe("modelCallsFailure", () => {
  it("is null when a call succeeded or none was made", () => {
    expect(modelCallsFailure([])).toBeNull()
    expect(modelCallsFailure([call("error", 429), call("ok", 200)])).toBeNull()
    expect(modelCallsFailure([call("cancelled", null)])).toBeNull()
  })

  it("names the upstream's last answer, and retries only what a retry could fix", () => {
    const cases: ReadonlyArray<[ReadonlyArray<ModelCall>, string, string, boolean]> = [
      [
        [call("error", 401, "upstream answered 401: Incorrect API key provided: [redacted]")],
        "Unauthorized",
        "auth",
        false,
      ],
      [[call("error", 403)], "Unauthorized", "auth", false],
      [[call("error", 500), call("error", 429)], "RateLimited", "rate_limited", true],
      [[call("error", 503)], "Unavailable", "http_5xx", true],
      [[call("error", null, "upstream unreachable")], "Unavailable", "http_5xx", true],
      [[call("error", 400, "context too long"), call("cancelled", null)], "Rejected", "http_4xx", false],
    ]
    for (const [calls, reason, kind, retryable] of cases) {
      const failure = modelCallsFailure(calls)
      expect([failure?.reason, failure?.kind, failure?.retryable]).toEqual([reason, kind, retryable])
    }
    expect(modelCallsFailure([call("error", 429), call("error", 401, "bad key")])?.message).toBe(
      "no model call succeeded (2 failed); the upstream's last answer was 401: bad key",
    )
  })
})

/** A run whose task app always scores 0, and whose every try made the model calls `callsOfTry` says. */
const runWith = (callsOfTry: (tryIndex: number) => ReadonlyArray<ModelCall>, maxRetries: number) =>
  Effect.gen(function* () {
    const results: Array<EvalResult> = []
    const recorded: Array<ModelCall> = []
    let tries = 0
    const interception: RolloutInterception = {
      open: () => Effect.succeed({ cid: `cid_${tries}`, inferenceUrl: "http://127.0.0.1:1/v1" }),
      close: () => Effect.sync(() => callsOfTry(tries++)),
    }
    const solver = interceptedSolver(
      { name: "app", enforcesTimeout: true, solve: () => Effect.succeed(testFinal(0)) },
      {
        interceptor: interception,
        upstream: { baseUrl: "http://127.0.0.1:2/v1" },
        recordCalls: (calls) => Effect.sync(() => void recorded.push(...calls)),
      },
    )
    const store = Layer.succeed(ResultStore, {
      location: null,
      completed: Effect.succeed([]),
      append: (result) => Effect.sync(() => void results.push(result)),
      appendModelCalls: () => Effect.void,
      appendSteps: () => Effect.void,
      saveSummary: () => Effect.void,
    })
    const fiber = yield* Effect.fork(
      runRollouts({ runId: "r", config: testRunConfig({ max_retries: maxRetries }) }).pipe(
        Effect.provide(Layer.merge(store, Layer.succeed(Solver, solver))),
      ),
    )
    yield* TestClock.adjust("10 minutes")
    const outcome = yield* Fiber.join(fiber)
    return { results, recorded, tries, outcome }
  })

describe("a rollout none of whose model calls succeeded", () => {
  it.effect("is an auth error, not a score of 0, when the upstream refused the key; it is not retried", () =>
    Effect.gen(function* () {
      const { results, recorded, tries, outcome } = yield* runWith(() => [call("error", 401, "bad key")], 3)
      expect(tries).toBe(1)
      expect(recorded).toHaveLength(1)
      expect(results).toMatchObject([{ status: "error", error_kind: "auth", score: null, retries: 0 }])
      expect(outcome.summary.errors_by_kind).toEqual({ auth: 1 })
    }),
  )

  it.effect("is retried when the upstream was rate limited, and scored once a try's call succeeds", () =>
    Effect.gen(function* () {
      const { results, recorded, tries } = yield* runWith(
        (i) => (i < 2 ? [call("error", 429)] : [call("error", 429), call("ok", 200)]),
        3,
      )
      expect(tries).toBe(3)
      // Every try's calls are kept: they were made, and may have been paid for.
      expect(recorded).toHaveLength(4)
      expect(results).toMatchObject([{ status: "ok", score: 0, retries: 2 }])
    }),
  )

  it.effect("a rollout that made no model call keeps the task app's score", () =>
    Effect.gen(function* () {
      const { results } = yield* runWith(() => [], 0)
      expect(results).toMatchObject([{ status: "ok", score: 0 }])
    }),
  )
})
