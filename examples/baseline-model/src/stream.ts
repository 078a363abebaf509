import { type Completion, SYSTEM_FINGERPRINT } from "./completion.js"
import { splitTokens } from "./tokens.js"

const TOKENS_PER_CONTENT_DELTA = 3
const TOKENS_PER_ARGUMENTS_DELTA = 4

type Delta = Record<string, unknown>

/** The deltas OpenAI would send: a role opener, then the content or each call's name and argument pieces. */
const deltas = (completion: Completion): Delta[] => {
  if (completion.toolCalls === undefined) {
    const pieces = splitTokens(completion.content ?? "", TOKENS_PER_CONTENT_DELTA).filter((piece) => piece !== "")
    return [{ role: "assistant", content: "", refusal: null }, ...pieces.map((content) => ({ content }))]
  }
  return completion.toolCalls.flatMap((call, index) => {
    const opener = { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }
    const argumentDeltas = splitTokens(call.function.arguments, TOKENS_PER_ARGUMENTS_DELTA).map((piece) => ({
      tool_calls: [{ index, function: { arguments: piece } }],
    }))
    const first = index === 0 ? { role: "assistant", content: null, tool_calls: [opener] } : { tool_calls: [opener] }
    return [first, ...argumentDeltas]
  })
}

/**
 * The SSE body as separate `data:` events: content deltas, a final chunk with the finish reason, a usage
 * chunk with empty choices when the client asked for `stream_options.include_usage`, then `[DONE]`.
 * As with OpenAI, every chunk carries `usage: null` when a usage chunk will follow.
 */
export const streamEvents = (completion: Completion, includeUsage: boolean): string[] => {
  const chunk = (choices: unknown[], usage?: unknown) =>
    `data: ${JSON.stringify({
      id: completion.id,
      object: "chat.completion.chunk",
      created: completion.created,
      model: completion.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices,
      ...(includeUsage ? { usage: usage ?? null } : {}),
    })}\n\n`
  const choice = (delta: Delta, finishReason: string | null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  })
  return [
    ...deltas(completion).map((delta) => chunk([choice(delta, null)])),
    chunk([choice({}, completion.finishReason)]),
    ...(includeUsage ? [chunk([], completion.usage)] : []),
    "data: [DONE]\n\n",
  ]
}
