import { isRecord } from "../../internal/isRecord.js"
import type { ApiAdapter, CallSummary, StreamAssembler } from "./ApiAdapter.js"
import { TOKEN } from "./ApiAdapter.js"
import { errorMessageOf, type JsonRecord, parseJson, stringOrNull } from "./json.js"
import { responsesUsage } from "./usage.js"

/**
 * The Responses API has no finish reason; this maps its status onto chat's vocabulary so summaries can
 * compare calls across APIs: a function call → `tool_calls`, completed → `stop`, incomplete → its reason.
 */
const finishReasonOf = (response: JsonRecord): string | null => {
  const status = stringOrNull(response.status)
  if (status === "incomplete") {
    const details = response.incomplete_details
    return (isRecord(details) ? stringOrNull(details.reason) : null) ?? "incomplete"
  }
  if (
    Array.isArray(response.output) &&
    response.output.some((item) => isRecord(item) && item.type === "function_call")
  ) {
    return "tool_calls"
  }
  return status === "completed" ? "stop" : status
}

const fromResponse = (response: unknown): CallSummary => {
  if (!isRecord(response)) return { model: null, message: null, usage: null, finishReason: null, error: null }
  const failed = response.status === "failed" || (response.error !== undefined && response.error !== null)
  return {
    model: stringOrNull(response.model),
    message: response.output ?? null,
    usage: responsesUsage(response.usage),
    finishReason: finishReasonOf(response),
    error: failed ? errorMessageOf(response.error ?? "response failed") : null,
  }
}

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"])

class ResponsesAssembler implements StreamAssembler {
  private model: string | null = null
  private final: CallSummary | null = null
  private readonly items: unknown[] = []
  /** Text of the output item still being written, so a cancelled call keeps what the model had said. */
  private partialText = ""
  private error: string | null = null

  event(name: string | null, data: string): number {
    const event = parseJson(data)
    if (!isRecord(event)) return 0
    const type = typeof event.type === "string" ? event.type : (name ?? "")
    if (type.endsWith(".delta")) {
      if (type === "response.output_text.delta" && typeof event.delta === "string") this.partialText += event.delta
      return TOKEN
    }
    if (type === "response.output_item.done") {
      this.items.push(event.item)
      this.partialText = ""
    } else if (TERMINAL.has(type)) {
      this.final = fromResponse(event.response)
    } else if (type === "response.created" || type === "response.in_progress") {
      if (isRecord(event.response)) this.model = stringOrNull(event.response.model) ?? this.model
    } else if (type === "error") {
      this.error = errorMessageOf(event.error ?? event)
    }
    return 0
  }

  summary(): CallSummary {
    if (this.final !== null) {
      return this.error === null || this.final.error !== null ? this.final : { ...this.final, error: this.error }
    }
    const items =
      this.partialText === ""
        ? this.items
        : [
            ...this.items,
            { type: "message", role: "assistant", content: [{ type: "output_text", text: this.partialText }] },
          ]
    return {
      model: this.model,
      message: items.length === 0 ? null : items,
      usage: null,
      finishReason: null,
      error: this.error,
    }
  }
}

export const responsesAdapter: ApiAdapter = {
  api: "responses",
  fromJson: fromResponse,
  assembler: () => new ResponsesAssembler(),
}
