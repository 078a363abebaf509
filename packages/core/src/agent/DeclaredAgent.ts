import { Effect } from "effect"
import type { DeclaredAgentConfig } from "../config/EvalRunConfig.js"
import { makeCommandLineAgent } from "./CommandLineAgent.js"

/** `{base_url}`, `{api_key}` and `{model}` in a declared agent's environment, filled in for the rollout. */
const filled = (value: string, run: { baseUrl: string; apiKey: string; model: string }) =>
  value.replaceAll("{base_url}", run.baseUrl).replaceAll("{api_key}", run.apiKey).replaceAll("{model}", run.model)

/**
 * A command-line agent the user declares in `agent_config`: its `install` line, then its `run` line in the task's
 * workdir in the sandbox, with the instruction in `$PROCTOR_INSTRUCTION` and its `env` pointing it at the rollout's
 * interceptor (`{base_url}`, `{api_key}` a stand-in, `{model}`). Its `paths` are visible read-only inside. proctor
 * does not read its output: the run is one command step, and every model call it makes is in `model_calls.jsonl`.
 */
export const makeDeclaredAgent = (name: string, config: DeclaredAgentConfig) =>
  makeCommandLineAgent({
    name,
    program: Effect.succeed({ path: "sh", hostPaths: config.paths ?? [] }),
    install: config.install,
    command: (run) => ({
      argv: ["sh", "-c", config.run],
      env: {
        ...Object.fromEntries(Object.entries(config.env ?? {}).map(([key, value]) => [key, filled(value, run)])),
        PROCTOR_INSTRUCTION: run.instruction,
        PROCTOR_MODEL: run.model,
      },
    }),
    trajectory: null,
  })
