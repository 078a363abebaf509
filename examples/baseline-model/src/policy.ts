import { type Decision, lastMessage } from "./decision.js"
import { fnv1a } from "./hash.js"
import { intentPolicy } from "./intentPolicy.js"
import { judgePolicy } from "./judgePolicy.js"
import { mathPolicy } from "./mathPolicy.js"
import { type ChatRequest, messageText } from "./openai.js"
import { shellDialectOf, shellPolicy } from "./shellPolicy.js"
import { addToolPolicy, sumPolicy } from "./sumPolicy.js"

const REPLIES = [
  "Here is a short answer from the baseline model",
  "The baseline model read your message",
  "Noted, from the baseline model",
]

/** A short, content-seeded reply that quotes the start of the last user message, so it is visibly "about" it. */
const plainReply = (request: ChatRequest): Decision => {
  const user = lastMessage(request.messages, "user")
  const text = user === undefined ? "" : messageText(user)
  const words = text.split(/\s+/).filter((word) => word !== "")
  const opener = REPLIES[fnv1a(text) % REPLIES.length]
  const about = words.length === 0 ? "." : `: "${words.slice(0, 8).join(" ")}${words.length > 8 ? " …" : ""}".`
  return { content: `${opener}${about}` }
}

/** Picks the task-specific heuristic by the tools offered; a tool choice of "none" forces text. */
export const decide = (request: ChatRequest): Decision => {
  const tools = new Set((request.tools ?? []).map((tool) => tool.function.name))
  if (tools.size === 0 || request.tool_choice === "none") {
    return judgePolicy(request) ?? sumPolicy(request) ?? plainReply(request)
  }
  if (tools.has("calculator") && tools.has("submit_answer")) return mathPolicy(request) ?? plainReply(request)
  if (tools.has("classify_intent")) return intentPolicy(request)
  if (tools.has("add")) return addToolPolicy(request) ?? plainReply(request)
  const shell = shellDialectOf(tools)
  if (shell !== null) {
    const first = request.messages.find((message) => message.role === "user")
    const calledTools = request.messages
      .flatMap((message) => message.tool_calls ?? [])
      .map((call) => call.function.name)
    return shellPolicy({ instruction: first === undefined ? "" : messageText(first), calledTools }, shell)
  }
  return plainReply(request)
}
