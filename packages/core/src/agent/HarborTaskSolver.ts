import { join } from "node:path"
import { Duration, Effect, Stream } from "effect"
import { isRecord } from "../internal/isRecord.js"
import type { StopReason } from "../result/RolloutStep.js"
import { SandboxError, type SandboxImage, type SandboxRuntimeService } from "../sandbox/Sandbox.js"
import {
  type FinalResult,
  finalOfScore,
  type RolloutTask,
  Solver,
  SolverError,
  type SolverService,
  type Step,
  type StepRecord,
} from "../solver/Solver.js"
import type { Agent, AgentOutcome, AgentProgress } from "./Agent.js"
import { agentLimitsOf } from "./AgentLimits.js"
import type { HarborTask } from "./HarborTask.js"
import { commandRecord } from "./internal/commandRecord.js"
import { emitting } from "./internal/emitting.js"
import { interceptorSocket } from "./internal/interceptorSocket.js"
import { runScriptLine } from "./internal/scriptLine.js"

/** Harbor's paths inside a sandbox. */
export const HARBOR_PATHS = {
  workdir: "/app",
  tests: "/tests",
  solution: "/solution",
  agentLogs: "/logs/agent",
  verifierLogs: "/logs/verifier",
} as const

const verifierFailure = (message: string) => new SolverError({ reason: "Verifier", retryable: false, message })

const finiteNumber = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null

/**
 * The reward the task's tests left: `reward.txt` (one number) first, then `reward.json` — its `reward` when it has
 * one (Harbor's own metric reads that key), else the mean of its numeric values. Null when neither holds one.
 */
export const readReward = (text: string | null, json: string | null): { reward: number; rewards: unknown } | null => {
  if (text !== null && text.trim() !== "") {
    const reward = Number(text.trim())
    return Number.isFinite(reward) ? { reward, rewards: { reward } } : null
  }
  if (json === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return null
  }
  const single = finiteNumber(parsed)
  if (single !== null) return { reward: single, rewards: { reward: single } }
  if (!isRecord(parsed)) return null
  const named = finiteNumber(parsed.reward)
  if (named !== null) return { reward: named, rewards: parsed }
  const values = Object.values(parsed).flatMap((value) => {
    const n = finiteNumber(value)
    return n === null ? [] : [n]
  })
  return values.length === 0 ? null : { reward: values.reduce((a, b) => a + b, 0) / values.length, rewards: parsed }
}

const imageOf = (task: HarborTask): SandboxImage =>
  task.config.environment.docker_image === undefined
    ? { _tag: "Dockerfile", context: join(task.dir, "environment") }
    : { _tag: "Named", name: task.config.environment.docker_image }

const textOf = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString("utf8"))

export interface HarborTaskSolverOptions {
  /** The run's tasks; a rollout's seed is its task's index. */
  readonly tasks: ReadonlyArray<HarborTask>
  readonly agent: Agent
  readonly runtime: SandboxRuntimeService
}

/**
 * Runs Harbor-format tasks as they run in Harbor: build the environment (once per task per run), open a sandbox
 * with the task's limits, run the agent under its timeout, copy the tests in only after the agent is done, run
 * `tests/test.sh` under the verifier's timeout with its env, and score the reward it wrote. Reaching a limit is a
 * graded result with its stop reason; a sandbox that fails is a retried `sandbox` error; tests that leave no
 * reward are a `verifier` error.
 */
