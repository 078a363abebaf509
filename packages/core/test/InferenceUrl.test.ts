import { describe, expect, it } from "vitest"
import { chatCompletionsUrl, correlationIdOf } from "../src/interceptor/InferenceUrl.js"

describe("chatCompletionsUrl", () => {
  it.each([
    ["http://127.0.0.1:8000/v1/chat/completions", "http://127.0.0.1:8000/v1/chat/completions"],
    ["http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1/chat/completions"],
    ["http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1/chat/completions"],
    ["http://127.0.0.1:8000", "http://127.0.0.1:8000/v1/chat/completions"],
    ["http://127.0.0.1:8000/", "http://127.0.0.1:8000/v1/chat/completions"],
    ["https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1/chat/completions"],
    ["https://host/proxy/trace_abc", "https://host/proxy/trace_abc/v1/chat/completions"],
  ])("%s → %s", (input, expected) => {
    expect(chatCompletionsUrl(input)).toBe(expected)
  })

  it("keeps the query string", () => {
    expect(chatCompletionsUrl("http://h/v1?cid=trace_1&x=2")).toBe("http://h/v1/chat/completions?cid=trace_1&x=2")
    expect(chatCompletionsUrl("http://h/chat/completions?cid=c")).toBe("http://h/chat/completions?cid=c")
    expect(chatCompletionsUrl("http://h?cid=c")).toBe("http://h/v1/chat/completions?cid=c")
  })
})

describe("correlationIdOf", () => {
  it("reads the path segment before chat/completions", () => {
    expect(correlationIdOf("http://h/api/interceptor/v1/trace_run-1/chat/completions")).toBe("trace_run-1")
    expect(correlationIdOf("http://h/v1/cid_42/chat/completions")).toBe("cid_42")
    expect(correlationIdOf("http://h/eval_7/v1")).toBe("eval_7")
  })

  it("prefers the path over the query", () => {
    expect(correlationIdOf("http://h/trace_path/v1?cid=from_query")).toBe("trace_path")
  })

  it("reads the cid and trace_correlation_id query parameters", () => {
    expect(correlationIdOf("http://h/v1/chat/completions?cid=abc")).toBe("abc")
    expect(correlationIdOf("http://h/v1?trace_correlation_id=run-9")).toBe("run-9")
    expect(correlationIdOf("http://h/v1?cid=&trace_correlation_id=t")).toBe("t")
  })

  it("does not mistake the host or ordinary segments for an id", () => {
    expect(correlationIdOf("http://trace_host/v1/chat/completions")).toBeNull()
    expect(correlationIdOf("http://h/v1/chat/completions")).toBeNull()
    expect(correlationIdOf("http://h/v1?other=1")).toBeNull()
  })

  it("accepts a relative URL", () => {
    expect(correlationIdOf("/v1/trace_rel/chat/completions")).toBe("trace_rel")
  })
})
