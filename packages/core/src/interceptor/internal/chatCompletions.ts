import { isRecord } from "../../internal/isRecord.js"
import type { TokenUsage } from "../../result/ModelCall.js"
import { type ApiAdapter, type CallSummary, DROP, type StreamAssembler, TOKEN } from "./ApiAdapter.js"
import { errorMessageOf, type JsonRecord, parseJson, stringOrNull } from "./json.js"
import { chatUsage } from "./usage.js"

interface ToolCallDraft {
  id: string | null
  type: string
  function: { name: string; arguments: string }
}

/** Groq reports streamed usage under `x_groq.usage` instead of `usage`. */
const usageOf = (chunk: JsonRecord): unknown =>
  chunk.usage ?? (isRecord(chunk.x_groq) ? chunk.x_groq.usage : undefined) ?? null

class ChatAssembler implements StreamAssembler {
  private model: string | null = null
  private sawDelta = false
  private content: string | null = null
  private reasoning: string | null = null
  private refusal: string | null = null
  private readonly toolCalls: Array<ToolCallDraft | undefined> = []
  private finishReason: string | null = null
  private usage: TokenUsage | null = null
  private error: string | null = null

  constructor(private readonly dropUsageChunk: boolean) {}

  event(_name: string | null, data: string): number {
    if (data === "[DONE]") return 0
    const chunk = parseJson(data)
    if (!isRecord(chunk)) return 0
    if (this.model === null && typeof chunk.model === "string") this.model = chunk.model
    if (chunk.error !== undefined && chunk.error !== null) {
      this.error = errorMessageOf(chunk.error)
      return 0
    }
    const usage = usageOf(chunk)
    if (usage !== null) this.usage = chatUsage(usage)
    const choices = chunk.choices
    if (!Array.isArray(choices)) return 0
    if (choices.length === 0) return this.dropUsageChunk && usage !== null ? DROP : 0
    let flags = 0
    for (const choice of choices) {
      // One message is recorded: the first choice (agents do not ask for n > 1).
      if (!isRecord(choice) || (choice.index ?? 0) !== 0) continue
      if (isRecord(choice.delta)) flags |= this.delta(choice.delta)
      if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason
    }
    return flags
  }

  private delta(delta: JsonRecord): number {
    this.sawDelta = true
    let flags = 0
    if (typeof delta.content === "string") {
      this.content = (this.content ?? "") + delta.content
      if (delta.content !== "") flags = TOKEN
    }
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === "string" && reasoning !== "") {
      this.reasoning = (this.reasoning ?? "") + reasoning
      flags = TOKEN
    }
    if (typeof delta.refusal === "string" && delta.refusal !== "") {
      this.refusal = (this.refusal ?? "") + delta.refusal
      flags = TOKEN
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const piece of delta.tool_calls) {
        if (!isRecord(piece)) continue
        const index = typeof piece.index === "number" ? piece.index : this.toolCalls.length
        let draft = this.toolCalls[index]
        if (draft === undefined) {
          draft = { id: null, type: "function", function: { name: "", arguments: "" } }
          this.toolCalls[index] = draft
        }
        if (typeof piece.id === "string") draft.id = piece.id
        if (typeof piece.type === "string") draft.type = piece.type
        if (isRecord(piece.function)) {
          if (typeof piece.function.name === "string") draft.function.name += piece.function.name
          if (typeof piece.function.arguments === "string") draft.function.arguments += piece.function.arguments
        }
        flags = TOKEN
      }
    }
    return flags
  }

  summary(): CallSummary {
    const toolCalls = this.toolCalls.filter((call) => call !== undefined)
    const message = this.sawDelta
      ? {
          role: "assistant",
          content: this.content,
          ...(this.refusal === null ? {} : { refusal: this.refusal }),
          ...(this.reasoning === null ? {} : { reasoning_content: this.reasoning }),
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        }
      : null
    return {
      model: this.model,
      message,
      usage: this.usage,
      finishReason: this.finishReason,
      error: this.error,
    }
  }
}

const fromJson = (body: unknown): CallSummary => {
  if (!isRecord(body)) return { model: null, message: null, usage: null, finishReason: null, error: null }
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined
  return {
    model: stringOrNull(body.model),
    message: isRecord(choice) ? (choice.message ?? null) : null,
    usage: chatUsage(body.usage),
    finishReason: isRecord(choice) ? stringOrNull(choice.finish_reason) : null,
    error: body.error !== undefined && body.error !== null ? errorMessageOf(body.error) : null,
  }
}

export const chatCompletionsAdapter: ApiAdapter = {
  api: "chat_completions",
  fromJson,
  assembler: (dropUsageChunk) => new ChatAssembler(dropUsageChunk),
}
