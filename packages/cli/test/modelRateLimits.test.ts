import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { modelRateLimitsOf } from "../src/modelRateLimits.js"

describe("model rate limits of a command", () => {
  it.effect("come from --model-rate-limit flags, which win over PROCTOR_MODEL_RATE_LIMITS", () =>
    Effect.gen(function* () {
      const env = { PROCTOR_MODEL_RATE_LIMITS: "http://a.test/v1=60rpm\nhttp://b.test/v1=1000tpm" }
      expect(yield* modelRateLimitsOf(undefined, env)).toEqual([
        { baseUrl: "http://a.test/v1", requestsPerMinute: 60, tokensPerMinute: null },
        { baseUrl: "http://b.test/v1", requestsPerMinute: null, tokensPerMinute: 1000 },
      ])
      expect(yield* modelRateLimitsOf(["http://c.test/v1=5rpm,10tpm"], env)).toEqual([
        { baseUrl: "http://c.test/v1", requestsPerMinute: 5, tokensPerMinute: 10 },
      ])
      expect(yield* modelRateLimitsOf(undefined, {})).toEqual([])
    }),
  )

  it.effect("refuse a bad spec with a usage error naming the flag or variable", () =>
    Effect.gen(function* () {
      const flag = yield* Effect.flip(modelRateLimitsOf(["http://a.test/v1=fast"], {}))
      expect(flag.reason).toBe("InvalidValue")
      expect(flag.message).toMatch(/^--model-rate-limit: model rate limit "http:\/\/a.test\/v1=fast": "fast" is not/)
      const env = yield* Effect.flip(modelRateLimitsOf([], { PROCTOR_MODEL_RATE_LIMITS: "openai=5rpm" }))
      expect(env.message).toMatch(/^PROCTOR_MODEL_RATE_LIMITS: model rate limit "openai=5rpm": "openai" is not an http/)
    }),
  )
})
