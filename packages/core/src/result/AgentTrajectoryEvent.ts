/**
 * One event of a command-line agent's own output, its trajectory as it wrote it (Codex's `exec --json` events,
 * Claude Code's stream-json messages), stored in the run directory's `agent_trajectory.jsonl` as it arrives, next to
 * the rollout's intercepted calls in `model_calls.jsonl`. `event` is bounded: one larger than
 * `MAX_AGENT_EVENT_BYTES` is cut (`_truncated` says how), and a try keeps at most `MAX_AGENT_TRAJECTORY_BYTES` of
 * events, then one line saying how many more there were.
 */
export interface AgentTrajectoryEvent {
  /** The rollout's id and key; `retry` tells the tries of one key apart. Ids first: readers find a line's rollout from its first bytes. */
  readonly rollout_id: string
  readonly seed: number
  readonly attempt: number
  readonly retry: number
  /** 0-based, per try. */
  readonly index: number
  readonly at: string
  /** The agent that wrote it (`codex`, `claude-code`). */
  readonly agent: string
  readonly event: unknown
}
