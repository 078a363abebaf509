import { MATH_TOOLS, problemForSeed, SYSTEM_PROMPT } from "@proctor/example-math"
import type { Pool } from "undici"

export const HEADERS = {
  "content-type": "application/json",
  accept: "application/json",
  authorization: "Bearer task-app-placeholder",
}

/** The model APIs the interceptor speaks: chat completions (task apps), the Responses API (Codex CLI), Anthropic messages (Claude Code). */
export type BenchApi = "chat_completions" | "responses" | "messages"

/** Each API's endpoint under a base URL (`…/v1`). */
export const API_PATH: Readonly<Record<BenchApi, string>> = {
  chat_completions: "/chat/completions",
  responses: "/responses",
  messages: "/messages",
}

/**
 * What the math task app sends on its first turn (system prompt, problem, its two tools), for one seed, in each API's
 * shape. The agent APIs are asked without tools, so the baseline model answers them with text to time.
 */
export const requestBody = (api: BenchApi, seed: number, stream: boolean): string => {
  const question = problemForSeed(seed).question
  const streaming = stream ? { stream: true } : {}
  switch (api) {
    case "chat_completions":
      return JSON.stringify({
        model: "gpt-4o-mini",
        temperature: 0,
        tools: MATH_TOOLS,
        // Streams are asked for text, so there are content deltas to time.
        tool_choice: stream ? "none" : "auto",
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: question },
        ],
        ...streaming,
      })
    case "responses":
      return JSON.stringify({
        model: "gpt-4o-mini",
        instructions: SYSTEM_PROMPT,
        input: [{ role: "user", content: question }],
        ...streaming,
      })
    case "messages":
      return JSON.stringify({
        model: "claude-haiku-4-5",
        max_tokens: 256,
        system: SYSTEM_PROMPT,
        messages: [{ role: "user", content: question }],
        ...streaming,
      })
  }
}

const bodiesOf = (api: BenchApi) =>
  Array.from({ length: 64 }, (_, seed) => ({ json: requestBody(api, seed, false), sse: requestBody(api, seed, true) }))

export const BODIES: Readonly<Record<BenchApi, ReadonlyArray<{ readonly json: string; readonly sse: string }>>> = {
  chat_completions: bodiesOf("chat_completions"),
  responses: bodiesOf("responses"),
  messages: bodiesOf("messages"),
}

export interface Timing {
  /** Send → last byte (JSON) or → first content delta (SSE), ms. */
  readonly ms: number
  readonly ok: boolean
  /** When it was sent (performance.now()). */
  readonly t0: number
}

/** The first text of an answer in each API's stream events, and the event that closes a whole stream. */
const TEXT_DELTA: Readonly<Record<BenchApi, (data: Record<string, unknown>) => boolean>> = {
  chat_completions: (chunk) => {
    const choices = chunk.choices as Array<{ delta?: { content?: unknown } }> | undefined
    const content = choices?.[0]?.delta?.content
    return typeof content === "string" && content !== ""
  },
  responses: (event) => event.type === "response.output_text.delta" && event.delta !== "",
  messages: (event) =>
    event.type === "content_block_delta" && (event.delta as { type?: string } | undefined)?.type === "text_delta",
}
const STREAM_END: Readonly<Record<BenchApi, string>> = {
  chat_completions: "data: [DONE]",
  responses: "response.completed",
  messages: "message_stop",
}

export const hasContentDelta = (events: string, api: BenchApi = "chat_completions"): boolean => {
  for (const event of events.split("\n\n")) {
    const data = event.split("\n").find((line) => line.startsWith("data: "))
    if (data === undefined || data === "data: [DONE]") continue
    try {
      if (TEXT_DELTA[api](JSON.parse(data.slice(6)) as Record<string, unknown>)) return true
    } catch {
      // a torn event: the rest arrives in the next chunk
    }
  }
  return false
}

/** A whole JSON answer of each API: its output and its usage. */
const ANSWERED: Readonly<Record<BenchApi, (answer: Record<string, unknown>) => boolean>> = {
  chat_completions: (answer) => Array.isArray(answer.choices) && answer.choices[0] !== undefined,
  responses: (answer) => Array.isArray(answer.output) && answer.output[0] !== undefined,
  messages: (answer) => Array.isArray(answer.content) && answer.content[0] !== undefined,
}

export const timeJson = async (
  pool: Pool,
  path: string,
  body: string,
  api: BenchApi = "chat_completions",
): Promise<Timing> => {
  const t0 = performance.now()
  const res = await pool.request({ method: "POST", path, headers: HEADERS, body })
  const text = await res.body.text()
  const ms = performance.now() - t0
  let ok = res.statusCode === 200
  if (ok) {
    const answer = JSON.parse(text) as Record<string, unknown>
    ok = ANSWERED[api](answer) && answer.usage !== undefined
  }
  return { ms, ok, t0 }
}

/** Time to the first content delta; the rest of the stream is read to the end and checked. */
export const timeStream = async (
  pool: Pool,
  path: string,
  body: string,
  api: BenchApi = "chat_completions",
): Promise<Timing> => {
  const t0 = performance.now()
  const res = await pool.request({ method: "POST", path, headers: HEADERS, body })
  let ttft: number | null = null
  let seen = ""
  let scanned = 0
  for await (const chunk of res.body) {
    seen += (chunk as Buffer).toString("utf8")
    if (ttft === null) {
      const end = seen.lastIndexOf("\n\n")
      if (end >= scanned) {
        if (hasContentDelta(seen.slice(scanned, end), api)) ttft = performance.now() - t0
        scanned = end + 2
      }
    }
  }
  const ok = res.statusCode === 200 && ttft !== null && seen.includes(STREAM_END[api])
  return { ms: ttft ?? performance.now() - t0, ok, t0 }
}
