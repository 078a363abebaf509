import { createReadStream, existsSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { AGENT_EVENTS_FILE, type AgentTrajectoryEvent } from "@proctor/core"
import { Effect } from "effect"
import { ViewerError } from "../ViewerError.js"

/**
 * One rollout's lines of a run directory's `agent_trajectory.jsonl`, every try's, in the order they were written.
 * Read on demand, line by line: the file is only opened when someone looks at a command-line agent's output.
 */
export const agentEventsOfDirectory = (dir: string, seed: number, attempt: number) =>
  Effect.tryPromise({
    try: async () => {
      const path = join(dir, AGENT_EVENTS_FILE)
      const events: Array<AgentTrajectoryEvent> = []
      if (!existsSync(path)) return events
      for await (const line of createInterface({
        input: createReadStream(path),
        crlfDelay: Number.POSITIVE_INFINITY,
      })) {
        if (line === "") continue
        // A line being appended as it is read is not whole yet: the next read has it.
        let event: AgentTrajectoryEvent
        try {
          event = JSON.parse(line) as AgentTrajectoryEvent
        } catch {
          continue
        }
        if (event.seed === seed && event.attempt === attempt) events.push(event)
      }
      return events
    },
    catch: (cause) =>
      new ViewerError({ reason: "Unavailable", message: `cannot read ${join(dir, AGENT_EVENTS_FILE)}: ${cause}` }),
  })
