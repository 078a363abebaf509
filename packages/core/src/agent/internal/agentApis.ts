import { isRecord } from "../../internal/isRecord.js"
import type { ModelApi } from "../../result/ModelCall.js"

/**
 * The builtin agent's conversation, kept in one neutral form and written out in each API's shape: OpenAI chat
 * completions, the Responses API, Anthropic messages.
 */
export type Turn =
  | { readonly role: "user"; readonly text: string }
  | { readonly role: "assistant"; readonly text: string; readonly calls: ReadonlyArray<ToolCall> }
  | { readonly role: "tool"; readonly callId: string; readonly name: string; readonly output: string }

export interface ToolCall {
  readonly id: string
  readonly name: string
  /** The arguments as the model sent them (JSON text). */
  readonly arguments: string
}

export interface ToolSpec {
  readonly name: string
  readonly description: string
  readonly parameters: Record<string, unknown>
}

export interface ModelReply {
  readonly text: string
  readonly calls: ReadonlyArray<ToolCall>
  readonly tokens: number | null
}

export interface AgentRequest {
  readonly model: string
  readonly system: string
  readonly turns: ReadonlyArray<Turn>
  readonly tools: ReadonlyArray<ToolSpec>
}

/** A request without tools sends no `tools` key (OpenAI refuses an empty list); one without a system prompt, no system. */
const toolsOf = (request: AgentRequest, shape: (tool: ToolSpec) => unknown) =>
  request.tools.length === 0 ? {} : { tools: request.tools.map(shape) }

/** Anthropic requires `max_tokens`; the others leave it to the model. */
const ANTHROPIC_MAX_TOKENS = 4096

const chatBody = (request: AgentRequest) => ({
  model: request.model,
  messages: [
    ...(request.system === "" ? [] : [{ role: "system", content: request.system }]),
    ...request.turns.map((turn) =>
      turn.role === "user"
        ? { role: "user", content: turn.text }
        : turn.role === "assistant"
          ? {
              role: "assistant",
              content: turn.text === "" ? null : turn.text,
              ...(turn.calls.length === 0
                ? {}
                : {
                    tool_calls: turn.calls.map((call) => ({
                      id: call.id,
                      type: "function",
                      function: { name: call.name, arguments: call.arguments },
                    })),
                  }),
            }
          : { role: "tool", tool_call_id: turn.callId, content: turn.output },
    ),
  ],
  ...toolsOf(request, (tool) => ({ type: "function", function: tool })),
})

const responsesBody = (request: AgentRequest) => ({
  model: request.model,
  ...(request.system === "" ? {} : { instructions: request.system }),
  input: request.turns.flatMap(
    (turn): ReadonlyArray<Record<string, unknown>> =>
      turn.role === "user"
        ? [{ role: "user", content: turn.text }]
        : turn.role === "assistant"
          ? [
              ...(turn.text === "" ? [] : [{ role: "assistant", content: turn.text }]),
              ...turn.calls.map((call) => ({
                type: "function_call",
                call_id: call.id,
                name: call.name,
                arguments: call.arguments,
              })),
            ]
          : [{ type: "function_call_output", call_id: turn.callId, output: turn.output }],
  ),
  ...toolsOf(request, (tool) => ({ type: "function", ...tool })),
})

const parseArguments = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return {}
  }
}

/** Consecutive tool results go back in one user message, as Anthropic requires. */
const messagesBody = (request: AgentRequest) => {
  const messages: Array<{ role: string; content: unknown }> = []
  for (const turn of request.turns) {
    if (turn.role === "user") messages.push({ role: "user", content: turn.text })
    else if (turn.role === "assistant") {
      messages.push({
        role: "assistant",
        content: [
          ...(turn.text === "" ? [] : [{ type: "text", text: turn.text }]),
          ...turn.calls.map((call) => ({
            type: "tool_use",
            id: call.id,
            name: call.name,
            input: parseArguments(call.arguments),
          })),
        ],
      })
    } else {
      const result = { type: "tool_result", tool_use_id: turn.callId, content: turn.output }
      const last = messages.at(-1)
      if (last?.role === "user" && Array.isArray(last.content)) last.content.push(result)
      else messages.push({ role: "user", content: [result] })
    }
  }
  return {
    model: request.model,
    max_tokens: ANTHROPIC_MAX_TOKENS,
    ...(request.system === "" ? {} : { system: request.system }),
    messages,
    ...toolsOf(request, (tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
  }
}

export const requestBody = (api: ModelApi, request: AgentRequest): unknown =>
  api === "chat_completions" ? chatBody(request) : api === "responses" ? responsesBody(request) : messagesBody(request)

const str = (value: unknown): string => (typeof value === "string" ? value : "")
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)
const list = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

const chatReply = (body: Record<string, unknown>): ModelReply => {
  const choice = list(body.choices)[0]
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : {}
  const calls = list(message.tool_calls).flatMap((call) =>
    isRecord(call) && isRecord(call.function)
      ? [{ id: str(call.id), name: str(call.function.name), arguments: str(call.function.arguments) || "{}" }]
      : [],
  )
  return { text: str(message.content), calls, tokens: isRecord(body.usage) ? num(body.usage.total_tokens) : null }
}

const responsesReply = (body: Record<string, unknown>): ModelReply => {
  const items = list(body.output).filter(isRecord)
  const text = items
    .filter((item) => item.type === "message")
    .flatMap((item) => list(item.content).filter(isRecord))
    .map((part) => str(part.text))
    .join("")
  const calls = items
    .filter((item) => item.type === "function_call")
    .map((item) => ({ id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) || "{}" }))
  return { text, calls, tokens: isRecord(body.usage) ? num(body.usage.total_tokens) : null }
}

const messagesReply = (body: Record<string, unknown>): ModelReply => {
  const blocks = list(body.content).filter(isRecord)
  const text = blocks
    .filter((block) => block.type === "text")
    .map((block) => str(block.text))
    .join("")
  const calls = blocks
    .filter((block) => block.type === "tool_use")
    .map((block) => ({ id: str(block.id), name: str(block.name), arguments: JSON.stringify(block.input ?? {}) }))
  const usage = isRecord(body.usage) ? body.usage : {}
  const input = num(usage.input_tokens)
  const output = num(usage.output_tokens)
  return { text, calls, tokens: input === null && output === null ? null : (input ?? 0) + (output ?? 0) }
}

/** The model's answer in the neutral form; null when the body is not that API's answer. */
export const parseReply = (api: ModelApi, body: unknown): ModelReply | null => {
  if (!isRecord(body)) return null
  if (api === "chat_completions") return Array.isArray(body.choices) ? chatReply(body) : null
  if (api === "responses") return Array.isArray(body.output) ? responsesReply(body) : null
  return Array.isArray(body.content) ? messagesReply(body) : null
}

/** Headers each API expects; the key is a stand-in the interceptor replaces with the real one. */
export const requestHeaders = (api: ModelApi, key: string): Record<string, string> =>
  api === "messages"
    ? { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" }
    : { "content-type": "application/json", authorization: `Bearer ${key}` }
