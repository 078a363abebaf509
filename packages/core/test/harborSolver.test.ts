import { cpSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { resultsIn } from "@proctor/test-kit"
import { Effect, Layer } from "effect"
import { createBaselineModel, type RunningBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { type Agent, agentStream } from "../src/agent/Agent.js"
import { harborRun } from "../src/agent/HarborRun.js"
import { loadHarborTasks } from "../src/agent/HarborTask.js"
import { makeHarborTaskSolver } from "../src/agent/HarborTaskSolver.js"
import { commandRecord } from "../src/agent/internal/commandRecord.js"
import type { EvalRunConfig } from "../src/config/EvalRunConfig.js"
import { type EvalFlags, loadEvalConfig } from "../src/config/loadEvalConfig.js"
import { startEvalRun } from "../src/eval/EvalRun.js"
import type { EvalResult } from "../src/result/EvalResult.js"
import { LocalRuntime } from "../src/sandbox/LocalRuntime.js"
import { Solver } from "../src/solver/Solver.js"

const examples = fileURLToPath(new URL("../../../examples/", import.meta.url))
const TASKS = join(examples, "tasks")
const BROKEN = join(examples, "tasks-broken")

const configOf = (flags: EvalFlags) =>
  Effect.map(loadEvalConfig({ flags: { sandbox: "local", ...flags }, env: {} }), (loaded) => loaded.config)

/** A run of `config` on the local runtime; its results by task id. */
const run = (config: EvalRunConfig) =>
  Effect.gen(function* () {
    const harbor = yield* harborRun(config, LocalRuntime.make())
    const runDir = join(mkdtempSync(join(tmpdir(), "proctor-harbor-run-")), "run")
    yield* startEvalRun({ config, runDir, solver: harbor.solver, taskIdOf: harbor.taskIdOf })
    return new Map(resultsIn(runDir).map((result) => [String(result.task_id), result]))
  })

const outcome = (result: EvalResult | undefined) => ({
  score: result?.score,
  stop_reason: result?.stop_reason,
  error_kind: result?.error_kind ?? null,
})

let model: RunningBaselineModel
beforeAll(async () => {
  model = await createBaselineModel().listen({ port: 0 })
})
afterAll(() => model.close())

describe("Harbor tasks on the local runtime", () => {
  it.live("the oracle scores 1.0 on every example task", () =>
    Effect.gen(function* () {
      const results = yield* run(yield* configOf({ tasks: TASKS, agent: "oracle" }))
      expect([...results.keys()]).toEqual(
        expect.arrayContaining(["find-the-secret", "hello-file", "memory-hog", "reverse-words", "sum-numbers"]),
      )
      expect(results.size).toBe(5)
      for (const result of results.values()) {
        expect(outcome(result)).toEqual({ score: 1, stop_reason: "model_ended", error_kind: null })
      }
      expect(results.get("hello-file")?.seed).toBe(1)
    }),
  )

  for (const api of ["chat_completions", "responses", "messages"] as const) {
    it.live(`the builtin agent on the baseline model (${api}): solved, failed, out of turns, out of memory`, () =>
      Effect.gen(function* () {
        const base = yield* configOf({
          tasks: TASKS,
          agent: "builtin",
          model: "baseline",
          inference_url: model.url,
          max_turns: 4,
        })
        const results = yield* run({ ...base, policy_config: { ...base.policy_config, api } })
        expect(outcome(results.get("hello-file"))).toEqual({ score: 1, stop_reason: "model_ended", error_kind: null })
        expect(outcome(results.get("sum-numbers"))).toEqual({ score: 1, stop_reason: "model_ended", error_kind: null })
        expect(outcome(results.get("reverse-words"))).toEqual({
          score: 0,
          stop_reason: "model_ended",
          error_kind: null,
        })
        expect(outcome(results.get("find-the-secret"))).toEqual({
          score: 0,
          stop_reason: "max_turns",
          error_kind: null,
        })
        expect(outcome(results.get("memory-hog"))).toEqual({ score: 0, stop_reason: "model_ended", error_kind: null })
        // One command then `done`: two turns; the conversation is system, user, and a call and a result per turn.
        expect(results.get("hello-file")).toMatchObject({ turns: 2, messages: 6 })
        expect(results.get("find-the-secret")).toMatchObject({ turns: 4, messages: 10 })
      }),
    )
  }

  it.live("a verifier that leaves no reward is a verifier error, never a score", () =>
    Effect.gen(function* () {
      const results = yield* run({ ...(yield* configOf({ tasks: BROKEN, agent: "oracle" })), max_retries: 0 })
      const result = results.get("broken-verifier")
      expect(outcome(result)).toEqual({ score: null, stop_reason: undefined, error_kind: "verifier" })
      expect(result?.error).toMatch(/broken-verifier: tests\/test.sh \(exit 3\) left no reward/)
    }),
  )
})

/** An agent that looks for the tests and the solution while it runs, then does the task's work. */
const snoopingAgent: Agent = {
  name: "snoop",
  usesModel: false,
  run: (ctx) =>
    agentStream((emit) =>
      Effect.gen(function* () {
        const look = 'ls "$SANDBOX_ROOT/tests" || ls "$SANDBOX_ROOT/solution"'
        const seen = yield* ctx.sandbox.exec(look)
        yield* emit(commandRecord(look, seen))
        yield* ctx.sandbox.writeFile("greeting.txt", `${seen.exitCode === 0 ? "saw" : "Hello, proctor!"}\n`)
        return { stop_reason: "model_ended" as const, turns: 1, messages: 0 }
      }),
    ),
}

/** An agent that never finishes on its own. */
const sleepyAgent: Agent = {
  name: "sleepy",
  usesModel: false,
  run: (ctx) =>
    agentStream(() =>
      Effect.gen(function* () {
        ctx.progress.turns = 1
        yield* ctx.sandbox.exec("sleep 30")
        return { stop_reason: "model_ended" as const, turns: 1, messages: 0 }
      }),
    ),
}

const solveWith = (agent: Agent, config: EvalRunConfig) =>
  Effect.gen(function* () {
    const tasks = yield* loadHarborTasks(config.tasks ?? "")
    const runDir = join(mkdtempSync(join(tmpdir(), "proctor-harbor-run-")), "run")
    const solver = Layer.succeed(Solver, makeHarborTaskSolver({ tasks, agent, runtime: LocalRuntime.make() }))
    yield* startEvalRun({ config, runDir, solver, taskIdOf: (seed) => tasks[seed]?.id ?? seed })
    return resultsIn(runDir)
  })

describe("the agent's view of the sandbox", () => {
  it.live("the tests and the solution are not in the sandbox while the agent runs", () =>
    Effect.gen(function* () {
      const config = yield* configOf({ tasks: join(TASKS, "hello-file"), agent: "oracle" })
      const [result] = yield* solveWith(snoopingAgent, config)
      expect(outcome(result)).toEqual({ score: 1, stop_reason: "model_ended", error_kind: null })
    }),
  )

  it.live("the agent's time limit ends the rollout as a graded max_time result", () =>
    Effect.gen(function* () {
      const root = mkdtempSync(join(tmpdir(), "proctor-harbor-timeout-"))
      cpSync(join(TASKS, "hello-file"), join(root, "hello-file"), { recursive: true })
      // The task sets no agent timeout: the run's agent_timeout applies.
      writeFileSync(join(root, "hello-file", "task.toml"), "[verifier]\ntimeout_sec = 30\n")
      const config = yield* configOf({ tasks: root, agent: "oracle", agent_timeout: 0.5 })
      const started = Date.now()
      const [result] = yield* solveWith(sleepyAgent, config)
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(outcome(result)).toEqual({ score: 0, stop_reason: "max_time", error_kind: null })
      expect(result?.turns).toBe(1)
    }),
  )
})