export const makeHarborTaskSolver = (options: HarborTaskSolverOptions): SolverService => {
  const { tasks, agent, runtime } = options
  const prepared = new Map<string, Effect.Effect<void, SandboxError>>()
  /** One build per task per run, shared by its rollouts; a failed build is tried again by the next rollout. */
  const prepare = (task: HarborTask) =>
    Effect.suspend(() => {
      const known = prepared.get(task.id)
      if (known !== undefined) return known
      return Effect.flatMap(Effect.cached(runtime.prepare(imageOf(task))), (once) => {
        prepared.set(task.id, once)
        return Effect.tapError(once, () => Effect.sync(() => prepared.delete(task.id)))
      })
    })

  const rollout = (rolloutTask: RolloutTask, emit: (record: StepRecord) => Effect.Effect<void>) =>
    Effect.scoped(
      Effect.gen(function* () {
        const task = tasks[rolloutTask.key.seed]
        if (task === undefined) {
          return yield* new SolverError({
            reason: "Failed",
            retryable: false,
            message: `seed ${rolloutTask.key.seed} names no task: the run has ${tasks.length}`,
          })
        }
        const limits = agentLimitsOf(task, rolloutTask.config)
        const { environment } = task.config
        yield* emit({
          kind: "note",
          text: `setup: ${task.id} on ${runtime.name}${runtime.isolated ? "" : " (no isolation)"}`,
        })
        // Building and starting the sandbox is not the agent's time.
        rolloutTask.limits?.override({
          maxTurns: limits.maxTurns,
          agentTimeoutS: limits.agentTimeoutMs / 1000,
          verifierTimeoutS: limits.verifierTimeoutMs / 1000,
        })
        // A command-line agent's output is no count of its model calls: the interceptor counts them as its turns.
        if (agent.inSandbox !== undefined) rolloutTask.limits?.countTurnsAsCalls()
        rolloutTask.limits?.pause()
        yield* prepare(task).pipe(
          Effect.timeoutFail({
            duration: Duration.seconds(environment.build_timeout_sec),
            onTimeout: () => buildTimeout(task, environment.build_timeout_sec),
          }),
        )
        const reach = yield* sandboxReach(agent, rolloutTask, runtime)
        const sandbox = yield* runtime.open({
          image: imageOf(task),
          workdir: HARBOR_PATHS.workdir,
          // Made by the runtime as it opens (Docker: one archive upload), not by a command and a write: an exec
          // costs the daemon a process start, an upload an unpacking.
          mounts: [HARBOR_PATHS.agentLogs, HARBOR_PATHS.verifierLogs],
          files: { [`${HARBOR_PATHS.agentLogs}/instruction.md`]: task.instruction },
          limits: { cpus: environment.cpus, memoryMb: environment.memory_mb, storageMb: environment.storage_mb },
          labels: { runId: rolloutTask.runId, rolloutId: rolloutTask.rolloutId },
          readOnlyPaths: reach.readOnlyPaths,
          ...(reach.interceptor === null ? {} : { network: { interceptor: reach.interceptor } }),
        })
        rolloutTask.limits?.resume()

        // The agent's working time: its own timer, started after setup and stopped before grading.
        const progress: AgentProgress = { turns: 0, messages: 0 }
        yield* emit({
          kind: "note",
          text: `agent ${agent.name} starts (${Math.round(limits.agentTimeoutMs / 1000)} s)`,
        })
        const outcome: AgentOutcome = yield* agent
          .run({
            task,
            sandbox,
            rollout: rolloutTask,
            limits,
            progress,
            sandboxModelUrl: reach.modelUrl,
          })
          .pipe(
            Stream.mapEffect((event) =>
              event._tag === "AgentStep" ? Effect.as(emit(event.record), null) : Effect.succeed(event),
            ),
            Stream.filter((event): event is Extract<typeof event, { _tag: "AgentDone" }> => event !== null),
            Stream.runLast,
            Effect.flatMap((last) =>
              last._tag === "Some"
                ? Effect.succeed<AgentOutcome>(last.value)
                : Effect.fail(
                    new SolverError({
                      reason: "NoResult",
                      retryable: false,
                      message: `agent ${agent.name} ended without an outcome`,
                    }),
                  ),
            ),
            Effect.timeoutTo({
              duration: Duration.millis(limits.agentTimeoutMs),
              onSuccess: (done): AgentOutcome => done,
              onTimeout: (): AgentOutcome => ({ stop_reason: "max_time" as StopReason, ...progress }),
            }),
          )
        yield* emit({ kind: "note", text: `agent ended: ${outcome.stop_reason} after ${outcome.turns} turns` })

        // Only now may the tests exist in the sandbox: the agent never saw them.
        rolloutTask.limits?.startGrading()
        yield* sandbox.copyIn(join(task.dir, "tests"), HARBOR_PATHS.tests)
        const line = runScriptLine(`${HARBOR_PATHS.tests}/test.sh`)
        const verified = yield* sandbox.exec(line, {
          env: task.config.verifier.env,
          timeoutMs: limits.verifierTimeoutMs,
        })
        yield* emit(commandRecord("bash /tests/test.sh", verified))
        if (verified.timedOut) {
          return yield* verifierFailure(
            `${task.id}: tests/test.sh did not finish within ${Math.round(limits.verifierTimeoutMs / 1000)} s`,
          )
        }
        const text = textOf(yield* sandbox.readFile(`${HARBOR_PATHS.verifierLogs}/reward.txt`))
        // reward.json counts only without a reward.txt (or an empty one): it is read only then.
        const json =
          text === null || text.trim() === ""
            ? textOf(yield* sandbox.readFile(`${HARBOR_PATHS.verifierLogs}/reward.json`))
            : null
        const reward = readReward(text, json)
        if (reward === null) {
          return yield* verifierFailure(
            `${task.id}: tests/test.sh (exit ${verified.exitCode}) left no reward in /logs/verifier/reward.txt or reward.json`,
          )
        }
        yield* emit({ kind: "note", text: `reward ${reward.reward}` })
        return finalOfScore(reward.reward, {
          verifier_score: reward.reward,
          stop_reason: outcome.stop_reason,
          turns: outcome.turns,
          messages: outcome.messages,
          details: {
            task_id: task.id,
            agent: agent.name,
            rewards: reward.rewards,
            verifier_exit_code: verified.exitCode,
          },
        })
      }),
    )

  const base = Solver.fromStream(`harbor:${agent.name}`, (rolloutTask) => {
    let index = 0
    return Stream.map(
      emitting((emit: (record: StepRecord) => Effect.Effect<void>) => rollout(rolloutTask, emit)),
      (event): Step | FinalResult =>
        event._tag === "Item" ? { _tag: "Step", index: index++, record: event.item } : event.value,
    )
  })
  // The solver enforces its own limits (build, agent and verifier timeouts): the runner adds no rollout timer.
  return { ...base, enforcesTimeout: true }
}

/**
 * What the sandbox of an agent that runs inside it needs: its program's host paths, and the rollout's interceptor
 * on its loopback (through a host socket and the runtime's relay). `local` isolates nothing: the URL is the host's.
 */
const sandboxReach = (agent: Agent, rolloutTask: RolloutTask, runtime: SandboxRuntimeService) =>
  Effect.gen(function* () {
    if (agent.inSandbox === undefined) return { readOnlyPaths: [], interceptor: null, modelUrl: null }
    const readOnlyPaths = yield* agent.inSandbox.hostPaths
    const base = rolloutTask.inferenceUrl ?? rolloutTask.config.policy_config.inference_url
    if (typeof base !== "string") return { readOnlyPaths, interceptor: null, modelUrl: null }
    if (!runtime.isolated) return { readOnlyPaths, interceptor: null, modelUrl: base }
    const socket = yield* interceptorSocket(base)
    return {
      readOnlyPaths,
      interceptor: { socketPath: socket.socketPath, port: socket.port },
      modelUrl: socket.inferenceUrl,
    }
  })

const buildTimeout = (task: HarborTask, seconds: number) =>
  new SandboxError({ reason: "BuildFailed", message: `${task.id}: the environment did not build within ${seconds} s` })
