import { isRecord } from "@proctor/core"
import type { ReceivedRolloutRequest, RolloutResult, RolloutStep } from "../TaskAppDefinition.js"

/** synth-ai's `RolloutStep` defaults, so strict (pydantic) readers accept every step. */
const wireStep = (step: RolloutStep) => ({
  obs: step.obs ?? {},
  tool_calls: step.tool_calls ?? [],
  reward: step.reward ?? null,
  done: step.done ?? false,
  truncated: step.truncated ?? null,
  info: step.info ?? null,
})

/** synth-ai's helpers stamp the id into the trace's metadata, which is where trace consumers look. */
const stampTrace = (trace: Record<string, unknown>, traceCorrelationId: string) => {
  const metadata = isRecord(trace.metadata) ? trace.metadata : {}
  const correlationIds = isRecord(metadata.correlation_ids) ? metadata.correlation_ids : {}
  return {
    ...trace,
    metadata: {
      ...metadata,
      trace_correlation_id: traceCorrelationId,
      correlation_ids: { ...correlationIds, trace_correlation_id: traceCorrelationId },
    },
  }
}

export interface RolloutResponseInput {
  readonly appId: string
  readonly request: ReceivedRolloutRequest
  readonly result: RolloutResult
  readonly traceCorrelationId: string
}

/**
 * The rollout response every generation of synth-ai reader accepts: the legacy metric names
 * (`episode_returns`, `mean_return`, `outcome_score`…) next to the new ones (`outcome_reward`,
 * `outcome_objectives`, `reward_mean`…), under both `metrics` and its newer alias `reward_info`, and the
 * correlation id in every place synth-ai's "fatal guards" check (top level, `pipeline_metadata`, each
 * trajectory, `trace.metadata`).
 */
export const buildRolloutResponse = ({ appId, request, result, traceCorrelationId }: RolloutResponseInput) => {
  const steps = (result.steps ?? []).map(wireStep)
  const score = result.score
  const inferenceUrl = request.policy.config?.inference_url
  const eventRewards = steps.flatMap((step) => (step.reward === null ? [] : [step.reward]))
  const metrics = {
    episode_returns: [score],
    mean_return: score,
    num_steps: steps.length,
    num_episodes: 1,
    outcome_score: result.outcomeScore === undefined ? score : result.outcomeScore,
    events_score: result.eventsScore ?? null,
    outcome_reward: score,
    outcome_objectives: { reward: score },
    event_rewards: eventRewards,
    reward_mean: score,
    details: result.details ?? {},
  }
  const returnTrace = request.record?.return_trace === true
  return {
    run_id: request.run_id,
    trace_correlation_id: traceCorrelationId,
    trajectories: [
      {
        env_id: `${request.env.env_name ?? appId}:${request.env.seed ?? 0}`,
        policy_id: request.policy.policy_id ?? request.policy.policy_name ?? "policy",
        steps,
        final: result.final ?? null,
        length: steps.length,
        inference_url: typeof inferenceUrl === "string" ? inferenceUrl : "",
        trace_correlation_id: traceCorrelationId,
      },
    ],
    metrics,
    reward_info: metrics,
    trace: returnTrace && isRecord(result.trace) ? stampTrace(result.trace, traceCorrelationId) : null,
    aborted: false,
    // Each step is one agent action: the closest thing to synth-ai's "ops" a task app that owns its loop has.
    ops_executed: steps.length,
    pipeline_metadata: { trace_correlation_id: traceCorrelationId },
  }
}
