import { Duration, Effect, Random } from "effect"

export interface BackoffPolicy {
  readonly baseMs: number
  readonly maxMs: number
  /** The most a server's `Retry-After` is honoured for; a longer ask is capped rather than obeyed. */
  readonly maxRetryAfterMs: number
}

export const defaultBackoff: BackoffPolicy = { baseMs: 500, maxMs: 30_000, maxRetryAfterMs: 300_000 }

/**
 * Delay before retry number `retry` (1-based): exponential with "equal jitter" (half fixed, half random),
 * so a burst of failures does not retry in lockstep. A server's `Retry-After` is a floor: we never come
 * back sooner than asked.
 */
export const retryDelay = (
  policy: BackoffPolicy,
  retry: number,
  retryAfterMs: number | undefined,
): Effect.Effect<Duration.Duration> =>
  Effect.map(Random.next, (r) => {
    const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1))
    const jittered = exponential / 2 + (r * exponential) / 2
    const floor = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, policy.maxRetryAfterMs)
    return Duration.millis(Math.round(Math.max(jittered, floor)))
  })
