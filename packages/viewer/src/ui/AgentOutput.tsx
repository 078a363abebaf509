import type { AgentTrajectoryEvent } from "@proctor/core"
import { useEffect, useState } from "preact/hooks"
import type { ViewerSource } from "./source.js"

export interface AgentOutputProps {
  readonly source: ViewerSource
  readonly run: number
  readonly seed: number
  readonly attempt: number
  /** Changes on each update of the run; while `following`, the output is asked for again on each. */
  readonly updates: number
  readonly following: boolean
}

/** One event as its line of `agent_trajectory.jsonl` reads, without the rollout's ids every line repeats. */
const lineOf = (event: AgentTrajectoryEvent) =>
  `#${event.index}${event.retry > 0 ? ` (try ${event.retry + 1})` : ""} ${event.at} ${JSON.stringify(event.event)}`

/**
 * A command-line agent's own output for the rollout (Codex's `exec --json` events, Claude Code's stream-json
 * messages), as it wrote it: the raw record behind the timeline, folded away. Nothing for other rollouts.
 */
export const AgentOutput = ({ source, run, seed, attempt, updates, following }: AgentOutputProps) => {
  const key = `${run}/${seed}/${attempt}`
  const [read, setRead] = useState<{ readonly key: string; readonly events: ReadonlyArray<AgentTrajectoryEvent> }>()
  useEffect(() => {
    let current = true
    source.agentEvents(run, seed, attempt).then(
      (events) => current && setRead({ key, events }),
      () => {},
    )
    return () => {
      current = false
    }
  }, [source, key, following ? updates : -1])
  const events = read?.key === key ? read.events : []
  if (events.length === 0) return null
  return (
    <section aria-label="agent output">
      <details class="json" data-testid="agent-output">
        <summary>
          {events[0]?.agent}'s own output ({events.length} events)
        </summary>
        <pre>{events.map(lineOf).join("\n")}</pre>
      </details>
    </section>
  )
}
