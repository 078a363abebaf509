/** One async rollout as the bench's task app saw it, in its `performance.now()` milliseconds. */
export interface RolloutTimings {
  readonly startedAt: number
  /** Every `GET /rollouts/{id}` of it. */
  readonly polls: Array<number>
  /** When its handler resolved. */
  finishedAt: number | null
  /** When a poll's answer first said it completed: when proctor knew. */
  knownAt: number | null
}
