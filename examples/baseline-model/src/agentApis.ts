import type { Decision } from "./decision.js"
import { fnv1a } from "./hash.js"
import type { ChatRequest } from "./openai.js"
import { type ShellConversation, shellDialectOf, shellPolicy } from "./shellPolicy.js"
import { addToolPolicy, sumPolicy } from "./sumPolicy.js"
import { countTokens } from "./tokens.js"

/**
 * The Responses API (`/v1/responses`) and Anthropic's messages API (`/v1/messages`), as far as agents use them:
 * a conversation with function tools. A request offering the shell agent's tools gets the shell policy's next
 * call; a sum question, its answer (or an `add` call); any other a short text reply. Both answer as JSON or, with `stream: true`, as their SSE events.
 */
export type AgentApi = "responses" | "messages"

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)
const list = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

/** Text of a content that is a string or a list of parts with `text`. */
const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : list(content)
        .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
        .join("\n")

/** The user's messages before the model's first turn: the instruction, and whatever context the agent put round it. */
const openingUserText = (items: ReadonlyArray<Json>): string => {
  const firstTurn = items.findIndex((item) => item.role === "assistant" || item.type === "function_call")
  return (firstTurn === -1 ? items : items.slice(0, firstTurn))
    .filter((item) => item.role === "user")
    .map((item) => textOf(item.content))
    .join("\n")
}

const toolNamesOf = (body: Json): ReadonlySet<string> =>
  new Set(list(body.tools).flatMap((tool) => (isRecord(tool) ? [String(tool.name)] : [])))

const responsesConversation = (body: Json): ShellConversation & { toolNames: ReadonlySet<string> } => {
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : list(body.input)
  const items = input.filter(isRecord)
  return {
    toolNames: toolNamesOf(body),
    instruction: openingUserText(items),
    calledTools: items.filter((item) => item.type === "function_call").map((item) => String(item.name)),
  }
}

const messagesConversation = (body: Json): ShellConversation & { toolNames: ReadonlySet<string> } => {
  const messages = list(body.messages).filter(isRecord)
  return {
    toolNames: toolNamesOf(body),
    instruction: openingUserText(messages),
    calledTools: messages
      .filter((message) => message.role === "assistant")
      .flatMap((message) => list(message.content))
      .filter((block) => isRecord(block) && block.type === "tool_use")
      .map((block) => String((block as Json).name)),
  }
}

/**
 * The shell agent's tools get the shell policy; an `add` tool, or no tools, get the sum policies as chat completions
 * do (dataset evals on these APIs); anything else a short text reply.
 */
const decideFor = (conversation: ShellConversation & { toolNames: ReadonlySet<string> }, model: unknown): Decision => {
  const shell = shellDialectOf(conversation.toolNames)
  if (shell !== null) return shellPolicy(conversation, shell)
  const asChat: ChatRequest = {
    ...(typeof model === "string" ? { model } : {}),
    messages: [{ role: "user", content: conversation.instruction }],
  }
  const sums = conversation.toolNames.has("add")
    ? addToolPolicy(asChat)
    : conversation.toolNames.size === 0
      ? sumPolicy(asChat)
      : undefined
  return (
    sums ?? {
      content: `The baseline model read your message: "${conversation.instruction.split(/\s+/).slice(0, 8).join(" ")}".`,
    }
  )
}

interface Answer {
  readonly id: string
  readonly model: string
  readonly text: string | null
  readonly calls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>
  readonly inputTokens: number
  readonly outputTokens: number
}

const answerOf = (api: AgentApi, body: Json, fallbackModel: string): Answer => {
  const conversation = api === "responses" ? responsesConversation(body) : messagesConversation(body)
  const decision = decideFor(conversation, body.model)
  const seed = fnv1a(JSON.stringify(body.input ?? body.messages ?? ""))
  const calls =
    "content" in decision
      ? []
      : decision.toolCalls.map((call, index) => ({
          id: `${api === "responses" ? "call" : "toolu"}_${(seed + index).toString(36)}`,
          name: call.name,
          arguments: JSON.stringify(call.arguments),
        }))
  const text = "content" in decision ? decision.content : null
  return {
    id: `${api === "responses" ? "resp" : "msg"}_baseline${seed.toString(36)}${Date.now().toString(36)}`,
    model: typeof body.model === "string" ? body.model : fallbackModel,
    text,
    calls,
    inputTokens:
      countTokens(JSON.stringify(body.input ?? body.messages ?? "")) + countTokens(JSON.stringify(body.tools ?? [])),
    outputTokens:
      countTokens(text ?? "") +
      calls.reduce((sum, call) => sum + countTokens(call.name) + countTokens(call.arguments), 0),
  }
}

