import { Effect, Either, Layer } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { DeclaredAgentConfig, EvalRunConfig } from "../config/EvalRunConfig.js"
import type { SandboxRuntimeService } from "../sandbox/Sandbox.js"
import { Solver } from "../solver/Solver.js"
import type { Agent } from "./Agent.js"
import { BuiltinAgent } from "./BuiltinAgent.js"
import { ClaudeCodeAgent } from "./ClaudeCodeAgent.js"
import { CodexAgent } from "./CodexAgent.js"
import { makeDeclaredAgent } from "./DeclaredAgent.js"
import { type HarborTask, listHarborTaskDirs, loadHarborTasks } from "./HarborTask.js"
import { makeHarborTaskSolver } from "./HarborTaskSolver.js"
import { OracleAgent } from "./OracleAgent.js"

/** The agents `--agent` names: proctor's own, and the command-line agents that run inside the sandbox. */
export const AGENTS: Readonly<Record<string, Agent>> = {
  oracle: OracleAgent,
  builtin: BuiltinAgent,
  codex: CodexAgent,
  "claude-code": ClaudeCodeAgent,
}

/** The run's agent: one of `AGENTS`, or the one `agent_config` declares under the name `agent` gives it. */
export const agentNamed = (
  name: string,
  declared?: DeclaredAgentConfig | undefined,
): Either.Either<Agent, ConfigError> => {
  const known = AGENTS[name]
  if (declared !== undefined) {
    return known === undefined
      ? Either.right(makeDeclaredAgent(name, declared))
      : Either.left(
          new ConfigError({
            reason: "InvalidValue",
            message: `agent: ${JSON.stringify(name)} is proctor's own; give the agent agent_config declares a name of its own`,
          }),
        )
  }
  return known === undefined
    ? Either.left(
        new ConfigError({
          reason: "InvalidValue",
          message: `agent: expected one of ${Object.keys(AGENTS).join(", ")} (or declare one in agent_config), got ${JSON.stringify(name)}`,
        }),
      )
    : Either.right(known)
}

/** Seeds of a Harbor run: one per task directory, its index in name order. */
export const harborTaskSeeds = (tasksPath: string): Either.Either<ReadonlyArray<number>, ConfigError> =>
  Either.mapBoth(listHarborTaskDirs(tasksPath), {
    onLeft: (error) => new ConfigError({ reason: "InvalidValue", message: error.message }),
    onRight: (dirs) => dirs.map((_, index) => index),
  })

/** The first line of an agent run: which runtime, that `local` isolates nothing, and a storage limit not held. */
export const runtimeLine = (runtime: SandboxRuntimeService): string =>
  !runtime.isolated
    ? `sandbox: ${runtime.name} — no isolation: the agent's commands run as this user on this machine`
    : runtime.enforcesStorage
      ? `sandbox: ${runtime.name}`
      : `sandbox: ${runtime.name} — tasks' storage_mb is not enforced on this runtime`

export interface HarborRun {
  readonly tasks: ReadonlyArray<HarborTask>
  readonly solver: Layer.Layer<Solver>
  /** A result's `task_id`: its task directory's name. */
  readonly taskIdOf: (seed: number) => string
}

/** What a run of `config.tasks` needs: its tasks (read and checked up front), its agent, and its solver. */
export const harborRun = Effect.fn("HarborRun.make")(function* (config: EvalRunConfig, runtime: SandboxRuntimeService) {
  if (config.tasks === undefined) {
    return yield* new ConfigError({ reason: "Missing", message: "no tasks: set eval.tasks or pass --tasks" })
  }
  const agent = yield* agentNamed(config.agent ?? "", config.agent_config)
  const tasks = yield* Effect.mapError(
    loadHarborTasks(config.tasks),
    (error) => new ConfigError({ reason: "InvalidValue", message: error.message }),
  )
  const outOfRange = config.seeds.find((seed) => seed < 0 || seed >= tasks.length)
  if (outOfRange !== undefined) {
    return yield* new ConfigError({
      reason: "InvalidValue",
      message: `seeds: ${outOfRange} names no task: ${config.tasks} holds ${tasks.length} (seeds 0-${tasks.length - 1})`,
    })
  }
  return {
    tasks,
    solver: Layer.succeed(Solver, makeHarborTaskSolver({ tasks, agent, runtime })),
    taskIdOf: (seed: number) => tasks[seed]?.id ?? String(seed),
  } satisfies HarborRun
})
