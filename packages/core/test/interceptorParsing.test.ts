import { describe, expect, it } from "@effect/vitest"
import { inferProvider, upstreamUrl } from "../src/interceptor/InferenceUrl.js"
import { DROP, TOKEN } from "../src/interceptor/internal/ApiAdapter.js"
import { chatCompletionsAdapter } from "../src/interceptor/internal/chatCompletions.js"
import { clientHeaders, upstreamHeaders } from "../src/interceptor/internal/http.js"
import { withIncludeUsage } from "../src/interceptor/internal/includeUsage.js"
import { messagesAdapter } from "../src/interceptor/internal/messages.js"
import { responsesAdapter } from "../src/interceptor/internal/responses.js"
import { SseParser } from "../src/interceptor/internal/SseParser.js"
import { chatUsage, messagesUsage, responsesUsage } from "../src/interceptor/internal/usage.js"

type Seen = [raw: string, event: string | null, data: string | null]

const parseAll = (pieces: ReadonlyArray<Buffer | string>): Seen[] => {
  const parser = new SseParser()
  const seen: Seen[] = []
  const listener = (raw: string, event: string | null, data: string | null) => seen.push([raw, event, data])
  for (const piece of pieces) parser.push(typeof piece === "string" ? Buffer.from(piece) : piece, listener)
  parser.end(listener)
  return seen
}

describe("SseParser", () => {
  it("emits each event once complete, whatever the chunk boundaries", () => {
    const body = 'event: a\ndata: {"x":1}\n\ndata: line1\ndata: line2\n\n: keep-alive\n\ndata: [DONE]\n\n'
    const whole = parseAll([body])
    expect(whole.map(([, event, data]) => [event, data])).toEqual([
      ["a", '{"x":1}'],
      [null, "line1\nline2"],
      [null, null],
      [null, "[DONE]"],
    ])
    const bytes = Buffer.from(body)
    const oneByOne = parseAll(Array.from(bytes, (byte) => Buffer.from([byte])))
    expect(oneByOne).toEqual(whole)
  })

  it("handles CRLF (also split across chunks), multi-byte characters cut in half and a missing last blank line", () => {
    const euro = Buffer.from("data: 5 €\r\n\r\ndata: end", "utf8")
    const cut = euro.indexOf(0xe2) + 1
    const crlf = euro.indexOf(0x0d) + 1
    const pieces = [euro.subarray(0, cut), euro.subarray(cut, crlf), euro.subarray(crlf)]
    expect(parseAll(pieces).map(([, , data]) => data)).toEqual(["5 €", "end"])
  })

  it("does not lose an event split exactly at its blank line", () => {
    expect(parseAll(["data: a\n", "\ndata: b\n\n"]).map(([raw]) => raw)).toEqual(["data: a", "data: b"])
  })
})

describe("withIncludeUsage", () => {
  // The plain path: the request serialised again with the member set.
  const plain = (request: Record<string, unknown>) => {
    const options = request.stream_options
    const merged = typeof options === "object" && options !== null && !Array.isArray(options) ? options : {}
    return JSON.stringify({ ...request, stream_options: { ...merged, include_usage: true } })
  }
  const bodies = [
    '{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}',
    '{\n  "model": "m",\n  "stream": true,\n  "messages": [{"role": "user", "content": "} \\"} €"}]\n}\n  \t',
    '{"stream":true,"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}   ',
    '{"stream":true,"2":"numeric keys go first","a":{}}',
    '{"stream":true,"stream_options":{"include_usage":false,"other":1}}',
    '{"stream":true,"stream_options":null}',
    '{"stream":true,"stream_options":[1]}',
  ]

  it.each(bodies)("asks for the same JSON, key order included, as serialising the request again: %s", (text) => {
    const request = JSON.parse(text) as Record<string, unknown>
    const sent = withIncludeUsage(Buffer.from(text), request)
    const asSent = JSON.parse(typeof sent === "string" ? sent : sent.toString("utf8"))
    expect(JSON.stringify(asSent)).toBe(plain(request))
  })

  it("adds to the client's own bytes when it sent no stream_options", () => {
    const text = '{"stream":true, "n":1.0}\n'
    expect(withIncludeUsage(Buffer.from(text), JSON.parse(text)).toString()).toBe(
      '{"stream":true, "n":1.0,"stream_options":{"include_usage":true}}\n',
    )
  })
})

