import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { Interceptor } from "../src/interceptor/Interceptor.js"
import { type PostedAnswer, postModel } from "../src/internal/modelPost.js"
import type { ModelCall } from "../src/result/ModelCall.js"
import { serveWithNodeHttp } from "./fixtures/serveWithNodeHttp.js"

/**
 * proctor's own model calls (its prompt runner, built-in agent, judges) go straight into an interceptor running in
 * the same process instead of through its HTTP server. These tests hold that shortcut to the plain path: each
 * request is sent both ways, and the answers and the recorded calls must be the same.
 */

const baselineModel = (latencyMs = 0) =>
  Effect.acquireRelease(
    Effect.promise(() => createBaselineModel({ latencyMs }).listen()),
    (model) => Effect.promise(model.close),
  )

const overHttp = async (url: string, headers: Record<string, string>, body: string): Promise<PostedAnswer> => {
  const response = await fetch(url, { method: "POST", headers, body })
  return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() }
}

/** What differs between two answers to the same request for reasons of their own: ids and clocks. */
const sameness = (text: string) =>
  text.replace(/(chatcmpl-|resp_|msg_)baseline[0-9a-z]+/g, "$1…").replace(/"(created|created_at)":\s*\d+/g, '"$1":0')
const callSameness = ({ call_id, started_at, completed_at, latency_ms, ttft_ms, ...call }: ModelCall) => ({
  ...call,
  response_message: JSON.parse(sameness(JSON.stringify(call.response_message ?? null))) as unknown,
  ttft: ttft_ms === null ? null : "measured",
})

const chatBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: "baseline", messages: [{ role: "user", content: "What is 2 + 3?" }], ...extra })
const json = { "content-type": "application/json", authorization: "Bearer proctor-stand-in" }
const anthropic = { "content-type": "application/json", "x-api-key": "proctor-stand-in" }

const requests: ReadonlyArray<{ name: string; path: string; headers: Record<string, string>; body: string }> = [
  { name: "chat completion", path: "/chat/completions", headers: json, body: chatBody() },
  { name: "streamed chat completion", path: "/chat/completions", headers: json, body: chatBody({ stream: true }) },
  {
    name: "Responses API",
    path: "/responses",
    headers: json,
    body: JSON.stringify({ model: "baseline", input: "What is 2 + 3?" }),
  },
  {
    name: "Anthropic messages, streamed",
    path: "/messages",
    headers: anthropic,
    body: JSON.stringify({
      model: "baseline",
      max_tokens: 50,
      stream: true,
      messages: [{ role: "user", content: "What is 2 + 3?" }],
    }),
  },
  { name: "a body that is not JSON", path: "/chat/completions", headers: json, body: "{not json" },
  { name: "an unknown API", path: "/embeddings", headers: json, body: chatBody() },
]

