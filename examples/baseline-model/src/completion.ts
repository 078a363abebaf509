import type { Decision } from "./decision.js"
import { fnv1a } from "./hash.js"
import type { ChatRequest, ToolCall } from "./openai.js"
import { completionTokens, promptTokens, truncateTokens } from "./tokens.js"

export interface Usage {
  readonly prompt_tokens: number
  readonly completion_tokens: number
  readonly total_tokens: number
}

/** One finished answer, before it is rendered as a JSON body or as SSE chunks. */
export interface Completion {
  readonly id: string
  readonly created: number
  readonly model: string
  readonly content: string | null
  readonly toolCalls: ReadonlyArray<ToolCall> | undefined
  readonly finishReason: "stop" | "length" | "tool_calls"
  readonly usage: Usage
}

let sequence = 0

/**
 * Turns the policy's decision into an answer with honest usage. Text obeys `max_completion_tokens` /
 * `max_tokens` (cut → finish_reason "length"); tool-call ids derive from the conversation, so a replayed
 * request gets the same ids.
 */
export const complete = (request: ChatRequest, decision: Decision, model: string): Completion => {
  const limit = request.max_completion_tokens ?? request.max_tokens
  let content: string | null = null
  let toolCalls: ReadonlyArray<ToolCall> | undefined
  let finishReason: Completion["finishReason"] = "stop"
  if ("content" in decision) {
    content = limit === undefined ? decision.content : truncateTokens(decision.content, limit)
    if (content !== decision.content) finishReason = "length"
  } else {
    const conversation = fnv1a(JSON.stringify(request.messages))
    toolCalls = decision.toolCalls.map((call, index) => ({
      id: `call_${(conversation + index).toString(36).padStart(7, "0")}`,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }))
    finishReason = "tool_calls"
  }
  const prompt = promptTokens(request)
  const output = completionTokens(content, toolCalls)
  sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER
  return {
    id: `chatcmpl-baseline${Date.now().toString(36)}${sequence.toString(36)}`,
    created: Math.floor(Date.now() / 1000),
    model,
    content,
    toolCalls,
    finishReason,
    usage: { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output },
  }
}

export const SYSTEM_FINGERPRINT = "fp_baseline"

/** OpenAI's `chat.completion` object. */
export const completionBody = (completion: Completion) => ({
  id: completion.id,
  object: "chat.completion",
  created: completion.created,
  model: completion.model,
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: completion.content,
        refusal: null,
        ...(completion.toolCalls === undefined ? {} : { tool_calls: completion.toolCalls }),
      },
      logprobs: null,
      finish_reason: completion.finishReason,
    },
  ],
  usage: completion.usage,
  system_fingerprint: SYSTEM_FINGERPRINT,
})
