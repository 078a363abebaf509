import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Random } from "effect"
import { defaultBackoff, retryDelay } from "../src/runner/Backoff.js"

const withRandom = (value: number) =>
  Effect.withRandom(Random.make(value) as Random.Random) as <A, E, R>(
    self: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E, R>

describe("retry delay", () => {
  it.effect("grows exponentially with equal jitter, capped", () =>
    Effect.gen(function* () {
      for (let retry = 1; retry <= 10; retry++) {
        const ms = Duration.toMillis(yield* retryDelay(defaultBackoff, retry, undefined))
        const exponential = Math.min(defaultBackoff.maxMs, defaultBackoff.baseMs * 2 ** (retry - 1))
        expect(ms).toBeGreaterThanOrEqual(exponential / 2)
        expect(ms).toBeLessThanOrEqual(exponential)
      }
    }),
  )

  it.effect("never comes back sooner than Retry-After, which is capped", () =>
    Effect.gen(function* () {
      expect(Duration.toMillis(yield* retryDelay(defaultBackoff, 1, 5_000))).toBe(5_000)
      expect(Duration.toMillis(yield* retryDelay(defaultBackoff, 1, 10_000_000))).toBe(defaultBackoff.maxRetryAfterMs)
    }),
  )

  it.effect("jitter spreads delays", () =>
    Effect.gen(function* () {
      const a = Duration.toMillis(yield* retryDelay(defaultBackoff, 3, undefined).pipe(withRandom(1)))
      const b = Duration.toMillis(yield* retryDelay(defaultBackoff, 3, undefined).pipe(withRandom(2)))
      expect(a).not.toBe(b)
    }),
  )
})