describe("upstream URLs and providers", () => {
  it("derives each API's endpoint from the base, keeping its query", () => {
    expect(upstreamUrl("http://h:1/v1", "chat_completions")).toBe("http://h:1/v1/chat/completions")
    expect(upstreamUrl("http://h:1", "responses")).toBe("http://h:1/v1/responses")
    expect(upstreamUrl("http://h:1/v1/", "messages")).toBe("http://h:1/v1/messages")
    expect(upstreamUrl("https://gw.example/openai/v1?api-version=2", "responses")).toBe(
      "https://gw.example/openai/v1/responses?api-version=2",
    )
    expect(upstreamUrl("https://api.openai.com/v1/chat/completions", "responses")).toBe(
      "https://api.openai.com/v1/responses",
    )
    expect(upstreamUrl("https://api.openai.com/v1/chat/completions", "chat_completions")).toBe(
      "https://api.openai.com/v1/chat/completions",
    )
  })

  it("infers well-known providers from the host only", () => {
    expect(inferProvider("https://api.openai.com/v1")).toBe("openai")
    expect(inferProvider("https://api.anthropic.com")).toBe("anthropic")
    expect(inferProvider("https://api.groq.com/openai/v1")).toBe("groq")
    expect(inferProvider("https://generativelanguage.googleapis.com/v1beta/openai")).toBe("google")
    expect(inferProvider("http://127.0.0.1:8000/v1")).toBeNull()
    expect(inferProvider("not a url")).toBeNull()
  })
})

describe("usage normalisation", () => {
  it("reads cached and reasoning tokens from each API's shape", () => {
    expect(
      chatUsage({
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 32 },
      }),
    ).toEqual({ prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, cached_tokens: 64, reasoning_tokens: 32 })
    expect(responsesUsage({ input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 0 } })).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      cached_tokens: 0,
      reasoning_tokens: null,
    })
    // Anthropic's input_tokens excludes cache reads and writes: prompt_tokens counts them all.
    expect(
      messagesUsage({ input_tokens: 5, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, output_tokens: 7 }),
    ).toEqual({
      prompt_tokens: 100,
      completion_tokens: 7,
      total_tokens: 107,
      cached_tokens: 90,
      reasoning_tokens: null,
    })
    expect(chatUsage(null)).toBeNull()
  })
})

