import type { LlmMessage, ModelApi, ModelCall, ToolCallSpec } from "@proctor/core"
import { inputMessages, isRecord, outputOf } from "@proctor/core/trace-messages"

/** One model call as the transcript shows it: what was new in its request, and what the model answered. */
export interface TranscriptTurn {
  readonly call: ModelCall | null
  /** Messages the call sent that the transcript has not shown yet. */
  readonly sent: ReadonlyArray<LlmMessage>
  readonly answer: ReadonlyArray<LlmMessage>
  readonly toolCalls: ReadonlyArray<ToolCallSpec>
}

interface CallLike {
  readonly api: ModelApi
  readonly request: unknown
  readonly response_message: unknown
}

/**
 * Turns calls into a transcript read top to bottom: each call sends the whole conversation again, so only
 * what follows the previous call's conversation and answer is shown (all of it when the conversation
 * restarted, i.e. the call sent fewer messages than before).
 */
const turnsOf = <C extends CallLike>(
  calls: ReadonlyArray<C>,
  callOf: (c: C) => ModelCall | null,
): Array<TranscriptTurn> => {
  let seen = 0
  return calls.map((call) => {
    const messages = inputMessages(call.api, call.request)
    const start = messages.length > seen ? seen : 0
    const output = outputOf(call.response_message)
    seen = messages.length + 1
    return { call: callOf(call), sent: messages.slice(start), answer: output.messages, toolCalls: output.toolCalls }
  })
}

export const transcriptOfCalls = (calls: ReadonlyArray<ModelCall>): Array<TranscriptTurn> =>
  turnsOf(calls, (call) => call)

/**
 * Without intercepted calls (`--no-intercept`), the task app's own trace is the transcript: synth-ai v3
 * `lm_call` events carry each request's messages and the answer.
 */
export const transcriptOfTrace = (trace: unknown): Array<TranscriptTurn> => {
  if (!isRecord(trace) || !Array.isArray(trace.event_history)) return []
  const calls: Array<CallLike> = []
  for (const event of trace.event_history) {
    if (!isRecord(event) || event.type !== "lm_call") continue
    const request = isRecord(event.llm_request) ? event.llm_request : {}
    const response = isRecord(event.llm_response) ? event.llm_response : {}
    calls.push({ api: "chat_completions", request, response_message: response.message ?? null })
  }
  return turnsOf(calls, () => null)
}
