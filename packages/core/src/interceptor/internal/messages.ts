import { isRecord } from "../../internal/isRecord.js"
import type { ApiAdapter, CallSummary, StreamAssembler } from "./ApiAdapter.js"
import { TOKEN } from "./ApiAdapter.js"
import { errorMessageOf, type JsonRecord, parseJson, stringOrNull } from "./json.js"
import { messagesUsage } from "./usage.js"

const fromJson = (body: unknown): CallSummary => {
  if (!isRecord(body)) return { model: null, message: null, usage: null, finishReason: null, error: null }
  const failed = body.type === "error"
  return {
    model: stringOrNull(body.model),
    message: failed ? null : { role: body.role ?? "assistant", content: body.content ?? null },
    usage: messagesUsage(body.usage),
    finishReason: stringOrNull(body.stop_reason),
    error: failed ? errorMessageOf(body.error ?? body) : null,
  }
}

/**
 * Anthropic's stream: `message_start` (model, input usage), content blocks built from
 * `content_block_start`/`_delta`/`_stop` (tool input arrives as JSON text in pieces), then `message_delta`
 * with the stop reason and the final output usage.
 */
class MessagesAssembler implements StreamAssembler {
  private model: string | null = null
  private readonly blocks: Array<JsonRecord | undefined> = []
  private readonly toolInput: Array<string | undefined> = []
  private usage: JsonRecord | null = null
  private stopReason: string | null = null
  private error: string | null = null

  event(name: string | null, data: string): number {
    const event = parseJson(data)
    if (!isRecord(event)) return 0
    const type = typeof event.type === "string" ? event.type : name
    switch (type) {
      case "content_block_delta":
        this.delta(event)
        return TOKEN
      case "message_start":
        if (isRecord(event.message)) {
          this.model = stringOrNull(event.message.model)
          if (isRecord(event.message.usage)) this.usage = { ...event.message.usage }
        }
        return 0
      case "content_block_start":
        if (typeof event.index === "number" && isRecord(event.content_block)) {
          this.blocks[event.index] = { ...event.content_block }
        }
        return 0
      case "content_block_stop":
        if (typeof event.index === "number") this.finishToolInput(event.index)
        return 0
      case "message_delta":
        if (isRecord(event.delta)) this.stopReason = stringOrNull(event.delta.stop_reason) ?? this.stopReason
        // message_delta's counts are cumulative and win over message_start's placeholders.
        if (isRecord(event.usage)) {
          const merged: JsonRecord = { ...this.usage }
          for (const [key, value] of Object.entries(event.usage)) if (value !== null) merged[key] = value
          this.usage = merged
        }
        return 0
      case "error":
        this.error = errorMessageOf(event.error ?? event)
        return 0
      default:
        return 0
    }
  }

  private delta(event: JsonRecord): void {
    if (typeof event.index !== "number" || !isRecord(event.delta)) return
    const index = event.index
    const delta = event.delta
    let block = this.blocks[index]
    if (block === undefined) {
      block = { type: "text", text: "" }
      this.blocks[index] = block
    }
    switch (delta.type) {
      case "text_delta":
        block.text = (typeof block.text === "string" ? block.text : "") + (stringOrNull(delta.text) ?? "")
        break
      case "input_json_delta":
        this.toolInput[index] = (this.toolInput[index] ?? "") + (stringOrNull(delta.partial_json) ?? "")
        break
      case "thinking_delta":
        block.thinking =
          (typeof block.thinking === "string" ? block.thinking : "") + (stringOrNull(delta.thinking) ?? "")
        break
      case "signature_delta":
        block.signature = stringOrNull(delta.signature)
        break
    }
  }

  /** Tool input is JSON text until its block ends; unparseable (cut-off) input is kept as text. */
  private finishToolInput(index: number): void {
    const json = this.toolInput[index]
    const block = this.blocks[index]
    if (json === undefined || block === undefined) return
    this.toolInput[index] = undefined
    if (json === "") return
    try {
      block.input = JSON.parse(json)
    } catch {
      block.input = json
    }
  }

  summary(): CallSummary {
    for (let index = 0; index < this.toolInput.length; index++) this.finishToolInput(index)
    const content = this.blocks.filter((block) => block !== undefined)
    return {
      model: this.model,
      message: content.length === 0 && this.stopReason === null ? null : { role: "assistant", content },
      usage: messagesUsage(this.usage),
      finishReason: this.stopReason,
      error: this.error,
    }
  }
}

export const messagesAdapter: ApiAdapter = {
  api: "messages",
  fromJson,
  assembler: () => new MessagesAssembler(),
}
