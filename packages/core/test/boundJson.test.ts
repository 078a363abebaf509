import { describe, expect, it } from "@effect/vitest"
import { boundJson, MAX_REPORTED_JSON_BYTES } from "../src/runner/internal/boundJson.js"

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

describe("boundJson", () => {
  it("passes what fits through untouched, and drops what says nothing", () => {
    const details = { correct: false, expected: 4, got: 5 }
    expect(boundJson(details)).toBe(details)
    expect(boundJson("a short answer")).toBe("a short answer")
    expect(boundJson(null)).toBeUndefined()
    expect(boundJson(undefined)).toBeUndefined()
  })

  it("cuts a large object to the entries that fit, in order, and says what it left out", () => {
    const details = { correct: false, transcript: "x".repeat(100_000), expected: 4 }
    const bounded = boundJson(details) as Record<string, unknown>
    expect(bounded).toEqual({
      correct: false,
      expected: 4,
      _truncated: {
        bytes: bytes(details),
        limit: MAX_REPORTED_JSON_BYTES,
        omitted_keys: ["transcript"],
        omitted_count: 1,
      },
    })
  })

  it("cuts anything else to a prefix of its JSON, marked", () => {
    const long = "é".repeat(50_000)
    const bounded = boundJson([long]) as { _truncated: unknown; json_prefix: string }
    expect(bounded._truncated).toEqual({ bytes: bytes([long]), limit: MAX_REPORTED_JSON_BYTES })
    expect(bounded.json_prefix.startsWith('["éé')).toBe(true)
  })

  it("never keeps more than the limit, however many keys or how wide the characters", () => {
    const manyKeys = Object.fromEntries(
      Array.from({ length: 5_000 }, (_, i) => [`key_${"k".repeat(200)}_${i}`, "😀".repeat(20)]),
    )
    for (const value of [manyKeys, "😀".repeat(40_000), Array.from({ length: 10_000 }, (_, i) => ({ i }))]) {
      expect(bytes(boundJson(value))).toBeLessThanOrEqual(MAX_REPORTED_JSON_BYTES)
    }
    expect((boundJson(manyKeys) as { _truncated: { omitted_keys: unknown[] } })._truncated.omitted_keys).toHaveLength(
      20,
    )
  })

  it("marks a value that is not JSON instead of throwing", () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(boundJson(cyclic)).toEqual({ _truncated: { reason: "not serialisable as JSON" } })
  })
})
