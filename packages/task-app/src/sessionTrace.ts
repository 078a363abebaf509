import type { ChatCompletion } from "./openAiChat.js"

/** One model call of a rollout. */
export interface LmCall {
  /** The messages as sent: copy the array, because the conversation keeps growing after the call. */
  readonly messages: ReadonlyArray<unknown>
  readonly completion: ChatCompletion
  readonly startedAt?: Date
  readonly model?: string
}

export interface SessionTraceOptions {
  readonly sessionId: string
  readonly calls: ReadonlyArray<LmCall>
  readonly metadata?: Readonly<Record<string, unknown>>
  readonly createdAt?: Date
}

export interface LmCallEvent {
  readonly type: "lm_call"
  readonly timestamp: string
  readonly llm_request: { readonly messages: ReadonlyArray<unknown>; readonly model?: string }
  readonly llm_response: {
    readonly message: unknown
    readonly usage: Readonly<Record<string, unknown>>
    readonly finish_reason: string | null
    readonly model?: string
  }
}

export interface SessionTrace {
  readonly schema_version: string
  readonly session_id: string
  readonly created_at: string
  readonly event_history: ReadonlyArray<LmCallEvent>
  readonly markov_blanket_message_history: ReadonlyArray<unknown>
  readonly metadata: Readonly<Record<string, unknown>>
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly total_tokens: number }
}

const count = (u: unknown) => (typeof u === "number" && Number.isFinite(u) ? u : 0)

const lmCallEvent = (call: LmCall): LmCallEvent => {
  const choice = call.completion.choices[0]
  const model = call.model ?? call.completion.model
  return {
    type: "lm_call",
    timestamp: (call.startedAt ?? new Date()).toISOString(),
    llm_request: { messages: call.messages, ...(model === undefined ? {} : { model }) },
    llm_response: {
      message: choice?.message ?? null,
      usage: call.completion.usage ?? {},
      finish_reason: choice?.finish_reason ?? null,
      ...(call.completion.model === undefined ? {} : { model: call.completion.model }),
    },
  }
}

/**
 * Summed usage at the top level, because `trace.usage.total_tokens` is the first place proctor and
 * synth-ai's readers look for a rollout's tokens; absent when no call reported usage.
 */
const totalUsage = (calls: ReadonlyArray<LmCall>) => {
  const reported = calls.flatMap((call) => (call.completion.usage === undefined ? [] : [call.completion.usage]))
  if (reported.length === 0) return {}
  const sum = (key: "prompt_tokens" | "completion_tokens" | "total_tokens") =>
    reported.reduce((total, usage) => total + count(usage[key]), 0)
  return {
    usage: {
      prompt_tokens: sum("prompt_tokens"),
      completion_tokens: sum("completion_tokens"),
      total_tokens: sum("total_tokens"),
    },
  }
}

/** A synth-ai tracing-v3 session trace (the `lm_call` event form newer synth-ai helpers emit) from model calls. */
export const sessionTrace = (options: SessionTraceOptions): SessionTrace => ({
  schema_version: "3.0",
  session_id: options.sessionId,
  created_at: (options.createdAt ?? options.calls[0]?.startedAt ?? new Date()).toISOString(),
  event_history: options.calls.map(lmCallEvent),
  markov_blanket_message_history: [],
  metadata: { ...options.metadata, session_id: options.sessionId },
  ...totalUsage(options.calls),
})
