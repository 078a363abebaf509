import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, PubSub, Queue, Redacted, Scope } from "effect"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { Interceptor } from "../src/interceptor/Interceptor.js"
import type { ModelCall } from "../src/result/ModelCall.js"
import { serveWithNodeHttp } from "./fixtures/serveWithNodeHttp.js"

const baselineModel = (latencyMs = 0) =>
  Effect.acquireRelease(
    Effect.promise(() => createBaselineModel({ latencyMs }).listen()),
    (model) => Effect.promise(model.close),
  )

const chat = (url: string, body: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "baseline", messages: [{ role: "user", content: "hello" }], ...body }),
    })
    return { status: response.status, text: await response.text() }
  })

const rollout = { runId: "run", rolloutId: "app-seed-0-00000000", seed: 0, attempt: 0 }

describe("Interceptor (core, served by node:http)", () => {
  it.scoped("publishes every finished call and returns the rollout's calls on close", () =>
    Effect.gen(function* () {
      const model = yield* baselineModel()
      const interceptor = yield* Interceptor.make({ priceCall: (_p, _m, usage) => (usage?.total_tokens ?? 0) / 1000 })
      yield* serveWithNodeHttp(interceptor)
      const subscription = yield* PubSub.subscribe(interceptor.calls)
      const { cid, inferenceUrl } = yield* interceptor.open({ ...rollout, upstream: { baseUrl: model.url } })
      const json = yield* chat(inferenceUrl, {})
      const streamed = yield* chat(inferenceUrl, { stream: true })
      expect(json.status).toBe(200)
      expect(streamed.text).toContain("data: [DONE]")
      const published = [yield* Queue.take(subscription), yield* Queue.take(subscription)]
      const calls = yield* interceptor.close(cid)
      expect(calls).toEqual(published)
      expect(calls.map((call) => call.stream)).toEqual([false, true])
      const usage = JSON.parse(json.text).usage as { total_tokens: number }
      expect(calls[0]!.cost_usd).toBe(usage.total_tokens / 1000)
      expect(calls[1]!.usage?.total_tokens).toBe(usage.total_tokens)
      expect(interceptor.openRollouts()).toBe(0)
      expect((yield* chat(inferenceUrl, {})).status).toBe(404)
    }),
  )

  it.scoped("refuses to open a rollout before it has a public URL, or for a bad upstream", () =>
    Effect.gen(function* () {
      const interceptor = yield* Interceptor.make()
      const notListening = yield* Effect.flip(interceptor.open({ ...rollout, upstream: { baseUrl: "http://x/v1" } }))
      expect(notListening).toMatchObject({ _tag: "InterceptorError", reason: "NotListening" })
      interceptor.setBaseUrl("http://127.0.0.1:9/")
      const bad = yield* Effect.flip(interceptor.open({ ...rollout, upstream: { baseUrl: "nope?key=sk-secret" } }))
      expect(bad).toMatchObject({ reason: "InvalidUpstream" })
      expect(bad.message).not.toContain("sk-secret")
      const ftp = yield* Effect.flip(interceptor.open({ ...rollout, upstream: { baseUrl: "ftp://h/v1" } }))
      expect(ftp.reason).toBe("InvalidUpstream")
      const ok = yield* interceptor.open({
        ...rollout,
        upstream: { baseUrl: "https://api.groq.com/openai/v1", apiKey: Redacted.make("k") },
      })
      expect(ok.inferenceUrl).toBe(`http://127.0.0.1:9/${ok.cid}/v1`)
    }),
  )

  it.live("shutting down cancels calls in flight, records and publishes them", () =>
    Effect.gen(function* () {
      const outer = yield* Scope.make()
      const model = yield* Scope.extend(baselineModel(5000), outer)
      const scope = yield* Scope.make()
      const published: ModelCall[] = []
      const interceptor = yield* Scope.extend(Interceptor.make({ onCall: (call) => published.push(call) }), scope)
      yield* Scope.extend(serveWithNodeHttp(interceptor), scope)
      const { inferenceUrl } = yield* interceptor.open({ ...rollout, upstream: { baseUrl: model.url } })
      const pending = fetch(`${inferenceUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "baseline", messages: [{ role: "user", content: "hello" }] }),
      }).then(
        (response) => response.text(),
        () => "failed",
      )
      // In flight once the interceptor has taken it (the slow model holds it there).
      while (interceptor.inFlight() === 0) yield* Effect.sleep("5 millis")
      expect(interceptor.inFlight()).toBe(1)
      yield* Scope.close(scope, Exit.void)
      expect(published.map((call) => call.outcome)).toEqual(["cancelled"])
      expect(published[0]!.error).toContain("shut down")
      expect(yield* Effect.promise(() => pending)).toBe("failed")
      yield* Scope.close(outer, Exit.void)
    }),
  )
})
