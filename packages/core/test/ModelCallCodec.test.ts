import { describe, expect, it } from "@effect/vitest"
import { conversation, testCall } from "@proctor/test-kit"
import { Either } from "effect"
import fc from "fast-check"
import type { ModelApi, ModelCall } from "../src/result/ModelCall.js"
import { decodeModelCalls, encodeModelCalls, type StoredModelCall } from "../src/store/ModelCallCodec.js"

/** What a file or a table holds: each stored call as JSON text, read back. */
const throughJson = (stored: ReadonlyArray<StoredModelCall>): Array<unknown> =>
  stored.map((call) => JSON.parse(JSON.stringify(call)))

const jsonTexts = (calls: ReadonlyArray<unknown>) => calls.map((call) => JSON.stringify(call))

const roundTrip = (calls: ReadonlyArray<ModelCall>) =>
  Either.getOrThrow(decodeModelCalls(throughJson(encodeModelCalls(calls))))

const storedBytes = (calls: ReadonlyArray<ModelCall>) => jsonTexts(encodeModelCalls(calls)).map((text) => text.length)

describe("model call storage (encodeModelCalls / decodeModelCalls)", () => {
  it("stores a well-behaved conversation by turn, not by turn², and reads it back byte for byte", () => {
    const calls = conversation(60)
    expect(jsonTexts(roundTrip(calls))).toEqual(jsonTexts(calls))
    const stored = storedBytes(calls)
    const full = jsonTexts(calls).map((text) => text.length)
    // Every stored call is about as long as the first (its new message and answer), while the calls grow.
    for (const bytes of stored.slice(1)) expect(bytes).toBeLessThan(full[0]! + 100)
    expect(full.at(-1)!).toBeGreaterThan(5 * full[0]!)
    const [, second] = encodeModelCalls(calls)
    expect(second?.request_delta).toEqual({ base: calls[0]!.call_id, keep: 3, same: ["tools"] })
  })

  it("reconstructs exactly when a client rewrites its history (a summary, an edited message, a fresh start)", () => {
    const calls = conversation(6)
    const messagesOf = (call: ModelCall) => (call.request as { messages: Array<unknown> }).messages
    const rewritten = calls.map((call, turn) => {
      const messages = messagesOf(call)
      if (turn === 2)
        return { ...call, request: { ...(call.request as object), messages: [messages[0], ...messages.slice(3)] } }
      if (turn === 3)
        return {
          ...call,
          request: {
            ...(call.request as object),
            messages: [{ role: "system", content: "Be long." }, ...messages.slice(1)],
          },
        }
      if (turn === 4) return { ...call, request: { model: "m", messages: [{ role: "user", content: "start over" }] } }
      return call
    })
    expect(jsonTexts(roundTrip(rewritten))).toEqual(jsonTexts(rewritten))
    const stored = encodeModelCalls(rewritten)
    expect(stored[2]?.request_delta?.keep).toBe(1)
    expect(stored[3]?.request_delta).toEqual({ base: rewritten[2]!.call_id, keep: 0, same: ["tools"] })
    expect(stored[4]?.request_delta).toBeUndefined()
  })

  it("reads calls stored whole (every run directory before this codec) unchanged", () => {
    const calls = conversation(4)
    expect(jsonTexts(Either.getOrThrow(decodeModelCalls(throughJson(calls))))).toEqual(jsonTexts(calls))
  })

  it("reads rows in any order (a table's), each call after its base, and names a missing base", () => {
    const calls = conversation(5)
    const stored = throughJson(encodeModelCalls(calls))
    const decoded = Either.getOrThrow(decodeModelCalls([...stored].reverse()))
    expect(jsonTexts(decoded)).toEqual(jsonTexts(calls))
    const missing = decodeModelCalls(stored.slice(2))
    expect(Either.isLeft(missing) && missing.left).toBe(
      `model call ${calls[2]!.call_id} is relative to ${calls[1]!.call_id}, which is missing`,
    )
  })

  it("keeps each rollout's calls relative to its own, when rollouts are interleaved", () => {
    const a = conversation(3, { seed: 1, attempt: 0 })
    const b = conversation(3, { seed: 2, attempt: 0 })
    const calls = [a[0]!, b[0]!, a[1]!, b[1]!, b[2]!, a[2]!]
    const stored = encodeModelCalls(calls)
    expect(stored.map((call) => call.request_delta?.base ?? null)).toEqual([
      null,
      null,
      a[0]!.call_id,
      b[0]!.call_id,
      b[1]!.call_id,
      a[1]!.call_id,
    ])
    expect(jsonTexts(roundTrip(calls))).toEqual(jsonTexts(calls))
  })

  // Conversations as clients really vary them: appended turns, answers resent as given or altered, histories
  // cut or edited, `input` as a string, requests that are not objects, members of any JSON, all three APIs.
  const entry = fc.oneof(fc.jsonValue(), fc.record({ role: fc.constantFrom("user", "tool"), content: fc.string() }))
  const step = fc.record({
    added: fc.array(entry, { maxLength: 3 }),
    answer: fc.option(fc.jsonValue(), { nil: null }),
    resend: fc.constantFrom("as given", "altered", "not"),
    rewrite: fc.option(
      fc.record({ at: fc.nat(), drop: fc.nat({ max: 3 }), insert: fc.array(entry, { maxLength: 2 }) }),
      {
        nil: null,
      },
    ),
    members: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
    withShared: fc.boolean(),
    shape: fc.constantFrom("object", "object", "object", "string input", "not an object"),
  })
  const rollout = fc.record({
    api: fc.constantFrom<ModelApi>("chat_completions", "responses", "messages"),
    steps: fc.array(step, { minLength: 1, maxLength: 8 }),
    /** Members every step that sends them sends unchanged (tools, a system prompt, …). */
    shared: fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom("__proto__", "tools", "system")),
      fc.oneof(fc.jsonValue(), fc.string({ minLength: 48 })),
      { minKeys: 1, maxKeys: 3 },
    ),
  })

  type Rollout = typeof rollout extends fc.Arbitrary<infer A> ? A : never

  const callsOf = (rollouts: ReadonlyArray<Rollout>) =>
    rollouts.flatMap(({ api, steps, shared }, r) => {
      const field = api === "responses" ? "input" : "messages"
      let history: Array<unknown> = []
      return steps.map((s, turn): ModelCall => {
        if (s.rewrite !== null) {
          const at = history.length === 0 ? 0 : s.rewrite.at % history.length
          history = [...history.slice(0, at), ...s.rewrite.insert, ...history.slice(at + s.rewrite.drop)]
        }
        history = [...history, ...s.added]
        const conversation = [...history]
        const request =
          s.shape === "not an object"
            ? conversation
            : {
                ...s.members,
                ...(s.withShared ? shared : {}),
                [field]: s.shape === "string input" ? JSON.stringify(conversation) : conversation,
              }
        if (s.answer !== null && s.resend !== "not")
          history.push(s.resend === "as given" ? s.answer : { altered: s.answer })
        return testCall({
          call_id: `call_${r}_${turn}`,
          rollout_id: `rollout-${r}`,
          api,
          request,
          response_message: s.answer,
        })
      })
    })

  it("property: whatever the calls, decode(encode(calls)) is byte-identical to them, in any row order", () => {
    fc.assert(
      fc.property(
        fc.array(rollout, { minLength: 1, maxLength: 3 }),
        fc.infiniteStream(fc.nat()),
        (rollouts, shuffle) => {
          const calls = callsOf(rollouts)
          const expected = jsonTexts(calls)
          expect(jsonTexts(roundTrip(calls))).toEqual(expected)
          const stored = throughJson(encodeModelCalls(calls))
          const keys = stored.map(() => shuffle.next().value as number)
          const shuffled = stored.map((call, i) => ({ call, key: keys[i]! })).sort((a, b) => a.key - b.key)
          const decoded = Either.getOrThrow(decodeModelCalls(shuffled.map(({ call }) => call)))
          expect(jsonTexts(decoded).sort()).toEqual([...expected].sort())
          const position = new Map(decoded.map((call, i) => [call.call_id, i]))
          for (const call of stored as Array<StoredModelCall>) {
            const base = call.request_delta?.base
            if (base !== undefined) expect(position.get(base)!).toBeLessThan(position.get(call.call_id)!)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
