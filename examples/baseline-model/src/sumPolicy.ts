import { type Decision, lastMessage } from "./decision.js"
import { fnv1a } from "./hash.js"
import { type ChatRequest, messageText } from "./openai.js"

export const SUM_QUESTION = /\bwhat is (-?\d+) \+ (-?\d+)\s*\?/i

/** One question in this many gets a sum off by one (a slipped carry), chosen by the question's text. */
const SLIP_EVERY = 10

/**
 * "What is A + B? …" answered with the number only: the sum, except that a tenth of the questions (seeded
 * by their text, so the same question always gets the same answer) are off by one, to keep scores
 * imperfect. Undefined for any other message.
 */
export const sumPolicy = (request: ChatRequest): Decision | undefined => {
  const user = lastMessage(request.messages, "user")
  const text = user === undefined ? "" : messageText(user)
  const match = SUM_QUESTION.exec(text)
  if (match === null) return undefined
  const sum = Number(match[1]) + Number(match[2])
  return { content: String(fnv1a(text) % SLIP_EVERY === 0 ? sum + 1 : sum) }
}