describe("stream assemblers", () => {
  it("chat: joins content and tool-call deltas, flags tokens and the injected usage chunk", () => {
    const assembler = chatCompletionsAdapter.assembler(true)
    const chunk = (choices: unknown[], usage: unknown = null) =>
      JSON.stringify({ id: "c", model: "gpt-4o-mini-2024-07-18", choices, usage })
    const call = (delta: unknown) => chunk([{ index: 0, delta: { tool_calls: [delta] }, finish_reason: null }])
    expect(assembler.event(null, chunk([{ index: 0, delta: { role: "assistant", content: null } }]))).toBe(0)
    expect(assembler.event(null, call({ index: 0, id: "call_1", type: "function", function: { name: "add" } }))).toBe(
      TOKEN,
    )
    expect(assembler.event(null, call({ index: 0, function: { arguments: '{"a":' } }))).toBe(TOKEN)
    expect(assembler.event(null, call({ index: 1, id: "call_2", function: { name: "sub", arguments: "{}" } }))).toBe(
      TOKEN,
    )
    expect(assembler.event(null, call({ index: 0, function: { arguments: "1}" } }))).toBe(TOKEN)
    expect(assembler.event(null, chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]))).toBe(0)
    expect(assembler.event(null, chunk([], { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 }))).toBe(DROP)
    expect(assembler.event(null, "[DONE]")).toBe(0)
    expect(assembler.summary()).toEqual({
      model: "gpt-4o-mini-2024-07-18",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "add", arguments: '{"a":1}' } },
          { id: "call_2", type: "function", function: { name: "sub", arguments: "{}" } },
        ],
      },
      usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, cached_tokens: null, reasoning_tokens: null },
      finishReason: "tool_calls",
      error: null,
    })
  })

  it("chat: keeps the usage chunk when the client asked for it, and reports an in-band error", () => {
    const assembler = chatCompletionsAdapter.assembler(false)
    expect(assembler.event(null, JSON.stringify({ choices: [], usage: { prompt_tokens: 1 } }))).toBe(0)
    assembler.event(null, JSON.stringify({ error: { message: "overloaded" } }))
    expect(assembler.summary().error).toBe("overloaded")
  })

  it("responses: a cancelled stream keeps the finished items and the text so far", () => {
    const assembler = responsesAdapter.assembler(false)
    assembler.event("response.created", JSON.stringify({ type: "response.created", response: { model: "gpt-5" } }))
    assembler.event(null, JSON.stringify({ type: "response.output_item.done", item: { type: "reasoning" } }))
    expect(assembler.event(null, JSON.stringify({ type: "response.output_text.delta", delta: "Hel" }))).toBe(TOKEN)
    expect(assembler.summary()).toMatchObject({
      model: "gpt-5",
      usage: null,
      message: [
        { type: "reasoning" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hel" }] },
      ],
    })
  })

  it("responses: maps function calls and incomplete answers onto a finish reason", () => {
    expect(
      responsesAdapter.fromJson({ status: "completed", output: [{ type: "function_call", name: "f" }] }).finishReason,
    ).toBe("tool_calls")
    expect(
      responsesAdapter.fromJson({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } })
        .finishReason,
    ).toBe("max_output_tokens")
    expect(responsesAdapter.fromJson({ status: "failed", error: { message: "boom" } }).error).toBe("boom")
  })

  it("messages: an error event marks the call as failed", () => {
    const assembler = messagesAdapter.assembler(false)
    assembler.event(
      "error",
      JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    )
    expect(assembler.summary()).toMatchObject({ error: "Overloaded", message: null })
  })
})

describe("headers", () => {
  it("replaces the task app's credentials with the configured key, per API", () => {
    const incoming = { authorization: "Bearer mine", "x-api-key": "mine", cookie: "c=1", accept: "text/event-stream" }
    expect(upstreamHeaders(incoming, "chat_completions", "sk-up")).toEqual({
      "content-type": "application/json",
      "accept-encoding": "identity",
      accept: "text/event-stream",
      authorization: "Bearer sk-up",
    })
    expect(upstreamHeaders(incoming, "messages", "sk-ant")).toMatchObject({
      "x-api-key": "sk-ant",
      "anthropic-version": "2023-06-01",
    })
    expect(upstreamHeaders(incoming, "messages", null)).toMatchObject({
      authorization: "Bearer mine",
      "x-api-key": "mine",
    })
    expect(upstreamHeaders(incoming, "messages", null).cookie).toBeUndefined()
  })

  it("passes through what a client may act on and nothing hop-by-hop", () => {
    const upstream = {
      "content-type": "application/json",
      "content-length": "10",
      "retry-after": "3",
      "x-ratelimit-remaining-tokens": "0",
      "set-cookie": ["a=b"],
      connection: "keep-alive",
      "transfer-encoding": "chunked",
    }
    expect(clientHeaders(upstream, false)).toEqual({
      "content-type": "application/json",
      "retry-after": "3",
      "x-ratelimit-remaining-tokens": "0",
    })
    expect(clientHeaders(upstream, true)["content-length"]).toBe("10")
  })
})
