import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { classifyResponse } from "../src/taskApp/TaskAppClient.js"
import { parseRetryAfter } from "../src/taskApp/TaskAppError.js"

const raw = (status: number, text: string, headers: Record<string, string> = {}) => ({ status, text, headers })
const errorOf = (status: number, text: string, headers: Record<string, string> = {}) => {
  const result = classifyResponse("POST /rollout", raw(status, text, headers))
  if (Either.isRight(result)) throw new Error("expected an error")
  return result.left
}

describe("error classification", () => {
  it("2xx JSON is a success; 2xx that is not JSON (truncated) is a retryable MalformedBody", () => {
    expect(Either.isRight(classifyResponse("x", raw(200, '{"a":1}')))).toBe(true)
    const e = errorOf(200, '{"run_id": "r", "metr')
    expect(e.reason).toBe("MalformedBody")
    expect(e.retryable).toBe(true)
  })

  it("2xx with Python's bare NaN / Infinity reads them as numbers, leaving strings that spell them alone", () => {
    const body = '{"s": "NaN, \\"Infinity\\"", "metrics": {"outcome_score": NaN, "a": [Infinity, -Infinity]}}'
    const result = classifyResponse("POST /rollout", raw(200, body))
    expect(Either.getOrThrow(result)).toEqual({
      s: 'NaN, "Infinity"',
      metrics: { outcome_score: Number.NaN, a: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] },
    })
    // Still not JSON once they are read: malformed, as before.
    expect(errorOf(200, '{"a": NaN, "b": nope}').reason).toBe("MalformedBody")
    expect(errorOf(200, '{"a": NaNx}').reason).toBe("MalformedBody")
  })

  it("synth-ai's 400 unauthorised envelope, 401 and 403 are auth errors, never retried", () => {
    const synth = errorOf(400, JSON.stringify({ detail: { error: { code: "unauthorised", message: "bad key" } } }))
    expect(synth.reason).toBe("Unauthorized")
    expect(synth.kind).toBe("auth")
    expect(synth.retryable).toBe(false)
    expect(errorOf(401, "{}").reason).toBe("Unauthorized")
    expect(errorOf(403, "").reason).toBe("Unauthorized")
  })

  it("other 4xx are not retried; 5xx and 429 are, with Retry-After kept", () => {
    const bad = errorOf(422, '{"detail":"seed"}')
    expect([bad.reason, bad.kind, bad.retryable]).toEqual(["HttpStatus", "http_4xx", false])
    const down = errorOf(503, "down", { "retry-after": "2" })
    expect([down.kind, down.retryable, down.retryAfterMs]).toEqual(["http_5xx", true, 2000])
    const limited = errorOf(429, "", { "retry-after": "7" })
    expect([limited.reason, limited.retryable, limited.retryAfterMs]).toEqual(["RateLimited", true, 7000])
  })

  it("parses Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(parseRetryAfter("1.5", now)).toBe(1500)
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000)
    expect(parseRetryAfter("soon", now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })
})
