import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Interceptor, type InterceptorOpenOptions, type ModelCall, serveInterceptor } from "@proctor/core"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
import { createBaselineModel, type RunningBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { type RunningInterceptor, startInterceptor } from "../src/index.js"

// ---------------------------------------------------------------------------------------------------------
// Fixtures: the baseline model is the real upstream; tiny fakes stand in only for what cannot exist here
// (OpenAI /responses, Anthropic /messages) and for faults (429/503, resets, slow streams).

interface SeenRequest {
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

interface Fake {
  readonly url: string
  readonly seen: SeenRequest[]
  readonly close: () => Promise<void>
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const startFake = async (
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<Fake> => {
  const seen: SeenRequest[] = []
  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    seen.push({ path: req.url ?? "", headers: req.headers, body })
    await handler(req, res, body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const sse = (events: ReadonlyArray<unknown>, named = false) =>
  events
    .map((event) => {
      const data = typeof event === "string" ? event : JSON.stringify(event)
      const name = named && typeof event === "object" && event !== null ? (event as { type?: string }).type : undefined
      return `${name === undefined ? "" : `event: ${name}\n`}data: ${data}\n\n`
    })
    .join("")

/** `data:` payloads of an SSE body, `[DONE]` left out. */
const sseData = (text: string): unknown[] =>
  text
    .split("\n\n")
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => line.slice(6))
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data))

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })

/** Collects the calls the interceptor publishes, and waits for a given number of them. */
const callLog = () => {
  const calls: ModelCall[] = []
  const waiters: Array<() => void> = []
  return {
    calls,
    onCall: (call: ModelCall) => {
      calls.push(call)
      for (const wake of waiters.splice(0)) wake()
    },
    waitFor: async (predicate: (calls: ReadonlyArray<ModelCall>) => boolean, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs
      while (!predicate(calls)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for calls (have ${calls.length})`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 50)
        })
      }
    },
  }
}

let baseline: RunningBaselineModel
let proxy: RunningInterceptor
const log = callLog()

const open = (upstream: InterceptorOpenOptions["upstream"], seed = 0, attempt = 0) =>
  Effect.runPromise(
    proxy.interceptor.open({ runId: "run-test", rolloutId: `app-seed-${seed}-0000abcd`, seed, attempt, upstream }),
  )
const close = (cid: string) => Effect.runPromise(proxy.interceptor.close(cid))

beforeAll(async () => {
  baseline = await createBaselineModel({ latencyMs: 0 }).listen()
  proxy = await startInterceptor({
    onCall: log.onCall,
    priceCall: (provider, model, usage) =>
      model === "baseline" && usage !== null ? (usage.total_tokens ?? 0) * 1e-6 : provider === null ? null : 0,
  })
})

afterAll(async () => {
  await proxy.close()
  await baseline.close()
})

const CHAT = {
  model: "baseline",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Say hello to the tests." },
  ],
  temperature: 0,
}

const MATH_TOOLS = [
  { type: "function", function: { name: "calculator", parameters: { type: "object" } } },
  { type: "function", function: { name: "submit_answer", parameters: { type: "object" } } },
]

const withoutVolatile = (body: Record<string, unknown>) => {
  const { id: _id, created: _created, ...rest } = body
  return rest
}

// ---------------------------------------------------------------------------------------------------------

describe("interceptor: chat completions through the baseline model", () => {
  it("hands out cid URLs, serves /healthz and routes the cid from the path or the query", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: baseline.url })
    expect(cid).toMatch(/^cid_[0-9a-f]{32}$/)
    expect(inferenceUrl).toBe(`${proxy.url}/${cid}/v1`)
    const health = await (await fetch(`${proxy.url}/healthz`)).json()
    expect(health).toMatchObject({ status: "ok" })
    expect((health as { open_rollouts: number }).open_rollouts).toBeGreaterThanOrEqual(1)

    const byQuery = await post(`${proxy.url}/v1/chat/completions?cid=${cid}`, CHAT)
    expect(byQuery.status).toBe(200)
    const calls = await close(cid)
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ api: "chat_completions", outcome: "ok", status: 200 })
  })

  it("passes a JSON answer through intact and records the usage the upstream reported", async () => {
    const direct = (await (await post(`${baseline.url}/chat/completions`, CHAT)).json()) as Record<string, unknown>
    const { cid, inferenceUrl } = await open({ baseUrl: baseline.url }, 1)
    const response = await post(`${inferenceUrl}/chat/completions`, CHAT)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    const body = (await response.json()) as Record<string, unknown>
    expect(withoutVolatile(body)).toEqual(withoutVolatile(direct))

    const [call, ...more] = await close(cid)
    expect(more).toHaveLength(0)
    const usage = body.usage as { prompt_tokens: number; completion_tokens: number; total_tokens: number }
    expect(call).toMatchObject({
      run_id: "run-test",
      rollout_id: "app-seed-1-0000abcd",
      seed: 1,
      attempt: 0,
      api: "chat_completions",
      provider: null,
      model: "baseline",
      stream: false,
      request: CHAT,
      status: 200,
      outcome: "ok",
      error: null,
      ttft_ms: null,
      finish_reason: "stop",
      usage: { ...usage, cached_tokens: null, reasoning_tokens: null },
      cost_usd: usage.total_tokens * 1e-6,
    })
    expect(call!.response_message).toEqual((body.choices as Array<{ message: unknown }>)[0]!.message)
    expect(call!.latency_ms).toBeGreaterThan(0)
    expect(Date.parse(call!.completed_at)).toBeGreaterThanOrEqual(Date.parse(call!.started_at))
  })

  it("streams without a usage chunk when the client did not ask, and still records the usage", async () => {
    const request = {
      ...CHAT,
      tools: MATH_TOOLS,
      messages: [{ role: "user", content: "Tom has 3 apples and buys 4 more." }],
    }
    const direct = (await (await post(`${baseline.url}/chat/completions`, request)).json()) as {
      usage: Record<string, number>
      choices: Array<{ message: { tool_calls: unknown } }>
    }
    const { cid, inferenceUrl } = await open({ baseUrl: baseline.url }, 2)
    const response = await post(`${inferenceUrl}/chat/completions`, { ...request, stream: true })
    expect(response.headers.get("content-type")).toContain("text/event-stream")
    const text = await response.text()
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true)
    expect(text).not.toContain('"usage"')
    const chunks = sseData(text) as Array<{ choices: unknown[] }>
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true)

    const [call] = await close(cid)
    expect(call).toMatchObject({
      stream: true,
      outcome: "ok",
      finish_reason: "tool_calls",
      usage: { ...direct.usage, cached_tokens: null, reasoning_tokens: null },
    })
    // The recorded request is what the client asked: no stream flags, no injected stream_options.
    expect(call!.request).toEqual(request)
    const message = call!.response_message as { role: string; content: unknown; tool_calls: unknown }
    expect(message.role).toBe("assistant")
    expect(message.content).toBeNull()
    expect(message.tool_calls).toEqual(direct.choices[0]!.message.tool_calls)
    expect(call!.ttft_ms).not.toBeNull()
    expect(call!.ttft_ms!).toBeLessThanOrEqual(call!.latency_ms)
  })

  it("streams the usage chunk to a client that asked for it, byte-compatible with the upstream", async () => {
    const request = { ...CHAT, stream: true, stream_options: { include_usage: true } }
    const direct = sseData(await (await post(`${baseline.url}/chat/completions`, request)).text()) as Array<
      Record<string, unknown>
    >
    const { cid, inferenceUrl } = await open({ baseUrl: baseline.url }, 3)
    const through = sseData(await (await post(`${inferenceUrl}/chat/completions`, request)).text()) as Array<
      Record<string, unknown>
    >
    expect(through.map(withoutVolatile)).toEqual(direct.map(withoutVolatile))
    const usageChunk = through.at(-1) as { choices: unknown[]; usage: Record<string, number> }
    expect(usageChunk.choices).toEqual([])

    const [call] = await close(cid)
    expect(call!.usage).toEqual({ ...usageChunk.usage, cached_tokens: null, reasoning_tokens: null })
    expect(call!.request).toEqual({ model: CHAT.model, messages: CHAT.messages, temperature: 0 })
    const message = call!.response_message as { content: string }
    const streamed = through
      .flatMap((chunk) => chunk.choices as Array<{ delta: { content?: string } }>)
      .map((choice) => choice.delta.content ?? "")
      .join("")
    expect(message.content).toBe(streamed)
    expect(call!.finish_reason).toBe("stop")
  })

  it("keeps 64 concurrent rollouts' calls apart", async () => {
    const rollouts = await Promise.all(
      Array.from({ length: 64 }, (_, seed) => open({ baseUrl: baseline.url }, seed, 1)),
    )
    await Promise.all(
      rollouts.map(async ({ inferenceUrl }, seed) => {
        for (let turn = 0; turn < 3; turn++) {
          const stream = (seed + turn) % 2 === 0
          const body = {
            model: "baseline",
            stream,
            messages: [{ role: "user", content: `rollout ${seed} turn ${turn}: say something` }],
          }
          const response = await post(`${inferenceUrl}/chat/completions`, body)
          expect(response.status).toBe(200)
          await response.text()
        }
      }),
    )
    const closed = await Promise.all(rollouts.map(({ cid }) => close(cid)))
    closed.forEach((calls, seed) => {
      expect(calls).toHaveLength(3)
      calls.forEach((call, turn) => {
        expect(call.seed).toBe(seed)
        expect(call.attempt).toBe(1)
        expect(call.rollout_id).toBe(`app-seed-${seed}-0000abcd`)
        expect(call.stream).toBe((seed + turn) % 2 === 0)
        const request = call.request as { messages: Array<{ content: string }> }
        expect(request.messages[0]!.content).toBe(`rollout ${seed} turn ${turn}: say something`)
        expect(call.usage?.total_tokens).toBeGreaterThan(0)
      })
    })
    expect(proxy.interceptor.openRollouts()).toBe(0)
  })

  it("refuses a closed (or never opened) correlation id with an OpenAI-style 404", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: baseline.url })
    expect((await post(`${inferenceUrl}/chat/completions`, CHAT)).status).toBe(200)
    expect(await close(cid)).toHaveLength(1)
    const refused = await post(`${inferenceUrl}/chat/completions`, CHAT)
    expect(refused.status).toBe(404)
    const body = (await refused.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe("unknown_correlation_id")
    expect(body.error.message).toContain(cid)
    const unknown = await post(`${proxy.url}/cid_${"0".repeat(32)}/v1/chat/completions`, CHAT)
    expect(unknown.status).toBe(404)
    const none = await post(`${proxy.url}/v1/chat/completions`, CHAT)
    expect(none.status).toBe(404)
    expect(await close(cid)).toEqual([])
  })

  it("answers a body that is not JSON with 400 and records it", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: baseline.url })
    const response = await post(`${inferenceUrl}/chat/completions`, "{not json")
    expect(response.status).toBe(400)
    const [call] = await close(cid)
    expect(call).toMatchObject({ outcome: "error", status: 400, request: null })
  })

  it("serveInterceptor serves the interceptor for the life of its scope", () =>
    Effect.gen(function* () {
      const interceptor = yield* Interceptor
      yield* serveInterceptor(interceptor)
      const { cid, inferenceUrl } = yield* interceptor.open({
        runId: "layer",
        rolloutId: "layer-seed-0",
        seed: 0,
        attempt: 0,
        upstream: { baseUrl: baseline.url },
      })
      const response = yield* Effect.promise(() => post(`${inferenceUrl}/chat/completions`, CHAT))
      expect(response.status).toBe(200)
      yield* Effect.promise(() => response.text())
      const calls = yield* interceptor.close(cid)
      expect(calls.map((call) => call.outcome)).toEqual(["ok"])
    }).pipe(Effect.scoped, Effect.provide(Interceptor.layer()), Effect.runPromise))
})

describe("interceptor: its HTTP server", () => {
  it("answers a body over the limit with an OpenAI-style 413 without calling the upstream, and unknown routes 404", async () => {
    const small = await startInterceptor({ bodyLimit: 64 })
    try {
      const { cid, inferenceUrl } = await Effect.runPromise(
        small.interceptor.open({
          runId: "limit",
          rolloutId: "limit-0",
          seed: 0,
          attempt: 0,
          upstream: { baseUrl: baseline.url },
        }),
      )
      const tooLarge = await post(`${inferenceUrl}/chat/completions`, CHAT)
      expect(tooLarge.status).toBe(413)
      expect(((await tooLarge.json()) as { error: { code: string } }).error.code).toBe("request_too_large")
      expect(await Effect.runPromise(small.interceptor.close(cid))).toEqual([])
      const unknown = await fetch(`${small.url}/nowhere`)
      expect(unknown.status).toBe(404)
      expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("unknown_url")
    } finally {
      await small.close()
    }
  })
})

describe("interceptor: upstream errors reach the task app faithfully", () => {
  let fake: Fake
  beforeAll(async () => {
    fake = await startFake((req, res) => {
      if (req.url?.includes("rate")) {
        res.writeHead(429, {
          "content-type": "application/json",
          "retry-after": "7",
          "x-ratelimit-remaining-requests": "0",
        })
        res.end(JSON.stringify({ error: { message: "Rate limit reached", type: "rate_limit_error", code: null } }))
      } else if (req.url?.includes("busy")) {
        res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "2" })
        res.end("upstream is overloaded")
      } else if (req.url?.includes("reset")) {
        req.socket.destroy()
      } else if (req.url?.includes("echo-key")) {
        res.writeHead(401, { "content-type": "application/json" })
        res.end(
          JSON.stringify({
            error: { message: `Incorrect API key provided: ${req.headers.authorization ?? req.headers["x-api-key"]}` },
          }),
        )
      }
    })
  })
  afterAll(() => fake.close())

  it("passes a 429 through with its Retry-After, headers and body", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: `${fake.url.replace(/\/v1$/, "")}/rate/v1` })
    const response = await post(`${inferenceUrl}/chat/completions`, CHAT)
    expect(response.status).toBe(429)
    expect(response.headers.get("retry-after")).toBe("7")
    expect(response.headers.get("x-ratelimit-remaining-requests")).toBe("0")
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({
      error: { message: "Rate limit reached", type: "rate_limit_error", code: null },
    })
    const [call] = await close(cid)
    expect(call).toMatchObject({ outcome: "error", status: 429, usage: null, cost_usd: null })
    expect(call!.error).toContain("Rate limit reached")
  })

  it("passes a 503 through with its content type and body, for streaming calls too", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: `${fake.url.replace(/\/v1$/, "")}/busy` })
    const response = await post(`${inferenceUrl}/chat/completions`, { ...CHAT, stream: true })
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("2")
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(await response.text()).toBe("upstream is overloaded")
    const [call] = await close(cid)
    expect(call).toMatchObject({ outcome: "error", status: 503, stream: true })
    expect(fake.seen.at(-1)!.path).toBe("/busy/v1/chat/completions")
  })

  it("turns a reset connection into a 502 with an OpenAI-style error", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: `${fake.url.replace(/\/v1$/, "")}/reset/v1` })
    const response = await post(`${inferenceUrl}/chat/completions`, CHAT)
    expect(response.status).toBe(502)
    const body = (await response.json()) as { error: { type: string; code: string } }
    expect(body.error).toMatchObject({ type: "upstream_error", code: "upstream_unreachable" })
    const [call] = await close(cid)
    expect(call).toMatchObject({ outcome: "error", status: 502 })
  })

  it("turns a refused connection into a 502", async () => {
    const gone = await startFake(() => undefined)
    await gone.close()
    const { cid, inferenceUrl } = await open({ baseUrl: gone.url })
    const response = await post(`${inferenceUrl}/chat/completions`, CHAT)
    expect(response.status).toBe(502)
    const [call] = await close(cid)
    expect(call).toMatchObject({ outcome: "error", status: 502 })
    expect(call!.error).toContain("ECONNREFUSED")
  })

  it("never lets the upstream key reach a response or a record", async () => {
    const key = "sk-upstream-SECRET-1234567890"
    const { cid, inferenceUrl } = await open({
      baseUrl: `${fake.url.replace(/\/v1$/, "")}/echo-key/v1`,
      apiKey: Redacted.make(key),
    })
    const response = await post(`${inferenceUrl}/chat/completions`, CHAT, { authorization: "Bearer sk-task-app" })
    expect(response.status).toBe(401)
    const text = await response.text()
    expect(text).not.toContain(key)
    expect(text).toContain("[redacted]")
    expect(fake.seen.at(-1)!.headers.authorization).toBe(`Bearer ${key}`)
    const calls = await close(cid)
    expect(JSON.stringify(calls)).not.toContain(key)
    expect(JSON.stringify(log.calls)).not.toContain(key)
  })
})

describe("interceptor: auth and the real upstream", () => {
  const OTHER_MODEL = { ...CHAT, model: "gpt-4o-mini" }

  it("sends the configured key upstream and drops the task app's; forwards the task app's otherwise", async () => {
    const key = "sk-configured-abcdef"
    const fake = await startFake((_req, res, body) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(
        JSON.stringify({
          id: "x",
          object: "chat.completion",
          model: JSON.parse(body).model,
          choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
        }),
      )
    })
    try {
      const keyed = await open({ baseUrl: fake.url, apiKey: Redacted.make(key), provider: "openai" })
      const response = await post(`${keyed.inferenceUrl}/chat/completions`, OTHER_MODEL, {
        authorization: "Bearer sk-task-app",
        "x-api-key": "sk-task-app",
      })
      expect(await response.json()).toMatchObject({ choices: [{ message: { content: "ok" } }] })
      expect(fake.seen.at(-1)!.headers.authorization).toBe(`Bearer ${key}`)
      expect(fake.seen.at(-1)!.headers["x-api-key"]).toBeUndefined()
      const [call] = await close(keyed.cid)
      // Priced by the injected function with the configured provider; unknown provider → unpriced (null).
      expect(call).toMatchObject({ provider: "openai", model: "gpt-4o-mini", cost_usd: 0 })
      expect(JSON.stringify(call)).not.toContain(key)

      const unkeyed = await open({ baseUrl: fake.url })
      await (
        await post(`${unkeyed.inferenceUrl}/chat/completions`, OTHER_MODEL, { authorization: "Bearer sk-task-app" })
      ).text()
      expect(fake.seen.at(-1)!.headers.authorization).toBe("Bearer sk-task-app")
      const [plain] = await close(unkeyed.cid)
      expect(plain).toMatchObject({ provider: null, cost_usd: null })
    } finally {
      await fake.close()
    }
  })
})

describe("interceptor: streaming pass-through and cancellation", () => {
  it("writes each upstream chunk to the client as it arrives", async () => {
    // The upstream sends the rest only once the client has read the first chunk: an interceptor that held
    // chunks back would never get it, and the test would time out.
    let firstRead: () => void = () => {}
    const clientHasFirst = new Promise<void>((resolve) => {
      firstRead = resolve
    })
    const fake = await startFake(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      const chunk = (content: string) => ({
        id: "c",
        object: "chat.completion.chunk",
        model: "slow",
        choices: [{ index: 0, delta: { content }, finish_reason: null }],
        usage: null,
      })
      res.write(sse([chunk("first")]))
      await clientHasFirst
      res.write(sse([chunk(" second")]))
      res.write(
        sse([
          {
            id: "c",
            object: "chat.completion.chunk",
            model: "slow",
            choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
            usage: null,
          },
          {
            id: "c",
            object: "chat.completion.chunk",
            model: "slow",
            choices: [],
            usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
          },
          "[DONE]",
        ]),
      )
      res.end()
    })
    try {
      const { cid, inferenceUrl } = await open({ baseUrl: fake.url })
      const response = await post(`${inferenceUrl}/chat/completions`, { ...CHAT, stream: true })
      const reader = response.body!.getReader()
      const first = await reader.read()
      expect(new TextDecoder().decode(first.value)).toContain('"first"')
      firstRead()
      let rest = ""
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        rest += new TextDecoder().decode(value)
      }
      expect(rest).toContain(" second")
      expect(rest).not.toContain("usage")
      const [call] = await close(cid)
      expect(call).toMatchObject({
        outcome: "ok",
        model: "baseline",
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        response_message: { role: "assistant", content: "first second" },
      })
      // The first token was timed when it passed, not when the answer ended (after the client's read).
      expect(call!.ttft_ms!).toBeLessThan(call!.latency_ms)
      // The interceptor asked for the usage chunk on the client's behalf.
      expect(JSON.parse(fake.seen.at(-1)!.body).stream_options).toEqual({ include_usage: true })
    } finally {
      await fake.close()
    }
  })

  it("aborts the upstream request and records `cancelled` when the client disconnects mid-stream", async () => {
    let upstreamClosed!: () => void
    const closedUpstream = new Promise<void>((resolve) => {
      upstreamClosed = resolve
    })
    const fake = await startFake(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.on("close", upstreamClosed)
      res.write(
        sse([
          {
            id: "c",
            object: "chat.completion.chunk",
            model: "m",
            choices: [{ index: 0, delta: { content: "partial" } }],
          },
        ]),
      )
      // A slow model: a chunk every 100 ms until the interceptor hangs up.
      while (!res.destroyed) {
        await sleep(100)
        if (!res.destroyed) res.write(": still thinking\n\n")
      }
    })
    try {
      const { cid, inferenceUrl } = await open({ baseUrl: fake.url })
      const response = await post(`${inferenceUrl}/chat/completions`, { ...CHAT, stream: true })
      const reader = response.body!.getReader()
      const first = await reader.read()
      expect(new TextDecoder().decode(first.value)).toContain("partial")
      await reader.cancel()
      // The upstream sees its socket close: the undici request was destroyed, not left to run.
      await closedUpstream
      const calls = await close(cid)
      expect(calls).toHaveLength(1)
      expect(calls[0]).toMatchObject({
        outcome: "cancelled",
        status: 200,
        response_message: { role: "assistant", content: "partial" },
      })
      expect(proxy.interceptor.inFlight()).toBe(0)
    } finally {
      await fake.close()
    }
  })

  it("cancels a call still waiting for the upstream when the client leaves (baseline with latency)", async () => {
    const slow = await createBaselineModel({ latencyMs: 400 }).listen()
    try {
      const { cid } = await open({ baseUrl: slow.url })
      const port = new URL(proxy.url).port
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: `/${cid}/v1/chat/completions`,
        headers: { "content-type": "application/json" },
      })
      req.on("error", () => {})
      req.end(JSON.stringify(CHAT))
      // The client leaves once its call waits on the upstream.
      await log.waitFor(() => proxy.interceptor.inFlight() === 1)
      req.destroy()
      await log.waitFor(() => proxy.interceptor.inFlight() === 0)
      const calls = await close(cid)
      expect(calls).toHaveLength(1)
      expect(calls[0]).toMatchObject({ outcome: "cancelled", status: null })
    } finally {
      await slow.close()
    }
  })

  it("cuts the client off when the upstream dies mid-stream, keeping what was said", async () => {
    // The upstream dies once the client has read what it said so far.
    let halfRead: () => void = () => {}
    const clientHasHalf = new Promise<void>((resolve) => {
      halfRead = resolve
    })
    const fake = await startFake(async (req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.write(
        sse([
          { id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: "half" } }] },
        ]),
      )
      await clientHasHalf
      req.socket.destroy()
    })
    try {
      const { cid, inferenceUrl } = await open({ baseUrl: fake.url })
      const response = await post(`${inferenceUrl}/chat/completions`, { ...CHAT, stream: true })
      expect(response.status).toBe(200)
      const reader = response.body!.getReader()
      expect(new TextDecoder().decode((await reader.read()).value)).toContain("half")
      halfRead()
      // A clean end would pass a truncated answer off as complete; the client must see the failure.
      const readToEnd = async () => {
        while (!(await reader.read()).done) {}
      }
      await expect(readToEnd()).rejects.toThrow()
      const [call] = await close(cid)
      expect(call).toMatchObject({ outcome: "error", status: 200, response_message: { content: "half" } })
      expect(call!.error).toContain("mid-response")
    } finally {
      await fake.close()
    }
  })

  it("closing a rollout aborts its calls in flight and records them", async () => {
    const slow = await createBaselineModel({ latencyMs: 2000 }).listen()
    try {
      const { cid, inferenceUrl } = await open({ baseUrl: slow.url })
      const pending = post(`${inferenceUrl}/chat/completions`, CHAT).then(
        (response) => response.status,
        () => "failed" as const,
      )
      await log.waitFor(() => proxy.interceptor.inFlight() === 1)
      const calls = await close(cid)
      expect(calls).toHaveLength(1)
      expect(calls[0]).toMatchObject({ outcome: "cancelled", error: "rollout closed before the call finished" })
      expect(await pending).toBe("failed")
    } finally {
      await slow.close()
    }
  })
})

describe("interceptor: OpenAI Responses API", () => {
  const RESPONSE = {
    id: "resp_1",
    object: "response",
    status: "completed",
    model: "gpt-5-mini-2025-08-07",
    output: [
      { type: "reasoning", id: "rs_1", summary: [] },
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Hello there", annotations: [] }],
      },
    ],
    usage: {
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 8 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 24 },
      total_tokens: 50,
    },
  }
  let fake: Fake
  beforeAll(async () => {
    fake = await startFake((_req, res, body) => {
      if (JSON.parse(body).stream !== true) {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify(RESPONSE))
        return
      }
      res.writeHead(200, { "content-type": "text/event-stream" })
      const inProgress = { ...RESPONSE, status: "in_progress", output: [], usage: null }
      res.end(
        sse(
          [
            { type: "response.created", sequence_number: 0, response: inProgress },
            { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: RESPONSE.output[0] },
            { type: "response.output_item.done", sequence_number: 2, output_index: 0, item: RESPONSE.output[0] },
            { type: "response.output_text.delta", sequence_number: 3, output_index: 1, delta: "Hello" },
            { type: "response.output_text.delta", sequence_number: 4, output_index: 1, delta: " there" },
            { type: "response.output_item.done", sequence_number: 5, output_index: 1, item: RESPONSE.output[1] },
            { type: "response.completed", sequence_number: 6, response: RESPONSE },
          ],
          true,
        ),
      )
    })
  })
  afterAll(() => fake.close())

  const REQUEST = { model: "gpt-5-mini", input: [{ role: "user", content: "hi" }], reasoning: { effort: "low" } }

  it("records JSON answers with cached and reasoning tokens", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: fake.url, provider: "openai" })
    const response = await post(`${inferenceUrl}/responses`, REQUEST)
    expect(await response.json()).toEqual(RESPONSE)
    expect(fake.seen.at(-1)!.path).toBe("/v1/responses")
    const [call] = await close(cid)
    expect(call).toMatchObject({
      api: "responses",
      provider: "openai",
      model: "gpt-5-mini",
      stream: false,
      request: REQUEST,
      outcome: "ok",
      finish_reason: "stop",
      response_message: RESPONSE.output,
      usage: { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50, cached_tokens: 8, reasoning_tokens: 24 },
    })
  })

  it("streams events through and reads usage from response.completed", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: fake.url })
    const response = await post(`${inferenceUrl}/responses`, { ...REQUEST, stream: true })
    const text = await response.text()
    expect(text).toContain("event: response.completed")
    expect(sseData(text)).toHaveLength(7)
    const [call] = await close(cid)
    expect(call).toMatchObject({
      api: "responses",
      stream: true,
      outcome: "ok",
      request: REQUEST,
      response_message: RESPONSE.output,
      usage: { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50, cached_tokens: 8, reasoning_tokens: 24 },
    })
    expect(call!.ttft_ms).not.toBeNull()
    // Responses streams always carry usage: nothing was added to the request.
    expect(JSON.parse(fake.seen.at(-1)!.body).stream_options).toBeUndefined()
  })
})

describe("interceptor: Anthropic Messages API", () => {
  const MESSAGE = {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    content: [
      { type: "text", text: "Let me check." },
      { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens: 25 },
  }
  let fake: Fake
  beforeAll(async () => {
    fake = await startFake((_req, res, body) => {
      if (JSON.parse(body).stream !== true) {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify(MESSAGE))
        return
      }
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" })
      const start = { ...MESSAGE, content: [], stop_reason: null, usage: { ...MESSAGE.usage, output_tokens: 1 } }
      res.end(
        sse(
          [
            { type: "message_start", message: start },
            { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
            { type: "ping" },
            { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me " } },
            { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "check." } },
            { type: "content_block_stop", index: 0 },
            {
              type: "content_block_start",
              index: 1,
              content_block: { type: "tool_use", id: "toolu_01", name: "get_weather", input: {} },
            },
            { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"city": ' } },
            { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '"Paris"}' } },
            { type: "content_block_stop", index: 1 },
            {
              type: "message_delta",
              delta: { stop_reason: "tool_use", stop_sequence: null },
              usage: { output_tokens: 25 },
            },
            { type: "message_stop" },
          ],
          true,
        ),
      )
    })
  })
  afterAll(() => fake.close())

  const REQUEST = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: "You help with weather.",
    tools: [{ name: "get_weather", input_schema: { type: "object" } }],
    messages: [{ role: "user", content: "Weather in Paris?" }],
  }
  const USAGE = {
    prompt_tokens: 112,
    completion_tokens: 25,
    total_tokens: 137,
    cached_tokens: 100,
    reasoning_tokens: null,
  }

  it("records JSON answers, sending x-api-key and keeping anthropic-version", async () => {
    const key = "sk-ant-configured"
    const { cid, inferenceUrl } = await open({ baseUrl: fake.url, apiKey: Redacted.make(key) })
    const response = await post(`${inferenceUrl}/messages`, REQUEST, {
      "x-api-key": "sk-ant-task-app",
      "anthropic-version": "2023-06-01",
    })
    expect(await response.json()).toEqual(MESSAGE)
    const seen = fake.seen.at(-1)!
    expect(seen.path).toBe("/v1/messages")
    expect(seen.headers["x-api-key"]).toBe(key)
    expect(seen.headers["anthropic-version"]).toBe("2023-06-01")
    expect(seen.headers.authorization).toBeUndefined()
    const [call] = await close(cid)
    expect(call).toMatchObject({
      api: "messages",
      model: "claude-sonnet-4-5",
      request: REQUEST,
      outcome: "ok",
      finish_reason: "tool_use",
      response_message: { role: "assistant", content: MESSAGE.content },
      usage: USAGE,
    })
    expect(JSON.stringify(call)).not.toContain(key)
  })

  it("streams events through and joins usage from message_start and message_delta", async () => {
    const { cid, inferenceUrl } = await open({ baseUrl: fake.url })
    const response = await post(`${inferenceUrl}/messages`, { ...REQUEST, stream: true })
    const events = sseData(await response.text())
    expect(events).toHaveLength(12)
    const [call] = await close(cid)
    expect(call).toMatchObject({
      api: "messages",
      stream: true,
      outcome: "ok",
      finish_reason: "tool_use",
      response_message: { role: "assistant", content: MESSAGE.content },
      usage: USAGE,
    })
    expect(call!.ttft_ms).not.toBeNull()
  })
})
