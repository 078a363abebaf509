import type { ModelCall, RolloutRecord } from "@proctor/core"
import type { SftExample, SftMessage, SftTool } from "./sftFormat.js"

export type SftConversion =
  | { readonly _tag: "Example"; readonly example: SftExample }
  | { readonly _tag: "Skipped"; readonly reason: string }

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** A step of the conversion that can fail with the reason the rollout is left out. */
class Unusable extends Error {}

const text = (content: unknown, where: string): string => {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (isObject(part) && part.type === "text" && typeof part.text === "string") return part.text
        throw new Unusable(`${where} holds a content part that is not text`)
      })
      .join("")
  }
  throw new Unusable(`${where} has no text content`)
}

type UserContent = Extract<SftMessage, { role: "user" }>["content"]
type UserPart = Exclude<UserContent, string>[number]

const userContent = (content: unknown): UserContent => {
  if (typeof content === "string") return content
  if (!Array.isArray(content) || content.length === 0) throw new Unusable("a user message has no content")
  const parts = content.map((part): UserPart => {
    if (isObject(part) && part.type === "text" && typeof part.text === "string") {
      return { type: "text", text: part.text }
    }
    if (isObject(part) && part.type === "image_url" && isObject(part.image_url)) {
      const { url, detail } = part.image_url
      if (typeof url !== "string") throw new Unusable("an image part has no url")
      const known = detail === "auto" || detail === "low" || detail === "high"
      return { type: "image_url", image_url: known ? { url, detail } : { url } }
    }
    throw new Unusable("a user message holds a content part that is neither text nor an image")
  })
  return parts as [UserPart, ...Array<UserPart>]
}

const toolCalls = (calls: unknown) => {
  if (calls === undefined || calls === null || (Array.isArray(calls) && calls.length === 0)) return undefined
  if (!Array.isArray(calls)) throw new Unusable("an assistant message's tool_calls is not a list")
  const normalized = calls.map((call) => {
    const fn = isObject(call) ? call.function : undefined
    if (!isObject(call) || typeof call.id !== "string" || call.id === "" || !isObject(fn)) {
      throw new Unusable("a tool call has no id or function")
    }
    if (typeof fn.name !== "string" || fn.name === "") throw new Unusable("a tool call names no function")
    const args = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {})
    return { id: call.id, type: "function" as const, function: { name: fn.name, arguments: args } }
  })
  return normalized as [(typeof normalized)[number], ...Array<(typeof normalized)[number]>]
}

const name = (message: Json) => (typeof message.name === "string" && message.name !== "" ? { name: message.name } : {})

/**
 * A chat-completions message in the fine-tuning format: only the fields it takes (no `refusal`, `audio`,
 * `annotations`…); a `developer` message becomes the `system` message older formats know.
 */
const message = (raw: unknown): SftMessage => {
  if (!isObject(raw)) throw new Unusable("a message is not an object")
  switch (raw.role) {
    case "system":
    case "developer":
      return { role: "system", content: text(raw.content, `a ${raw.role} message`), ...name(raw) }
    case "user":
      return { role: "user", content: userContent(raw.content), ...name(raw) }
    case "assistant": {
      const calls = toolCalls(raw.tool_calls)
      const content =
        raw.content === null || raw.content === undefined ? null : text(raw.content, "an assistant message")
      if ((content === null || content === "") && calls === undefined) {
        throw new Unusable("an assistant message has neither content nor tool calls")
      }
      return {
        role: "assistant",
        ...(content === null || (content === "" && calls !== undefined) ? {} : { content }),
        ...(calls === undefined ? {} : { tool_calls: calls }),
        ...name(raw),
      }
    }
    case "tool":
      if (typeof raw.tool_call_id !== "string" || raw.tool_call_id === "") {
        throw new Unusable("a tool message names no tool_call_id")
      }
      return { role: "tool", tool_call_id: raw.tool_call_id, content: text(raw.content, "a tool message") }
    default:
      throw new Unusable(`a message has role ${JSON.stringify(raw.role)}, which chat fine-tuning does not take`)
  }
}

const tools = (raw: unknown): { readonly tools?: [SftTool, ...Array<SftTool>] } => {
  if (!Array.isArray(raw) || raw.length === 0) return {}
  const normalized = raw.map((tool): SftTool => {
    const fn = isObject(tool) ? tool.function : undefined
    if (!isObject(tool) || tool.type !== "function" || !isObject(fn) || typeof fn.name !== "string") {
      throw new Unusable("a tool is not a function tool")
    }
    return {
      type: "function",
      function: {
        name: fn.name,
        ...(typeof fn.description === "string" ? { description: fn.description } : {}),
        ...(isObject(fn.parameters) ? { parameters: fn.parameters } : {}),
        ...(typeof fn.strict === "boolean" ? { strict: fn.strict } : {}),
      },
    }
  })
  return { tools: normalized as [SftTool, ...Array<SftTool>] }
}

/**
 * The last successful chat-completions call of the rollout's final try (a retried rollout's earlier tries made
 * calls too): its messages are the whole conversation before the answer.
 */
const finalCall = ({ result, calls }: RolloutRecord): ModelCall | undefined =>
  calls.findLast(
    (call) =>
      (result.run_id === undefined || call.rollout_id === result.run_id) &&
      call.api === "chat_completions" &&
      call.outcome === "ok" &&
      isObject(call.response_message),
  )

/**
 * A fine-tuning example from a rollout's intercepted model calls: the final call's messages followed by the
 * model's answer to them, with the tools it was offered. A rollout whose calls cannot make a valid example
 * (no successful chat-completions call, a message the format cannot hold) is skipped, with the reason.
 */
export const sftExampleOf = (rollout: RolloutRecord): SftConversion => {
  const call = finalCall(rollout)
  if (call === undefined) return { _tag: "Skipped", reason: "no successful chat-completions call was recorded" }
  const request = isObject(call.request) ? call.request : {}
  if (!Array.isArray(request.messages)) return { _tag: "Skipped", reason: "the final call's request has no messages" }
  try {
    const messages = [
      ...request.messages.map(message),
      message({ ...(call.response_message as Json), role: "assistant" }),
    ]
    const parallel =
      typeof request.parallel_tool_calls === "boolean" ? { parallel_tool_calls: request.parallel_tool_calls } : {}
    return {
      _tag: "Example",
      example: { messages: messages as [SftMessage, ...Array<SftMessage>], ...tools(request.tools), ...parallel },
    }
  } catch (error) {
    if (error instanceof Unusable) return { _tag: "Skipped", reason: error.message }
    throw error
  }
}
