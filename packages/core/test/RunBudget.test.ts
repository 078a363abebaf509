import { describe, expect, it } from "@effect/vitest"
import { testFinal as final, testCall, testRunConfig } from "@proctor/test-kit"
import { Effect, Fiber, Layer, TestClock } from "effect"
import type { EvalRunConfig } from "../src/config/EvalRunConfig.js"
import type { EvalResult } from "../src/result/EvalResult.js"
import { RunBudget } from "../src/runner/RunBudget.js"
import { runRollouts } from "../src/runner/Runner.js"
import { Solver, type SolverService } from "../src/solver/Solver.js"
import { ResultStore, type ResultStoreService } from "../src/store/ResultStore.js"

const memoryStore = () => {
  const appended: Array<EvalResult> = []
  const service: ResultStoreService = {
    location: null,
    completed: Effect.succeed([]),
    append: (result) => Effect.sync(() => void appended.push(result)),
    appendModelCalls: () => Effect.void,
    appendSteps: () => Effect.void,
    saveSummary: () => Effect.void,
  }
  return { appended, layer: Layer.succeed(ResultStore, service) }
}

const COST = 0.25
const TOKENS = 1000

/** Every rollout costs COST and TOKENS and takes (seed % 3 + 1) seconds on the test clock. */
const solve: SolverService["solve"] = (task) =>
  Effect.as(Effect.sleep(`${(task.key.seed % 3) + 1} seconds`), { ...final(1), cost_usd: COST, tokens: TOKENS })

const run = (overrides: Partial<EvalRunConfig>) =>
  Effect.gen(function* () {
    const store = memoryStore()
    const config = testRunConfig({ seeds: Array.from({ length: 40 }, (_, seed) => seed), ...overrides })
    const fiber = yield* Effect.fork(
      runRollouts({ runId: "r", config }).pipe(
        Effect.provide(Layer.merge(store.layer, Layer.succeed(Solver, { name: "test", enforcesTimeout: true, solve }))),
      ),
    )
    yield* TestClock.adjust("10 minutes")
    const outcome = yield* Fiber.join(fiber)
    const spent = store.appended.reduce((sum, result) => sum + (result.cost_usd ?? 0), 0)
    return { outcome, spent, ran: store.appended.length }
  })

describe("run budget", () => {
  it.effect("max_run_cost stops taking rollouts within one rollout's cost of the limit, one at a time", () =>
    Effect.gen(function* () {
      const { outcome, spent, ran } = yield* run({ concurrency: 1, max_run_cost: 1.1 })
      expect(ran).toBe(4)
      expect(spent).toBeLessThanOrEqual(1.1)
      expect(spent).toBeGreaterThan(1.1 - COST)
      expect(outcome.interrupted).toBe(true)
      expect(outcome.summary.missing).toBe(36)
      expect(outcome.summary.stopped).toMatchObject({ reason: "budget", limit: "max_run_cost", spent_usd: 1 })
      expect(outcome.summary.stopped?.message).toBe(
        "budget max_run_cost reached: $1 spent, the next rollout (≈ $0.25) would pass the limit $1.1",
      )
    }),
  )

  for (const concurrency of [4, 8]) {
    it.effect(
      `with ${concurrency} in flight, the rollouts in flight finish and the total stays within one rollout`,
      () =>
        Effect.gen(function* () {
          const limit = 4.6
          const { outcome, spent } = yield* run({ concurrency, max_run_cost: limit })
          expect(spent).toBeLessThanOrEqual(limit)
          expect(spent).toBeGreaterThan(limit - COST)
          expect(outcome.summary.completed + outcome.summary.missing).toBe(40)
          expect(outcome.summary.missing_keys.length).toBe(outcome.summary.missing)
        }),
    )
  }

  it.effect("max_run_tokens stops the same way", () =>
    Effect.gen(function* () {
      const { outcome, ran } = yield* run({ concurrency: 2, max_run_tokens: 5500 })
      expect(ran).toBe(5)
      expect(outcome.summary.stopped?.limit).toBe("max_run_tokens")
    }),
  )

  it.effect("a budget reached with nothing left to run stops nothing", () =>
    Effect.gen(function* () {
      const { outcome, ran } = yield* run({ seeds: [0, 1, 2, 3], concurrency: 1, max_run_cost: 1 })
      expect(ran).toBe(4)
      expect(outcome.interrupted).toBe(false)
      expect(outcome.summary.stopped).toBeUndefined()
    }),
  )

  it("metered by model calls, cached answers cost nothing", () => {
    const budget = RunBudget.of({ max_run_cost: 1 }, "calls")!
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 10,
      total_tokens: 20,
      cached_tokens: null,
      reasoning_tokens: null,
    }
    budget.spendCalls([
      testCall({ cost_usd: 0.6, usage }),
      testCall({ cost_usd: 0, usage, cached: true, avoided_cost_usd: 0.6 }),
    ])
    budget.rolloutFinished(null)
    expect(budget.admits(0)).toBe(false)
    expect(budget.stopped()).toMatchObject({ spent_usd: 0.6, spent_tokens: 20 })
  })
})
