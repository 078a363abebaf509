import { Context, Effect, Layer } from "effect"
import { RateLimited } from "./ApiErrors.js"

export interface RateLimitOptions {
  /** Requests a key may make in a burst. */
  readonly burst: number
  /** Tokens added back per second. */
  readonly perSecond: number
}

export const defaultRateLimit: RateLimitOptions = { burst: 120, perSecond: 20 }

export interface RateLimiterService {
  /** Takes one token from the key's bucket, or fails with how long to wait for the next one. */
  readonly take: (keyId: string) => Effect.Effect<void, RateLimited>
  /** `take` without a fiber, for routes answered from memory: null once a token is taken, else the refusal. */
  readonly tryTake: (keyId: string) => RateLimited | null
}

/**
 * A token bucket per API key, kept in memory: one number pair per key, refilled lazily on each request, so an
 * idle key costs nothing and no timer runs.
 */
export const makeRateLimiter = (options: RateLimitOptions | null, now: () => number = Date.now): RateLimiterService => {
  if (options === null) return { take: () => Effect.void, tryTake: () => null }
  const burst = Math.max(1, options.burst)
  const perMs = Math.max(options.perSecond, 1e-6) / 1000
  const buckets = new Map<string, { tokens: number; at: number }>()
  const tryTake = (keyId: string): RateLimited | null => {
    const t = now()
    const bucket = buckets.get(keyId) ?? { tokens: burst, at: t }
    bucket.tokens = Math.min(burst, bucket.tokens + (t - bucket.at) * perMs)
    bucket.at = t
    buckets.set(keyId, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return null
    }
    const retryAfterMs = Math.ceil((1 - bucket.tokens) / perMs)
    return new RateLimited({ reason: "TooManyRequests", message: "too many requests for this API key", retryAfterMs })
  }
  return {
    take: (keyId) =>
      Effect.suspend(() => {
        const limited = tryTake(keyId)
        return limited === null ? Effect.void : Effect.fail(limited)
      }),
    tryTake,
  }
}

export class RateLimiter extends Context.Tag("@proctor/server/RateLimiter")<RateLimiter, RateLimiterService>() {
  static readonly layer = (options: RateLimitOptions | null): Layer.Layer<RateLimiter> =>
    Layer.sync(RateLimiter, () => makeRateLimiter(options))
}
