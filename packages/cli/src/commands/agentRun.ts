import { AGENTS, type EvalRunConfig, harborRun, runtimeLine } from "@proctor/core"
import { sandboxRuntimeOf } from "@proctor/sandbox"
import { Effect } from "effect"

/**
 * True unless the run is an agent run whose agent calls no model (`oracle`); a declared agent calls one. An unknown agent asks for no model
 * either: `agentRunOf` names the agents there are instead.
 */
export const usesModel = (config: EvalRunConfig): boolean =>
  config.tasks === undefined || config.agent_config !== undefined || (AGENTS[config.agent ?? ""]?.usesModel ?? false)

/** An agent run's runtime (for the run's scope), its solver and task ids, and the line that names the runtime. */
export const agentRunOf = (config: EvalRunConfig) =>
  Effect.gen(function* () {
    const runtime = yield* sandboxRuntimeOf(config.sandbox ?? "docker")
    const run = yield* harborRun(config, runtime)
    return { ...run, runtime, line: runtimeLine(runtime) }
  })
