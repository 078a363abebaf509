import { type Decision, lastMessage } from "./decision.js"
import { fnv1a } from "./hash.js"
import { type ChatRequest, messageText } from "./openai.js"

export const SUM_QUESTION = /\bwhat is (-?\d+) \+ (-?\d+)\s*\?/i

/** One question in this many gets a sum off by one (a slipped carry), chosen by the question's text. */
const SLIP_EVERY = 10

/**
 * A model named `NAME@N` (e.g. `baseline@5`) slips one question in N, chosen by the model's name and the question's
 * text: one server then plays several models of different skill, each wrong on questions of its own.
 */
const slipsOf = (model: string | undefined): { readonly every: number; readonly salt: string } => {
  const match = model === undefined ? null : /@(\d+)$/.exec(model)
  const every = match === null ? 0 : Number(match[1])
  return every >= 1 ? { every, salt: model! } : { every: SLIP_EVERY, salt: "" }
}

/**
 * "What is A + B? …" answered with the number only: the sum, except that a tenth of the questions (seeded
 * by their text, so the same question always gets the same answer) are off by one, to keep scores
 * imperfect (`NAME@N` models: one in N, see `slipsOf`). Undefined for any other message.
 */
export const sumPolicy = (request: ChatRequest): Decision | undefined => {
  const user = lastMessage(request.messages, "user")
  const text = user === undefined ? "" : messageText(user)
  const match = SUM_QUESTION.exec(text)
  if (match === null) return undefined
  const sum = Number(match[1]) + Number(match[2])
  const slips = slipsOf(request.model)
  return { content: String(fnv1a(slips.salt + text) % slips.every === 0 ? sum + 1 : sum) }
}

/**
 * With an `add` tool offered, "What is A + B?" is answered by calling it: `add({ a, b })` with the question's numbers,
 * except that the same tenth of questions `sumPolicy` slips on pass `b + 1` (a tool-using model is not perfect either).
 * Undefined for any other message.
 */
export const addToolPolicy = (request: ChatRequest): Decision | undefined => {
  const user = lastMessage(request.messages, "user")
  const text = user === undefined ? "" : messageText(user)
  const match = SUM_QUESTION.exec(text)
  if (match === null) return undefined
  const slips = slipsOf(request.model)
  const b = Number(match[2])
  return {
    toolCalls: [
      { name: "add", arguments: { a: Number(match[1]), b: fnv1a(slips.salt + text) % slips.every === 0 ? b + 1 : b } },
    ],
  }
}
