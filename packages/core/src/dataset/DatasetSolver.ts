import { Effect } from "effect"
import { agentApiOf } from "../agent/BuiltinAgent.js"
import { type ModelReply, promptTurn, type ToolSpec } from "../agent/PromptTurn.js"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { gradeRollout } from "../grader/GradedSolver.js"
import type { GraderSet } from "../grader/GraderSet.js"
import { upstreamUrl } from "../interceptor/InferenceUrl.js"
import type { RunJudgesService } from "../judge/RunJudges.js"
import { finalOfScore, SolverError, type SolverService } from "../solver/Solver.js"
import { clusterValue } from "../taskApp/RolloutOutcome.js"
import type { Dataset } from "./Dataset.js"

/** A row's messages, filled in before the run (a row that cannot be filled stops the run before it starts). */
export interface RowPrompt {
  readonly system: string
  readonly user: string
  readonly tools?: ReadonlyArray<ToolSpec>
}

/** A tool call as graders and results see it: its name and its arguments, parsed when they are JSON. */
export interface CalledTool {
  readonly name: string
  readonly arguments: unknown
}

const calledTools = (reply: ModelReply): ReadonlyArray<CalledTool> =>
  reply.calls.map((call) => {
    try {
      return { name: call.name, arguments: JSON.parse(call.arguments) as unknown }
    } catch {
      return { name: call.name, arguments: call.arguments }
    }
  })

/** What the model answered: its text, or, when it only called tools, the calls as JSON. */
const answerOf = (reply: ModelReply, calls: ReadonlyArray<CalledTool>): string =>
  reply.text !== "" || calls.length === 0 ? reply.text : JSON.stringify(calls)

/** The policy settings a prompt carries to the model as given; the rest of the table is proctor's or the task app's. */
const SAMPLING_KEYS = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "seed", "stop"] as const

const samplingOf = (config: EvalRunConfig) =>
  Object.fromEntries(
    SAMPLING_KEYS.flatMap((key) => (config.policy_config[key] === undefined ? [] : [[key, config.policy_config[key]]])),
  )

/**
 * proctor's own prompt runner: a rollout asks the model the row's prompt once (through the rollout's interceptor
 * URL, so it is traced and priced) and the run's graders grade the answer (model graders asking the run's judges);
 * their score is the rollout's score.
 */
export const datasetSolver = (
  config: EvalRunConfig,
  dataset: Dataset,
  prompts: ReadonlyMap<number, RowPrompt>,
  graders: GraderSet,
  judges: RunJudgesService,
): SolverService => {
  const api = agentApiOf(config)
  const model = config.model ?? String(config.policy_config.model ?? "")
  const settings = samplingOf(config)
  return {
    name: "dataset",
    enforcesTimeout: false,
    solve: (task) =>
      Effect.gen(function* () {
        const seed = task.key.seed
        const prompt = prompts.get(seed)
        const item = dataset.rows[seed]
        if (prompt === undefined || item === undefined) {
          return yield* new SolverError({
            reason: "Failed",
            retryable: false,
            message: `no row ${seed + 1} in ${dataset.path}`,
          })
        }
        const base = task.inferenceUrl ?? config.policy_config.inference_url
        if (typeof base !== "string") {
          return yield* new SolverError({
            reason: "Failed",
            retryable: false,
            message: "a dataset eval needs a model: give --inference-url (or --provider)",
          })
        }
        const reply = yield* promptTurn(upstreamUrl(base, api), api, { model, ...prompt, settings })
        const toolCalls = calledTools(reply)
        const answer = answerOf(reply, toolCalls)
        const graded = yield* gradeRollout(graders, judges, task, {
          answer,
          item,
          prompt: prompt.user,
          ...(prompt.tools === undefined ? {} : { toolCalls }),
        })
        const cluster = config.cluster_by === undefined ? undefined : clusterValue(item[config.cluster_by])
        return finalOfScore(graded.score, {
          details: { answer, ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }) },
          grades: graded.grades,
          tokens: reply.tokens,
          ...(cluster === undefined ? {} : { cluster }),
        })
      }),
  }
}
