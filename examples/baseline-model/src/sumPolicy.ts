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
 * The last user message's "What is A + B?", and whether the model slips on it: a tenth of the questions (seeded by
 * their text, so the same question always gets the same answer; `NAME@N` models: one in N, see `slipsOf`). Undefined
 * for any other message.
 */
const sumQuestion = (request: ChatRequest): { a: number; b: number; slips: boolean } | undefined => {
  const user = lastMessage(request.messages, "user")
  const text = user === undefined ? "" : messageText(user)
  const match = SUM_QUESTION.exec(text)
  if (match === null) return undefined
  const slips = slipsOf(request.model)
  return { a: Number(match[1]), b: Number(match[2]), slips: fnv1a(slips.salt + text) % slips.every === 0 }
}

/** "What is A + B? …" answered with the number only: the sum, or, on a slip, one more, to keep scores imperfect. */
export const sumPolicy = (request: ChatRequest): Decision | undefined => {
  const question = sumQuestion(request)
  if (question === undefined) return undefined
  const sum = question.a + question.b
  return { content: String(question.slips ? sum + 1 : sum) }
}

/**
 * With an `add` tool offered, "What is A + B?" is answered by calling it: `add({ a, b })` with the question's numbers,
 * except that on the questions `sumPolicy` slips on it passes `b + 1` (a tool-using model is not perfect either).
 */
export const addToolPolicy = (request: ChatRequest): Decision | undefined => {
  const question = sumQuestion(request)
  if (question === undefined) return undefined
  return { toolCalls: [{ name: "add", arguments: { a: question.a, b: question.slips ? question.b + 1 : question.b } }] }
}
