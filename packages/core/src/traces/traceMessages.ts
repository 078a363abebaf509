import { isRecord } from "../internal/isRecord.js"
import type { ModelApi } from "../result/ModelCall.js"
import type { LlmContentPart, LlmMessage, ToolCallSpec } from "./SessionTrace.js"

/** Converting the recorded request and answer of each API into synth-ai's message records. */

type JsonObject = Readonly<Record<string, unknown>>

// Re-exported for the viewer, which reaches core only through this module's subpath (`@proctor/core/trace-messages`).
export { isRecord }
export const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)
export const num = (u: unknown): number | null => (typeof u === "number" && Number.isFinite(u) ? u : null)

const parseObject = (json: string): JsonObject | null => {
  try {
    const value: unknown = JSON.parse(json)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

// ---- messages -------------------------------------------------------------------------------------------------

const textPart = (text: string): LlmContentPart => ({ type: "text", text })

const contentPart = (item: unknown): LlmContentPart => {
  if (typeof item === "string") return textPart(item)
  if (!isRecord(item)) return { type: "json", data: item }
  const type = str(item.type)
  switch (type) {
    case "text":
    case "input_text":
    case "output_text":
      return textPart(str(item.text) ?? "")
    case "image_url":
    case "input_image": {
      const image = item.image_url
      const uri = typeof image === "string" ? image : isRecord(image) ? str(image.url) : undefined
      return uri === undefined ? { type: "image", data: item } : { type: "image", uri }
    }
    case "image": {
      const source = isRecord(item.source) ? item.source : undefined
      const mime = source === undefined ? undefined : str(source.media_type)
      return { type: "image", data: source ?? item, ...(mime === undefined ? {} : { mime_type: mime }) }
    }
    case "thinking":
      return { type: "thinking", text: str(item.thinking) ?? "" }
    case "refusal":
      return { type: "refusal", text: str(item.refusal) ?? "" }
    case "tool_result": {
      const text = str(item.content)
      return { type: "tool_result", data: item, ...(text === undefined ? {} : { text }) }
    }
    default:
      return { type: type ?? "json", data: item }
  }
}

const contentParts = (content: unknown): ReadonlyArray<LlmContentPart> =>
  content === null || content === undefined
    ? []
    : Array.isArray(content)
      ? content.map(contentPart)
      : [contentPart(content)]

/** Chat `tool_calls[]`, Anthropic `tool_use` blocks and Responses `function_call` items, in one shape. */
const toolCallSpec = (call: unknown, index: number): ToolCallSpec | undefined => {
  if (!isRecord(call)) return undefined
  const fn = isRecord(call.function) ? call.function : call
  const name = str(fn.name)
  if (name === undefined) return undefined
  const raw = call.type === "tool_use" ? call.input : fn.arguments
  const json = typeof raw === "string" ? raw : JSON.stringify(raw ?? {})
  return {
    name,
    arguments_json: json,
    arguments: parseObject(json),
    call_id: str(call.id) ?? str(call.call_id) ?? null,
    index,
  }
}

const toolCallsOf = (item: unknown): ReadonlyArray<unknown> => {
  if (!isRecord(item)) return []
  if (item.type === "function_call") return [item]
  const chat = Array.isArray(item.tool_calls) ? item.tool_calls : []
  const blocks = Array.isArray(item.content) ? item.content.filter((b) => isRecord(b) && b.type === "tool_use") : []
  return [...chat, ...blocks]
}

/** Output messages leave tool calls to `output_tool_calls`; input messages keep them as `tool_call` parts. */
const message = (m: unknown, defaultRole: string, keepToolCalls: boolean): LlmMessage => {
  if (!isRecord(m)) return { role: defaultRole, parts: contentParts(m), metadata: {} }
  const name = str(m.name)
  const toolCallId = str(m.tool_call_id) ?? str(m.call_id)
  const optional = {
    ...(name === undefined ? {} : { name }),
    ...(toolCallId === undefined ? {} : { tool_call_id: toolCallId }),
  }
  if (m.type === "function_call") return { role: "assistant", parts: [{ type: "tool_call", data: m }], metadata: {} }
  if (m.type === "function_call_output") {
    const output = str(m.output) ?? JSON.stringify(m.output ?? null)
    return { role: "tool", parts: [textPart(output)], ...optional, metadata: {} }
  }
  if (m.role === undefined && m.content === undefined) {
    return { role: defaultRole, parts: [{ type: str(m.type) ?? "json", data: m }], metadata: {} }
  }
  const reasoning = str(m.reasoning_content) ?? str(m.reasoning)
  const parts = [
    ...(reasoning === undefined ? [] : [{ type: "reasoning", text: reasoning }]),
    ...contentParts(m.content).filter((p) => keepToolCalls || p.type !== "tool_use"),
    ...(keepToolCalls && Array.isArray(m.tool_calls) ? m.tool_calls.map((data) => ({ type: "tool_call", data })) : []),
  ]
  return { role: str(m.role) ?? defaultRole, parts, ...optional, metadata: {} }
}

export const inputMessages = (api: ModelApi, request: unknown): ReadonlyArray<LlmMessage> => {
  if (!isRecord(request)) return []
  const system = api === "messages" ? request.system : api === "responses" ? request.instructions : undefined
  const head: ReadonlyArray<LlmMessage> =
    system === undefined || system === null ? [] : [{ role: "system", parts: contentParts(system), metadata: {} }]
  const body = api === "responses" ? request.input : request.messages
  const items = body === undefined || body === null ? [] : Array.isArray(body) ? body : [body]
  return [...head, ...items.map((m) => message(m, "user", true))]
}

export const outputOf = (response: unknown) => {
  const items = response === undefined || response === null ? [] : Array.isArray(response) ? response : [response]
  const messages = items
    .filter((item) => !(isRecord(item) && item.type === "function_call"))
    .map((item) => message(item, "assistant", false))
  const toolCalls = items
    .flatMap(toolCallsOf)
    .flatMap((call, i) => {
      const spec = toolCallSpec(call, i)
      return spec === undefined ? [] : [spec]
    })
    .map((spec, index) => ({ ...spec, index }))
  const texts = messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.type === "text" && p.text !== undefined ? [p.text] : [])),
  )
  return { messages, toolCalls, text: texts.length === 0 ? null : texts.join("") }
}

// ---- records and events ---------------------------------------------------------------------------------------

const MESSAGE_KEYS = new Set(["messages", "input", "system", "instructions"])

export const requestParams = (request: unknown): JsonObject => {
  if (!isRecord(request)) return { raw_params: {} }
  const stop = request.stop
  return {
    temperature: num(request.temperature),
    top_p: num(request.top_p),
    max_tokens: num(request.max_completion_tokens) ?? num(request.max_tokens) ?? num(request.max_output_tokens),
    stop: typeof stop === "string" ? [stop] : Array.isArray(stop) ? stop : null,
    top_k: num(request.top_k),
    seed: num(request.seed),
    n: num(request.n),
    response_format: isRecord(request.response_format) ? request.response_format : null,
    raw_params: Object.fromEntries(Object.entries(request).filter(([key]) => !MESSAGE_KEYS.has(key))),
  }
}

export const toolChoice = (request: unknown): string | null => {
  if (!isRecord(request) || request.tool_choice === undefined || request.tool_choice === null) return null
  return typeof request.tool_choice === "string" ? request.tool_choice : JSON.stringify(request.tool_choice)
}
