import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { countTokens, createBaselineModel, LATENCY_HEADER, type RunningBaselineModel } from "../src/index.js"

let model: RunningBaselineModel

beforeAll(async () => {
  model = await createBaselineModel({ modelName: "baseline-test" }).listen({ port: 0 })
})
afterAll(() => model.close())

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${model.url.replace(/\/v1$/, "")}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })

// biome-ignore lint/suspicious/noExplicitAny: tests read the OpenAI JSON shape loosely
type Json = any

const chat = async (body: Record<string, unknown>): Promise<Json> => {
  const response = await post("/v1/chat/completions", body)
  expect(response.status).toBe(200)
  return response.json()
}

/** Splits an SSE body into its `data:` payloads, checking the framing on the way. */
const sseEvents = async (response: Response): Promise<string[]> => {
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
  const text = await response.text()
  expect(text.endsWith("\n\n")).toBe(true)
  return text
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true)
      return block.slice("data: ".length)
    })
}

const hello = { messages: [{ role: "user", content: "Hello, world!" }] }

const mathTools = [
  { type: "function", function: { name: "calculator", parameters: { type: "object" } } },
  { type: "function", function: { name: "submit_answer", parameters: { type: "object" } } },
]
const mathProblem = {
  messages: [
    { role: "system", content: "Solve the arithmetic word problem. Use the calculator, then submit_answer." },
    { role: "user", content: "Tom has 5 apples. He buys 3 more. Then he gives away 2. How many apples are left?" },
  ],
  tools: mathTools,
}

describe("baseline model: JSON", () => {
  it("answers in OpenAI's chat.completion shape with honest usage", async () => {
    const body = await chat({ ...hello, model: "gpt-test", temperature: 0.7 })
    expect(body).toMatchObject({ object: "chat.completion", model: "gpt-test", choices: [{ index: 0 }] })
    expect(body.id).toMatch(/^chatcmpl-/)
    expect(Number.isInteger(body.created)).toBe(true)
    const [choice] = body.choices
    expect(choice.finish_reason).toBe("stop")
    expect(choice.message.role).toBe("assistant")
    expect(typeof choice.message.content).toBe("string")
    expect(choice.message.tool_calls).toBeUndefined()
    // "user" + "Hello" "," "world" "!"
    expect(body.usage.prompt_tokens).toBe(5)
    expect(body.usage.completion_tokens).toBe(countTokens(choice.message.content))
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens)
  })

  it("counts tool definitions and assistant tool calls in the prompt", async () => {
    const call = {
      id: "call_1",
      type: "function",
      function: { name: "calculator", arguments: '{"expression":"1 + 2"}' },
    }
    const messages = [
      { role: "user", content: "Add 1 and 2" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "call_1", content: "3" },
    ]
    const body = await chat({ messages, tools: mathTools })
    const expected =
      countTokens("user Add 1 and 2") +
      countTokens("assistant calculator") +
      countTokens(call.function.arguments) +
      countTokens("tool 3") +
      mathTools.reduce((sum, tool) => sum + countTokens(JSON.stringify(tool.function)), 0)
    expect(body.usage.prompt_tokens).toBe(expected)
  })

  it("reports the configured model name and accepts correlation ids in the path", async () => {
    const list: Json = await (await fetch(`${model.url}/models`)).json()
    expect(list).toEqual({ object: "list", data: [expect.objectContaining({ id: "baseline-test", object: "model" })] })
    for (const path of ["/chat/completions", "/trace_abc123/v1/chat/completions", "/v1/chat/completions?cid=x"]) {
      const response = await post(path, hello)
      expect(response.status).toBe(200)
      expect(((await response.json()) as Json).model).toBe("baseline-test")
    }
  })

  it("cuts text at max_tokens with finish_reason length", async () => {
    const body = await chat({ ...hello, max_tokens: 2 })
    expect(body.choices[0].finish_reason).toBe("length")
    expect(body.usage.completion_tokens).toBe(2)
  })

  it("answers bad requests with OpenAI's error shape", async () => {
    for (const [body, param] of [
      ["{not json", null],
      [{ model: "x" }, "messages"],
      [{ messages: [{ content: "no role" }] }, "messages[0].role"],
    ] as const) {
      const response = await post("/v1/chat/completions", body)
      expect(response.status).toBe(400)
      const error: Json = await response.json()
      expect(Object.keys(error.error).sort()).toEqual(["code", "message", "param", "type"])
      expect(error.error).toMatchObject({ message: expect.any(String), type: "invalid_request_error", param })
    }
    expect((await post("/v1/embeddings", hello)).status).toBe(404)
  })

  it("waits for the latency asked in the header", async () => {
    const started = performance.now()
    expect((await post("/v1/chat/completions", hello, { [LATENCY_HEADER]: "60" })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
  })
})

describe("baseline model: streaming", () => {
  it("streams content in several chunks, then finish_reason, usage and [DONE]", async () => {
    const request = { ...hello, stream: true, stream_options: { include_usage: true } }
    const events = await sseEvents(await post("/v1/chat/completions", request))
    expect(events.at(-1)).toBe("[DONE]")
    const chunks: Json[] = events.slice(0, -1).map((event) => JSON.parse(event))
    for (const chunk of chunks) expect(chunk).toMatchObject({ object: "chat.completion.chunk", model: "baseline-test" })
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1)
    const usageChunk = chunks.at(-1)
    expect(usageChunk.choices).toEqual([])
    const finish = chunks.at(-2)
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" })
    const contentChunks = chunks.slice(0, -2)
    expect(contentChunks[0].choices[0].delta.role).toBe("assistant")
    expect(contentChunks.length).toBeGreaterThan(2)
    const content = contentChunks.map((chunk) => chunk.choices[0].delta.content ?? "").join("")
    const plain = await chat(hello)
    expect(content).toBe(plain.choices[0].message.content)
    expect(usageChunk.usage).toEqual(plain.usage)
  })

  it("omits the usage chunk unless include_usage is set", async () => {
    const events = await sseEvents(await post("/v1/chat/completions", { ...hello, stream: true }))
    const chunks: Json[] = events.slice(0, -1).map((event) => JSON.parse(event))
    expect(chunks.every((chunk) => chunk.choices.length === 1 && chunk.usage === undefined)).toBe(true)
  })

  it("streams tool calls as a name delta and argument pieces", async () => {
    const request = { ...mathProblem, stream: true, stream_options: { include_usage: true } }
    const events = await sseEvents(await post("/v1/chat/completions", request))
    const chunks: Json[] = events.slice(0, -1).map((event) => JSON.parse(event))
    const deltas = chunks.flatMap((chunk) => chunk.choices.flatMap((choice: Json) => choice.delta.tool_calls ?? []))
    expect(deltas[0]).toMatchObject({ index: 0, id: expect.any(String), type: "function" })
    expect(deltas[0].function.name).toBe("calculator")
    expect(deltas.length).toBeGreaterThan(2)
    const streamedArguments = deltas.map((delta: Json) => delta.function.arguments).join("")
    const plain = await chat(mathProblem)
    expect(streamedArguments).toBe(plain.choices[0].message.tool_calls[0].function.arguments)
    expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls")
    expect(chunks.at(-1).usage).toEqual(plain.usage)
  })
})
