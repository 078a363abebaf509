import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { isRecord } from "../internal/isRecord.js"
import type { StopReason } from "../result/RolloutStep.js"
import type { AgentProgress } from "./Agent.js"
import type { HarborTask } from "./HarborTask.js"

/**
 * The limits an agent runs under, and every check of them, in one place. Turns and the agent's working time are
 * checked here; tokens and cost are the interceptor's (per rollout), which answers a call over budget with an
 * error the agent sees — `stopReasonOfRefusal` reads it. A per-rollout limits service can replace this module.
 */
export interface AgentLimits {
  /** Model turns; null: no limit but time. */
  readonly maxTurns: number | null
  /** The agent's working time (sandbox start-up and grading are outside it). */
  readonly agentTimeoutMs: number
  readonly verifierTimeoutMs: number
}

/** Harbor's defaults (`TaskConfig`): 600 s for the agent and for the verifier. */
const HARBOR_DEFAULT_TIMEOUT_S = 600
/** nanoeval's `LimitsHelper` default: 100 actions. */
export const DEFAULT_MAX_TURNS = 100

/** A task's own `[agent]`/`[verifier] timeout_sec` wins over the run's `agent_timeout`/`verifier_timeout`. */
export const agentLimitsOf = (task: HarborTask, config: EvalRunConfig): AgentLimits => ({
  maxTurns: config.max_turns ?? DEFAULT_MAX_TURNS,
  agentTimeoutMs: 1000 * (task.config.agent.timeout_sec ?? config.agent_timeout_s ?? HARBOR_DEFAULT_TIMEOUT_S),
  verifierTimeoutMs: 1000 * (task.config.verifier.timeout_sec ?? config.verifier_timeout_s ?? HARBOR_DEFAULT_TIMEOUT_S),
})

/** Before each model turn: may the agent take another? */
export const turnLimitReached = (limits: AgentLimits, progress: AgentProgress): StopReason | null =>
  limits.maxTurns !== null && progress.turns >= limits.maxTurns ? "max_turns" : null

/**
 * A model call the interceptor refused because the rollout's budget is spent (HTTP 400 with an error of type
 * `proctor_limit`, in the OpenAI or the Anthropic shape) ends the agent with that limit's stop reason; any other
 * failed call is not a limit (null).
 */
export const stopReasonOfRefusal = (status: number, body: string): StopReason | null => {
  if (status !== 400 || !body.includes("proctor_limit")) return null
  try {
    const parsed: unknown = JSON.parse(body)
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : null
    if (error === null || error.type !== "proctor_limit") return null
    return error.code === "max_tokens" || error.code === "max_cost" || error.code === "max_turns" ? error.code : null
  } catch {
    return null
  }
}
