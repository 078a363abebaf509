import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { waitForEffect } from "@proctor/test-kit"
import { Effect, Redacted } from "effect"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { Interceptor } from "../src/interceptor/Interceptor.js"
import { ResponseStore } from "../src/interceptor/internal/ResponseStore.js"
import { serveInterceptor } from "../src/interceptor/serveInterceptor.js"
import type { ModelApi, ModelCall } from "../src/result/ModelCall.js"

const tempDir = () =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "proctor-cache-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true })),
  )

const baselineModel = Effect.acquireRelease(
  Effect.promise(() => createBaselineModel().listen()),
  (model) => Effect.promise(model.close),
)

const PATHS: Record<ModelApi, string> = {
  chat_completions: "chat/completions",
  responses: "responses",
  messages: "messages",
}

const BODIES: Record<ModelApi, Record<string, unknown>> = {
  chat_completions: { model: "baseline", messages: [{ role: "user", content: "What is 2 + 3?" }], temperature: 0 },
  responses: { model: "baseline", input: [{ role: "user", content: "Say hello" }], temperature: 0 },
  messages: { model: "baseline", max_tokens: 64, messages: [{ role: "user", content: "Say hello" }] },
}

const SECRET = "sk-proctor-test-3f9a1c77e0d2"

/** An interceptor on the cache directory `dir`, with calls priced at a cent per thousand tokens. */
const cachingInterceptor = (dir: string, upstreamUrl: string, apiKey = SECRET) =>
  Effect.gen(function* () {
    const calls: Array<ModelCall> = []
    const interceptor = yield* Interceptor.make({
      cacheDir: dir,
      priceCall: (_provider, _model, usage) => (usage?.total_tokens ?? 0) / 100_000,
      onCall: (call) => calls.push(call),
    })
    yield* serveInterceptor(interceptor)
    let rollouts = 0
    const post = (api: ModelApi, body: Record<string, unknown>, attempt = 0) =>
      Effect.gen(function* () {
        const { cid, inferenceUrl } = yield* interceptor.open({
          runId: "run",
          rolloutId: `rollout-${rollouts++}`,
          seed: 0,
          attempt,
          upstream: { baseUrl: upstreamUrl, apiKey: Redacted.make(apiKey) },
        })
        const response = yield* Effect.promise(() =>
          fetch(`${inferenceUrl}/${PATHS[api]}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        )
        const text = yield* Effect.promise(() => response.text())
        const [call] = yield* interceptor.close(cid)
        return { status: response.status, contentType: response.headers.get("content-type"), text, call: call! }
      })
    return { post, calls }
  })

/** The store's entries (temporary files being written are not entries yet). */
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => !name.endsWith(".tmp"))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())

/** Waits until the store holds `count` entries. */
const stored = (dir: string, count: number) =>
  Effect.orDie(
    waitForEffect(
      `${count} stored answers`,
      Effect.sync(() => filesUnder(dir).length >= count),
    ),
  )

describe("response cache", () => {
  for (const api of ["chat_completions", "responses", "messages"] as const) {
    for (const stream of [false, true]) {
      it.scopedLive(
        `${api}${stream ? " streamed" : ""}: a miss goes upstream, the same request again is replayed`,
        () =>
          Effect.gen(function* () {
            const dir = yield* tempDir()
            const model = yield* baselineModel
            // Two interceptors on one directory: a second run, not a memory of the first.
            const first = yield* cachingInterceptor(dir, model.url)
            const second = yield* cachingInterceptor(dir, model.url)
            const body = { ...BODIES[api], ...(stream ? { stream: true } : {}) }
            const fresh = yield* first.post(api, body)
            expect(fresh.status).toBe(200)
            expect(fresh.call.cached).toBeUndefined()
            // The write is the interceptor's own business: wait for the entry to be there.
            yield* stored(dir, 1)
            const replayed = yield* second.post(api, body)
            expect(replayed.status).toBe(200)
            expect(replayed.contentType).toBe(fresh.contentType)
            expect(replayed.text).toBe(fresh.text)
            if (stream) expect(replayed.text).toMatch(/^(event: \S+\n)?data: /)
            const { call } = replayed
            expect(call.cached).toBe(true)
            expect(call.stream).toBe(stream)
            expect(call.usage).toEqual(fresh.call.usage)
            expect(call.response_message).toEqual(fresh.call.response_message)
            expect(call.usage?.total_tokens).toBeGreaterThan(0)
            expect(call.cost_usd).toBe(0)
            expect(call.avoided_cost_usd).toBe(fresh.call.cost_usd)
            expect(fresh.call.cost_usd).toBeGreaterThan(0)
          }),
      )
    }
  }

  it.scopedLive("a streamed chat call replays the events its client asked for (usage chunk or not)", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir()
      const model = yield* baselineModel
      const { post } = yield* cachingInterceptor(dir, model.url)
      const body = { ...BODIES.chat_completions, stream: true }
      const plain = yield* post("chat_completions", body)
      yield* stored(dir, 1)
      const withUsage = yield* post("chat_completions", { ...body, stream_options: { include_usage: true } })
      expect(withUsage.call.cached).toBe(true)
      expect(plain.text).not.toContain('"usage":{')
      expect(withUsage.text).toContain('"usage":{')
      const again = yield* post("chat_completions", body)
      expect(again.call.cached).toBe(true)
      expect(again.text).toBe(plain.text)
    }),
  )

  it.scopedLive("what does not change the answer is normalised; what does is a miss", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir()
      const model = yield* baselineModel
      const { post } = yield* cachingInterceptor(dir, model.url)
      const base = BODIES.chat_completions
      yield* post("chat_completions", base)
      yield* stored(dir, 1)
      const reordered = Object.fromEntries(Object.entries(base).reverse())
      const same = [
        reordered,
        { ...base, user: "someone-else", metadata: { trace: "x" }, safety_identifier: "u1", prompt_cache_key: "p" },
        { ...base, stream_options: { include_usage: true } },
      ]
      for (const body of same) expect((yield* post("chat_completions", body)).call.cached).toBe(true)
      const different = [
        { ...base, temperature: 0.7 },
        { ...base, messages: [{ role: "user", content: "What is 2 + 4?" }] },
        { ...base, tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }] },
        { ...base, stream: true },
      ]
      for (const body of different) expect((yield* post("chat_completions", body)).call.cached).toBeUndefined()
      // Another attempt of the seed is another sample, not a replay of the first.
      expect((yield* post("chat_completions", base, 1)).call.cached).toBeUndefined()
    }),
  )

  it.scopedLive("the store holds no key: neither in its files nor in how keys are derived", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir()
      const model = yield* baselineModel
      const { post } = yield* cachingInterceptor(dir, model.url)
      for (const api of ["chat_completions", "responses", "messages"] as const) {
        yield* post(api, BODIES[api])
        yield* post(api, { ...BODIES[api], stream: true })
      }
      yield* stored(dir, 6)
      for (const path of filesUnder(dir)) {
        expect(path).not.toContain(SECRET)
        expect(readFileSync(path).includes(SECRET)).toBe(false)
      }
      // The key is no input of the derivation: the same request sent with another key is the same entry.
      const other = yield* cachingInterceptor(dir, model.url, "sk-another-key")
      expect((yield* other.post("messages", BODIES.messages)).call.cached).toBe(true)
    }),
  )

  it.effect("a damaged or half-written entry is a miss, never a wrong answer", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir()
      const store = new ResponseStore(dir)
      const key = "ab".padEnd(64, "0")
      const answer = { status: 200, contentType: "application/json", body: Buffer.from('{"ok":true}') }
      yield* Effect.promise(() => store.put(key, answer))
      expect(yield* Effect.promise(() => store.get(key))).toEqual(answer)
      const path = join(dir, "ab", key)
      const whole = readFileSync(path)
      writeFileSync(path, whole.subarray(0, whole.length - 3))
      expect(yield* Effect.promise(() => store.get(key))).toBeNull()
      writeFileSync(path, Buffer.concat([whole.subarray(0, whole.length - 3), Buffer.from("XY}")]))
      expect(yield* Effect.promise(() => store.get(key))).toBeNull()
      expect(readdirSync(join(dir, "ab")).filter((name) => name.endsWith(".tmp"))).toEqual([])
    }).pipe(Effect.scoped),
  )
})