describe("model calls in the interceptor's own process", () => {
  it.scoped("are answered and recorded as the same calls over HTTP, without touching the socket", () =>
    Effect.gen(function* () {
      const model = yield* baselineModel()
      const interceptor = yield* Interceptor.make({ priceCall: (_p, _m, usage) => (usage?.total_tokens ?? 0) / 1e6 })
      const { counter } = yield* serveWithNodeHttp(interceptor)
      const rollout = { runId: "run", seed: 0, attempt: 0, upstream: { baseUrl: model.url } }
      const viaHttp = yield* interceptor.open({ ...rollout, rolloutId: "http" })
      const inProcess = yield* interceptor.open({ ...rollout, rolloutId: "in-process" })
      for (const request of requests) {
        const plain = yield* Effect.promise(() =>
          overHttp(`${viaHttp.inferenceUrl}${request.path}`, request.headers, request.body),
        )
        const before = counter.requests
        const direct = yield* Effect.promise(() =>
          postModel(`${inProcess.inferenceUrl}${request.path}`, request.headers, request.body),
        )
        expect(counter.requests, request.name).toBe(before)
        expect(direct.status, request.name).toBe(plain.status)
        expect(direct.headers["content-type"], request.name).toBe(plain.headers["content-type"])
        expect(sameness(direct.text), request.name).toBe(sameness(plain.text))
      }
      const plainCalls = yield* interceptor.close(viaHttp.cid)
      const directCalls = yield* interceptor.close(inProcess.cid)
      expect(plainCalls).toHaveLength(5)
      expect(directCalls.map(callSameness)).toEqual(
        plainCalls.map((call) => callSameness({ ...call, rollout_id: "in-process" })),
      )
      // A URL of no open rollout is refused alike, and an interceptor's own URL after it shut down is not taken.
      const closed = yield* Effect.promise(() =>
        postModel(`${inProcess.inferenceUrl}/chat/completions`, json, chatBody()),
      )
      expect(closed.status).toBe(404)
      expect(closed.text).toContain("unknown_correlation_id")
    }),
  )

  it.scoped("the same limits: a call over the rollout's budget is refused in the API's shape", () =>
    Effect.gen(function* () {
      const model = yield* baselineModel()
      const interceptor = yield* Interceptor.make()
      yield* serveWithNodeHttp(interceptor)
      const reached: Array<string> = []
      const budget = {
        settings: () => ({ maxTokens: 1, maxCost: null }),
        reach: (limit: string) => reached.push(limit),
      }
      const open = (rolloutId: string) =>
        interceptor.open({ runId: "run", rolloutId, seed: 0, attempt: 0, upstream: { baseUrl: model.url }, budget })
      const viaHttp = yield* open("http")
      const inProcess = yield* open("in-process")
      const answers = []
      for (const opened of [viaHttp, inProcess]) {
        const url = `${opened.inferenceUrl}/chat/completions`
        const first = yield* Effect.promise(() => postModel(url, json, chatBody()))
        const refused =
          opened === viaHttp
            ? yield* Effect.promise(() => overHttp(url, json, chatBody()))
            : yield* Effect.promise(() => postModel(url, json, chatBody()))
        answers.push([first.status, refused.status, refused.text])
      }
      expect(answers[1]).toEqual(answers[0])
      expect(answers[0]![1]).toBe(400)
      expect(answers[0]![2]).toContain("proctor_limit")
      expect(reached).toEqual(["max_tokens", "max_tokens"])
    }),
  )

  it.live("a caller that aborts is a client that left: the call is cancelled upstream and recorded so", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const model = yield* baselineModel(5_000)
        const interceptor = yield* Interceptor.make()
        yield* serveWithNodeHttp(interceptor)
        const open = (rolloutId: string) =>
          interceptor.open({ runId: "run", rolloutId, seed: 0, attempt: 0, upstream: { baseUrl: model.url } })
        const opened = yield* open("r")
        const abort = new AbortController()
        const pending = postModel(`${opened.inferenceUrl}/chat/completions`, json, chatBody(), abort.signal).then(
          () => "answered",
          (error: Error) => error.name,
        )
        while (interceptor.inFlight() === 0) yield* Effect.sleep("5 millis")
        abort.abort()
        expect(yield* Effect.promise(() => pending)).toBe("AbortError")
        expect(interceptor.inFlight()).toBe(0)
        const [call] = yield* interceptor.close(opened.cid)
        expect(call).toMatchObject({ outcome: "cancelled", error: "client disconnected before the call finished" })

        // Closing the rollout cuts a call still in flight, as it closes an HTTP client's connection.
        const again = yield* open("r2")
        const cut = postModel(`${again.inferenceUrl}/chat/completions`, json, chatBody()).then(
          () => "answered",
          (error: Error) => error.message,
        )
        while (interceptor.inFlight() === 0) yield* Effect.sleep("5 millis")
        yield* interceptor.close(again.cid)
        expect(yield* Effect.promise(() => cut)).toContain("cut the answer short")
      }),
    ),
  )
})
