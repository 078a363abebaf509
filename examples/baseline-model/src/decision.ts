import type { ChatMessage } from "./openai.js"

export interface PlannedCall {
  readonly name: string
  readonly arguments: Record<string, unknown>
}

/** What the baseline decided to say: text, or tool calls (then content is null, as OpenAI reports it). */
export type Decision = { readonly content: string } | { readonly toolCalls: ReadonlyArray<PlannedCall> }

export const lastMessage = (messages: ReadonlyArray<ChatMessage>, role: string): ChatMessage | undefined =>
  messages.findLast((message) => message.role === role)
