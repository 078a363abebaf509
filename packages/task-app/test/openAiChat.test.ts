import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChatCompletion, ChatCompletionError, chatCompletion, sessionTrace } from "../src/index.js"

interface Seen {
  readonly url: string
  readonly authorization: string | undefined
  readonly body: Record<string, unknown>
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

const completion: ChatCompletion = {
  id: "c1",
  model: "fake",
  choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
}

describe("chatCompletion", () => {
  const seen: Seen[] = []
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const body = JSON.parse(await readBody(request)) as Record<string, unknown>
      seen.push({ url: request.url ?? "", authorization: request.headers.authorization, body })
      const mode = body.model
      if (mode === "overloaded") {
        response.writeHead(503, { "retry-after": "3", "content-type": "application/json" })
        return response.end('{"error":"overloaded"}')
      }
      if (mode === "bad-request") {
        response.writeHead(400, { "content-type": "application/json" })
        return response.end('{"error":{"message":"unknown model"}}')
      }
      response.writeHead(200, { "content-type": "application/json" })
      response.end(mode === "garbled" ? "<html>" : JSON.stringify(completion))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("posts to the chat URL of the inference URL, keeping the query, and parses the answer", async () => {
    const answer = await chatCompletion({
      inferenceUrl: `${base}/v1?cid=trace_x`,
      body: { model: "fake", messages: [] },
      apiKey: "sk-upstream",
    })
    expect(answer).toEqual(completion)
    expect(seen.at(-1)).toEqual({
      url: "/v1/chat/completions?cid=trace_x",
      authorization: "Bearer sk-upstream",
      body: { model: "fake", messages: [] },
    })
  })

  it("sends no Authorization without a key", async () => {
    await chatCompletion({ inferenceUrl: base, body: { model: "fake", messages: [] } })
    expect(seen.at(-1)?.authorization).toBeUndefined()
  })

  it("a 5xx carries its status and Retry-After and is retryable", async () => {
    const error = await chatCompletion({ inferenceUrl: base, body: { model: "overloaded" } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChatCompletionError)
    expect(error).toMatchObject({ reason: "HttpStatus", status: 503, retryAfter: "3", retryable: true })
  })

  it("a 4xx is not retryable", async () => {
    const error = await chatCompletion({ inferenceUrl: base, body: { model: "bad-request" } }).catch((e: unknown) => e)
    expect(error).toMatchObject({ reason: "HttpStatus", status: 400, retryable: false })
    expect((error as Error).message).toContain("unknown model")
  })

  it("a 2xx that is not a completion is MalformedBody", async () => {
    const error = await chatCompletion({ inferenceUrl: base, body: { model: "garbled" } }).catch((e: unknown) => e)
    expect(error).toMatchObject({ reason: "MalformedBody", status: 200, retryable: true })
  })

  it("an unreachable model is Unreachable and never shows the key", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const error = await chatCompletion({
      inferenceUrl: `http://127.0.0.1:${port}`,
      body: {},
      apiKey: "sk-secret",
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ reason: "Unreachable", retryable: true })
    expect((error as Error).message).not.toContain("sk-secret")
  })

  it("an abort rejects with the abort, not a model error", async () => {
    const error = await chatCompletion({
      inferenceUrl: base,
      body: { model: "fake" },
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(ChatCompletionError)
    expect((error as Error).name).toBe("AbortError")
  })
})

describe("sessionTrace", () => {
  it("builds a v3 trace with one lm_call event per call and summed usage", () => {
    const startedAt = new Date("2025-01-02T03:04:05.000Z")
    const messages = [{ role: "user", content: "2+2?" }]
    const trace = sessionTrace({
      sessionId: "run-1",
      calls: [
        { messages, completion, startedAt },
        { messages, completion: { choices: [{ message: { role: "assistant", content: "4" } }] }, model: "m" },
      ],
      metadata: { seed: 1 },
    })
    expect(trace).toMatchObject({
      schema_version: "3.0",
      session_id: "run-1",
      created_at: "2025-01-02T03:04:05.000Z",
      markov_blanket_message_history: [],
      metadata: { seed: 1, session_id: "run-1" },
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    })
    expect(trace.event_history[0]).toEqual({
      type: "lm_call",
      timestamp: "2025-01-02T03:04:05.000Z",
      llm_request: { messages, model: "fake" },
      llm_response: {
        message: { role: "assistant", content: "hi" },
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        finish_reason: "stop",
        model: "fake",
      },
    })
    expect(trace.event_history[1]).toMatchObject({
      llm_request: { model: "m" },
      llm_response: { usage: {}, finish_reason: null },
    })
  })

  it("has no usage when no call reported any", () => {
    const trace = sessionTrace({ sessionId: "s", calls: [] })
    expect(trace.usage).toBeUndefined()
    expect(trace.event_history).toEqual([])
  })
})