const responseOutput = (answer: Answer) =>
  answer.text !== null
    ? [
        {
          type: "message",
          id: `msg_${answer.id}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: answer.text, annotations: [] }],
        },
      ]
    : answer.calls.map((call) => ({
        type: "function_call",
        id: `fc_${call.id}`,
        call_id: call.id,
        name: call.name,
        arguments: call.arguments,
        status: "completed",
      }))

const responseBody = (answer: Answer) => ({
  id: answer.id,
  object: "response",
  created_at: Math.floor(Date.now() / 1000),
  status: "completed",
  model: answer.model,
  output: responseOutput(answer),
  usage: {
    input_tokens: answer.inputTokens,
    output_tokens: answer.outputTokens,
    total_tokens: answer.inputTokens + answer.outputTokens,
  },
})

const messageContent = (answer: Answer) =>
  answer.text !== null
    ? [{ type: "text", text: answer.text }]
    : answer.calls.map((call) => ({
        type: "tool_use",
        id: call.id,
        name: call.name,
        input: JSON.parse(call.arguments),
      }))

const messageBody = (answer: Answer) => ({
  id: answer.id,
  type: "message",
  role: "assistant",
  model: answer.model,
  content: messageContent(answer),
  stop_reason: answer.text === null ? "tool_use" : "end_turn",
  stop_sequence: null,
  usage: { input_tokens: answer.inputTokens, output_tokens: answer.outputTokens },
})

const sse = (event: string, data: unknown) =>
  `event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as Json) })}\n\n`

/**
 * The Responses API's stream as OpenAI sends it (Codex CLI parses it strictly): created, in_progress, then per
 * output item its added / part / delta / done events carrying `item_id`, then completed; every event numbered.
 */
const responsesEvents = (answer: Answer): string[] => {
  const done = responseBody(answer)
  const events: string[] = []
  const emit = (event: string, data: Json) => events.push(sse(event, { ...data, sequence_number: events.length }))
  const opened = { ...done, status: "in_progress", output: [], usage: null }
  emit("response.created", { response: opened })
  emit("response.in_progress", { response: opened })
  done.output.forEach((item, output_index) => {
    const item_id = item.id
    if (item.type === "message") {
      const text = answer.text ?? ""
      emit("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } })
      const part = { type: "output_text", text: "", annotations: [] }
      emit("response.content_part.added", { item_id, output_index, content_index: 0, part })
      emit("response.output_text.delta", { item_id, output_index, content_index: 0, delta: text, logprobs: [] })
      emit("response.output_text.done", { item_id, output_index, content_index: 0, text, logprobs: [] })
      emit("response.content_part.done", { item_id, output_index, content_index: 0, part: { ...part, text } })
    } else if ("arguments" in item) {
      emit("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } })
      emit("response.function_call_arguments.delta", { item_id, output_index, delta: item.arguments })
      emit("response.function_call_arguments.done", { item_id, output_index, arguments: item.arguments })
    }
    emit("response.output_item.done", { output_index, item })
  })
  emit("response.completed", { response: done })
  return events
}

/**
 * Anthropic's messages stream as Anthropic sends it (Claude Code parses it strictly): message_start, ping, per
 * content block its start / delta / stop, message_delta with the stop reason and usage, message_stop.
 */
const messagesEvents = (answer: Answer): string[] => {
  const done = messageBody(answer)
  const events = [
    sse("message_start", {
      message: {
        ...done,
        content: [],
        stop_reason: null,
        usage: {
          input_tokens: answer.inputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    }),
    sse("ping", {}),
  ]
  done.content.forEach((block, index) => {
    const start = block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} }
    events.push(sse("content_block_start", { index, content_block: start }))
    const delta =
      block.type === "text"
        ? { type: "text_delta", text: "text" in block ? block.text : "" }
        : { type: "input_json_delta", partial_json: JSON.stringify("input" in block ? block.input : {}) }
    events.push(sse("content_block_delta", { index, delta }))
    events.push(sse("content_block_stop", { index }))
  })
  events.push(
    sse("message_delta", {
      delta: { stop_reason: done.stop_reason, stop_sequence: null },
      usage: { output_tokens: answer.outputTokens },
    }),
  )
  events.push(sse("message_stop", {}))
  return events
}

export type AgentApiReply =
  | { readonly json: unknown }
  | { readonly events: ReadonlyArray<string> }
  | { readonly error: { readonly status: number; readonly body: unknown } }

/** One request of either API, answered. */
export const answerAgentApi = (api: AgentApi, raw: string, fallbackModel: string): AgentApiReply => {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    body = null
  }
  if (!isRecord(body)) {
    const message = "the request body is not a JSON object"
    return {
      error: {
        status: 400,
        body:
          api === "messages"
            ? { type: "error", error: { type: "invalid_request_error", message } }
            : { error: { message, type: "invalid_request_error", param: null, code: null } },
      },
    }
  }
  const answer = answerOf(api, body, fallbackModel)
  if (body.stream === true) return { events: api === "responses" ? responsesEvents(answer) : messagesEvents(answer) }
  return { json: api === "responses" ? responseBody(answer) : messageBody(answer) }
}
