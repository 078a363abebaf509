import { Schema } from "effect"

/**
 * One line of OpenAI's chat fine-tuning JSONL, as its fine-tuning guide describes the format: `messages`
 * (system, user, assistant and tool messages, ending with the assistant's answer to learn), the `tools` the
 * model could call, and optionally `parallel_tool_calls`. An assistant message may carry `weight` 0 or 1
 * (whether it is trained on).
 */
const TextPart = Schema.Struct({ type: Schema.Literal("text"), text: Schema.String })
const ImagePart = Schema.Struct({
  type: Schema.Literal("image_url"),
  image_url: Schema.Struct({ url: Schema.String, detail: Schema.optional(Schema.Literal("auto", "low", "high")) }),
})

const Name = Schema.optional(Schema.String)

export const SftSystemMessage = Schema.Struct({
  role: Schema.Literal("system"),
  content: Schema.Union(Schema.String, Schema.Array(TextPart)),
  name: Name,
})

export const SftUserMessage = Schema.Struct({
  role: Schema.Literal("user"),
  content: Schema.Union(Schema.String, Schema.NonEmptyArray(Schema.Union(TextPart, ImagePart))),
  name: Name,
})

export const SftToolCall = Schema.Struct({
  id: Schema.NonEmptyString,
  type: Schema.Literal("function"),
  function: Schema.Struct({ name: Schema.NonEmptyString, arguments: Schema.String }),
})

/** An assistant turn says something, calls tools, or both: never neither. */
export const SftAssistantMessage = Schema.Struct({
  role: Schema.Literal("assistant"),
  content: Schema.optional(Schema.NullOr(Schema.String)),
  tool_calls: Schema.optional(Schema.NonEmptyArray(SftToolCall)),
  name: Name,
  weight: Schema.optional(Schema.Literal(0, 1)),
}).pipe(
  Schema.filter(
    (m) =>
      (typeof m.content === "string" && m.content !== "") ||
      m.tool_calls !== undefined ||
      "an assistant message needs content or tool_calls",
  ),
)

export const SftToolMessage = Schema.Struct({
  role: Schema.Literal("tool"),
  tool_call_id: Schema.NonEmptyString,
  content: Schema.String,
})

export const SftMessage = Schema.Union(SftSystemMessage, SftUserMessage, SftAssistantMessage, SftToolMessage)
export type SftMessage = typeof SftMessage.Type

export const SftTool = Schema.Struct({
  type: Schema.Literal("function"),
  function: Schema.Struct({
    name: Schema.NonEmptyString,
    description: Schema.optional(Schema.String),
    parameters: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
    strict: Schema.optional(Schema.Boolean),
  }),
})
export type SftTool = typeof SftTool.Type

/** A whole example: it ends with an assistant message, and every tool result answers a call made before it. */
export const SftExample = Schema.Struct({
  messages: Schema.NonEmptyArray(SftMessage),
  tools: Schema.optional(Schema.NonEmptyArray(SftTool)),
  parallel_tool_calls: Schema.optional(Schema.Boolean),
}).pipe(
  Schema.filter((example) => {
    if (example.messages.at(-1)!.role !== "assistant") return "the last message must be the assistant's"
    const called = new Set<string>()
    for (const message of example.messages) {
      if (message.role === "assistant") for (const call of message.tool_calls ?? []) called.add(call.id)
      if (message.role === "tool" && !called.has(message.tool_call_id)) {
        return `tool message answers ${message.tool_call_id}, which no earlier assistant message called`
      }
    }
    return true
  }),
)
export type SftExample = typeof SftExample.Type
