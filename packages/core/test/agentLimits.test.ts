import { describe, expect, it } from "@effect/vitest"
import { testFinal, testRunConfig } from "@proctor/test-kit"
import { Context, Effect, Fiber, Layer, Stream, TestClock } from "effect"
import type { EvalRunConfig } from "../src/config/EvalRunConfig.js"
import type { AgentTrajectoryEvent } from "../src/result/AgentTrajectoryEvent.js"
import type { EvalResult } from "../src/result/EvalResult.js"
import type { RolloutStep } from "../src/result/RolloutStep.js"
import { MAX_AGENT_EVENT_BYTES } from "../src/runner/internal/agentEventRecorder.js"
import { runRollouts } from "../src/runner/Runner.js"
import { SandboxError } from "../src/sandbox/Sandbox.js"
import { LIMIT_GRACE_MS } from "../src/solver/RolloutLimits.js"
import {
  type FinalResult,
  type RolloutTask,
  Solver,
  SolverError,
  type SolverService,
  type Step,
} from "../src/solver/Solver.js"
import { ResultStore, type ResultStoreService } from "../src/store/ResultStore.js"

const memoryStore = () => {
  const results: Array<EvalResult> = []
  const steps: Array<RolloutStep> = []
  const service: ResultStoreService = {
    location: null,
    completed: Effect.succeed([]),
    append: (result) => Effect.sync(() => void results.push(result)),
    appendModelCalls: () => Effect.void,
    appendSteps: (more) => Effect.sync(() => void steps.push(...more)),
    saveSummary: () => Effect.void,
  }
  return { results, steps, layer: Layer.succeed(ResultStore, service) }
}

const config = (overrides: Partial<EvalRunConfig> = {}) =>
  testRunConfig({ seeds: [0], timeout_s: 100_000, max_retries: 2, ...overrides })

const run = (solver: SolverService, runConfig: EvalRunConfig) => {
  const store = memoryStore()
  const program = runRollouts({ runId: "r", config: runConfig }).pipe(
    Effect.provide(Layer.merge(store.layer, Layer.succeed(Solver, solver))),
  )
  return { store, program }
}

const modelStep = (text: string): Step => ({ _tag: "Step", index: 0, record: { kind: "model", text } })

/** A solver that enforces its own timeout and follows the rollout's limits, as an agent does. */
const agentSolver = (name: string, solve: SolverService["solve"]): SolverService => ({
  name,
  enforcesTimeout: true,
  usesLimits: true,
  solve,
})

