import { Effect } from "effect"
import type { AgentTrajectoryEvent } from "../../result/AgentTrajectoryEvent.js"
import type { RolloutKey } from "../../result/EvalResult.js"
import { boundJson } from "./boundJson.js"

/** The most JSON one stored event keeps: a command's whole output in one event must not fill the file. */
export const MAX_AGENT_EVENT_BYTES = 64 * 1024
/** The most JSON one try's trajectory keeps; the events after it are counted on one closing line. */
export const MAX_AGENT_TRAJECTORY_BYTES = 16 * 1024 * 1024

export interface AgentEventRecorderOptions {
  readonly rolloutId: string
  readonly key: RolloutKey
  readonly retry: number
  readonly emit: (events: ReadonlyArray<AgentTrajectoryEvent>) => Effect.Effect<void>
}

/**
 * One try's `recordAgentEvent`: numbers, times and bounds each event of the agent's own output and stores it. Past
 * the try's bound one line says the trajectory was cut; the events after it are not kept.
 */
export const agentEventRecorder = (options: AgentEventRecorderOptions) => {
  let index = 0
  let bytes = 0
  let cut = false
  return (agent: string, event: unknown): Effect.Effect<void> =>
    Effect.suspend(() => {
      const at = new Date().toISOString()
      const line = (value: unknown): AgentTrajectoryEvent => ({
        rollout_id: options.rolloutId,
        seed: options.key.seed,
        attempt: options.key.attempt,
        retry: options.retry,
        index: index++,
        at,
        agent,
        event: value,
      })
      if (cut) return Effect.void
      const bounded = boundJson(event, MAX_AGENT_EVENT_BYTES) ?? null
      bytes += JSON.stringify(bounded).length
      if (bytes <= MAX_AGENT_TRAJECTORY_BYTES) return options.emit([line(bounded)])
      cut = true
      return options.emit([
        line({ _truncated: { limit: MAX_AGENT_TRAJECTORY_BYTES, note: "the try's later events are not kept" } }),
      ])
    })
}
