/**
 * When proctor asks a task app about a rollout it runs in the background (the async form of `POST /rollout`).
 *
 * - The first poll comes `FIRST_POLL_MS` after the app accepted the rollout, so a short rollout is known fast.
 * - Later polls of one rollout are at least `MIN_INTERVAL_MS` apart (at most one a second per rollout, so 1,000
 *   rollouts in flight cost at most 1,000 requests a second), and the gap grows by `GROWTH` per poll up to
 *   `MAX_INTERVAL_MS`: a rollout of an hour is asked about every 5 s, and its result is known at most 5 s late.
 * - A `Retry-After` from the app (on the accepting answer, a poll's answer, or a 429/503) replaces the computed gap;
 *   below `MIN_INTERVAL_MS` it is raised to it, except before the first poll, where the app may ask for less.
 * - No poll is scheduled past the rollout's deadline (`timeout_s`): the deadline ends the wait.
 */
export const FIRST_POLL_MS = 250
export const MIN_INTERVAL_MS = 1_000
export const MAX_INTERVAL_MS = 5_000
export const GROWTH = 1.5

/** The wait before the first poll. */
export const firstPollDelayMs = (retryAfterMs: number | undefined): number => retryAfterMs ?? FIRST_POLL_MS

/** The wait after poll number `polls` (1 after the first), honouring the app's `Retry-After`. */
export const nextPollDelayMs = (polls: number, retryAfterMs: number | undefined): number => {
  if (retryAfterMs !== undefined) return Math.max(MIN_INTERVAL_MS, retryAfterMs)
  return Math.min(MAX_INTERVAL_MS, MIN_INTERVAL_MS * GROWTH ** Math.max(0, polls - 1))
}
