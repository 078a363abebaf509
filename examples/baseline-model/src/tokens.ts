import { type ChatMessage, type ChatRequest, messageText, type ToolCall } from "./openai.js"

/**
 * The baseline's tokenizer, an approximation of BPE counts that needs no vocabulary: every run of word
 * characters (`\w+`) is one token and every other non-space character is one token; whitespace is free.
 * "Hello, world!" → ["Hello", ",", "world", "!"] → 4. It is deterministic, so usage is reproducible.
 */
const TOKEN = /\w+|[^\s\w]/g

export const countTokens = (text: string): number => {
  let count = 0
  TOKEN.lastIndex = 0
  while (TOKEN.exec(text) !== null) count++
  return count
}

const toolCallTokens = (calls: ReadonlyArray<ToolCall> | undefined): number =>
  (calls ?? []).reduce((sum, call) => sum + countTokens(call.function.name) + countTokens(call.function.arguments), 0)

const messageTokens = (message: ChatMessage): number =>
  countTokens(message.role) + countTokens(messageText(message)) + toolCallTokens(message.tool_calls)

/**
 * Prompt tokens: every message's role, text and tool calls (name + arguments), plus each tool definition
 * serialised as JSON, because a real model reads the tool schemas as part of its prompt.
 */
export const promptTokens = (request: ChatRequest): number =>
  request.messages.reduce((sum, message) => sum + messageTokens(message), 0) +
  (request.tools ?? []).reduce((sum, tool) => sum + countTokens(JSON.stringify(tool.function)), 0)

export const completionTokens = (content: string | null, toolCalls: ReadonlyArray<ToolCall> | undefined): number =>
  countTokens(content ?? "") + toolCallTokens(toolCalls)

/** Offsets where tokens start; slicing at these keeps the pieces' concatenation equal to the text. */
const tokenStarts = (text: string): number[] => Array.from(text.matchAll(TOKEN), (match) => match.index)

/** The longest prefix of `text` holding at most `limit` tokens. */
export const truncateTokens = (text: string, limit: number): string => {
  const starts = tokenStarts(text)
  return starts.length <= limit ? text : text.slice(0, starts[limit]).trimEnd()
}

/** Splits text into consecutive pieces of `perPiece` tokens each, for streaming deltas. */
export const splitTokens = (text: string, perPiece: number): string[] => {
  const cuts = tokenStarts(text).filter((_, index) => index > 0 && index % perPiece === 0)
  const bounds = [0, ...cuts, text.length]
  return bounds.slice(1).map((end, index) => text.slice(bounds[index], end))
}