describe("agent limits, enforced by the runner (TestClock)", () => {
  it.effect(
    "a turn past max_turns reaches the limit; an agent that goes on is stopped after the grace, scored 0, not retried",
    () =>
      Effect.gen(function* () {
        let closed = false
        const solver = Solver.fromStream("looper", () =>
          Stream.repeatEffect(Effect.as(Effect.sleep("1 second"), modelStep("again"))).pipe(
            Stream.ensuring(Effect.sync(() => (closed = true))),
          ),
        )
        const { store, program } = run(solver, config({ max_turns: 3 }))
        const fiber = yield* Effect.fork(program)
        // Four model steps by t=4 s: the fourth is one past the limit.
        yield* TestClock.adjust("4 seconds")
        expect(store.results).toHaveLength(0)
        yield* TestClock.adjust(LIMIT_GRACE_MS - 1)
        expect(store.results).toHaveLength(0)
        yield* TestClock.adjust(1)
        const outcome = yield* Fiber.join(fiber)
        expect(closed).toBe(true)
        expect(store.results[0]).toMatchObject({
          status: "ok",
          score: 0,
          stop_reason: "max_turns",
          turns: 3,
          retries: 0,
        })
        // Every step it took was stored, in order, the one past the limit too.
        expect(store.steps.slice(0, 5).map((s) => s.index)).toEqual([0, 1, 2, 3, 4])
        expect(store.steps.every((s) => s.kind === "model" && s.retry === 0 && s.seed === 0)).toBe(true)
        expect(outcome.summary.length_stats).toMatchObject({ frac_max_turns: 1, stop_reasons: { max_turns: 1 } })
      }),
  )

  it.effect(
    "an agent that stops at the limit and grades itself keeps its own score, with the limit as stop reason",
    () =>
      Effect.gen(function* () {
        const solver = Solver.fromStream("polite", (task: RolloutTask) =>
          Stream.repeatEffect(Effect.as(Effect.sleep("1 second"), modelStep("t"))).pipe(
            Stream.takeWhile(() => task.limits!.reached() === null),
            Stream.concat(Stream.succeed<FinalResult>({ ...testFinal(0.5), messages: 9 })),
          ),
        )
        const { store, program } = run(solver, config({ max_turns: 2 }))
        const fiber = yield* Effect.fork(program)
        // The third model step (t=3 s) is refused; the agent sees it at its next look (t=4 s) and grades.
        yield* TestClock.adjust("4 seconds")
        yield* Fiber.join(fiber)
        expect(store.results[0]).toMatchObject({ score: 0.5, stop_reason: "max_turns", turns: 2, messages: 9 })
      }),
  )

  it.effect(
    "after countTurnsAsCalls a turn is a call the interceptor forwards: model steps count none, the call past max_turns is refused",
    () =>
      Effect.gen(function* () {
        const answers: Array<boolean> = []
        const solver = Solver.fromStream("command-line", (task: RolloutTask) =>
          Stream.fromEffect(
            Effect.sync(() => {
              task.limits!.countTurnsAsCalls()
              // A command-line agent's events: several model steps to one call.
              answers.push(task.limits!.recordCall(), task.limits!.recordCall(), task.limits!.recordCall())
            }),
          ).pipe(
            Stream.flatMap(() => Stream.make(modelStep("a"), modelStep("b"), modelStep("c"), modelStep("d"))),
            Stream.concat(Stream.succeed<FinalResult>(testFinal(1))),
          ),
        )
        const { store, program } = run(solver, config({ max_turns: 2 }))
        yield* program
        expect(answers).toEqual([true, true, false])
        expect(store.results[0]).toMatchObject({ score: 1, stop_reason: "max_turns", turns: 2 })
        expect(store.steps.filter((step) => step.kind === "model")).toHaveLength(4)
      }),
  )

  it.effect("a command-line agent's own events are stored numbered per try; one too large is cut", () =>
    Effect.gen(function* () {
      const events: Array<AgentTrajectoryEvent> = []
      const store = memoryStore()
      const layer = Layer.succeed(ResultStore, {
        ...Context.get(yield* Layer.build(store.layer), ResultStore),
        appendAgentEvents: (more) => Effect.sync(() => void events.push(...more)),
      })
      const solver = agentSolver("events", (task) =>
        Effect.gen(function* () {
          yield* task.recordAgentEvent!("codex", { type: "thread.started" })
          yield* task.recordAgentEvent!("codex", { type: "item.completed", output: "x".repeat(MAX_AGENT_EVENT_BYTES) })
          return testFinal(1)
        }),
      )
      yield* runRollouts({ runId: "r", config: config() }).pipe(
        Effect.provide(Layer.merge(layer, Layer.succeed(Solver, solver))),
      )
      expect(events.map((event) => [event.index, event.agent, event.retry, event.seed])).toEqual([
        [0, "codex", 0, 0],
        [1, "codex", 0, 0],
      ])
      expect(events[0]?.event).toEqual({ type: "thread.started" })
      expect(events[1]?.event).toMatchObject({ type: "item.completed", _truncated: { limit: MAX_AGENT_EVENT_BYTES } })
    }).pipe(Effect.scoped),
  )

  it.effect("agent time excludes paused time (sandbox start-up); out of time is max_time, graded, never retried", () =>
    Effect.gen(function* () {
      let tries = 0
      const solver = agentSolver("slow", (task) =>
        Effect.gen(function* () {
          tries++
          task.limits!.pause()
          yield* Effect.sleep("30 seconds") // the sandbox starting: not the agent's time
          task.limits!.resume()
          yield* Effect.never
          return testFinal(1)
        }),
      )
      const { store, program } = run(solver, config({ agent_timeout_s: 5 }))
      const fiber = yield* Effect.fork(program)
      yield* TestClock.adjust("34 seconds")
      yield* TestClock.adjust(LIMIT_GRACE_MS)
      expect(store.results).toHaveLength(0)
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      expect(tries).toBe(1)
      expect(store.results[0]).toMatchObject({ status: "ok", score: 0, stop_reason: "max_time", retries: 0 })
    }),
  )

  it.effect("an agent that starts grading when its time is up is not cut off; grading has its own timeout", () =>
    Effect.gen(function* () {
      const solver = agentSolver("grader", (task) =>
        Effect.gen(function* () {
          yield* Effect.sleep("5 seconds")
          expect(task.limits!.reached()).toBe("max_time")
          task.limits!.startGrading()
          yield* Effect.sleep("20 seconds") // grading, longer than the grace
          return testFinal(1)
        }),
      )
      const { store, program } = run(solver, config({ agent_timeout_s: 5, verifier_timeout_s: 60 }))
      const fiber = yield* Effect.fork(program)
      yield* TestClock.adjust("25 seconds")
      yield* Fiber.join(fiber)
      expect(store.results[0]).toMatchObject({ status: "ok", score: 1, stop_reason: "max_time" })
    }),
  )

  it.effect("grading past verifier_timeout is an error of kind verifier, not retried", () =>
    Effect.gen(function* () {
      let tries = 0
      const solver = agentSolver("stuck-grader", (task) =>
        Effect.gen(function* () {
          tries++
          task.limits!.startGrading()
          return yield* Effect.never
        }),
      )
      const { store, program } = run(solver, config({ verifier_timeout_s: 7 }))
      const fiber = yield* Effect.fork(program)
      yield* TestClock.adjust("7 seconds")
      yield* Fiber.join(fiber)
      expect(tries).toBe(1)
      expect(store.results[0]).toMatchObject({ status: "error", error_kind: "verifier", score: null, retries: 0 })
    }),
  )

  it.effect("a rollout that ends on its own is model_ended", () =>
    Effect.gen(function* () {
      const solver = Solver.fromStream("done", () => Stream.make(modelStep("hi"), testFinal(1)))
      const { store, program } = run(solver, config())
      yield* program
      expect(store.results[0]).toMatchObject({ score: 1, stop_reason: "model_ended", turns: 1 })
    }),
  )

  it.effect(
    "an agent that fails after reaching a limit (its client threw on the refused call) is graded, not an error",
    () =>
      Effect.gen(function* () {
        const solver = agentSolver("thrower", (task) =>
          Effect.suspend(() => {
            task.limits!.reach("max_tokens")
            return Effect.fail(new SolverError({ reason: "Failed", retryable: false, message: "400 proctor_limit" }))
          }),
        )
        const { store, program } = run(solver, config())
        yield* program
        expect(store.results[0]).toMatchObject({ status: "ok", score: 0, stop_reason: "max_tokens", retries: 0 })
      }),
  )

  it.effect("a SandboxError is a retried system error of kind sandbox, never scored; Unavailable is not retried", () =>
    Effect.gen(function* () {
      let tries = 0
      const dies = agentSolver("dies", () =>
        Effect.suspend(() => {
          tries++
          return Effect.fail(new SandboxError({ reason: "Died", message: "container killed" }))
        }),
      )
      const died = run(dies, config({ max_retries: 2 }))
      const fiber = yield* Effect.fork(died.program)
      yield* TestClock.adjust("10 minutes")
      const outcome = yield* Fiber.join(fiber)
      expect(tries).toBe(3)
      expect(died.store.results[0]).toMatchObject({ status: "error", error_kind: "sandbox", score: null, retries: 2 })
      expect(died.store.results[0]?.stop_reason).toBeUndefined()
      expect(outcome.summary.metrics.count).toBe(0)

      let unavailable = 0
      const noDocker: SolverService = {
        name: "no-docker",
        enforcesTimeout: true,
        solve: () =>
          Effect.suspend(() => {
            unavailable++
            return Effect.fail(new SandboxError({ reason: "Unavailable", message: "no Docker daemon" }))
          }),
      }
      const none = run(noDocker, config({ max_retries: 2 }))
      yield* none.program
      expect(unavailable).toBe(1)
      expect(none.store.results[0]).toMatchObject({ status: "error", error_kind: "sandbox", retries: 0 })
    }),
  )

  it.effect("a sandbox that dies, then works on retry: the rollout is scored once, from the try that worked", () =>
    Effect.gen(function* () {
      let tries = 0
      const solver = agentSolver("flaky", () =>
        Effect.suspend(() =>
          ++tries === 1
            ? Effect.fail(new SandboxError({ reason: "StartFailed", message: "would not start" }))
            : Effect.succeed(testFinal(1)),
        ),
      )
      const { store, program } = run(solver, config())
      const fiber = yield* Effect.fork(program)
      yield* TestClock.adjust("10 minutes")
      yield* Fiber.join(fiber)
      expect(store.results).toHaveLength(1)
      expect(store.results[0]).toMatchObject({ status: "ok", score: 1, retries: 1, stop_reason: "model_ended" })
      expect(store.results[0]?.retry_log?.[0]).toMatchObject({ kind: "sandbox" })
    }),
  )
})
