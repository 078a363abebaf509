import type { ModelApi, ModelCall } from "../result/ModelCall.js"
import { inputMessages, outputOf, requestParams, toolChoice } from "./traceMessages.js"

/*
 * Field names follow synth-ai's tracing_v3 dataclasses as `dataclasses.asdict` writes them
 * (synth_ai/tracing_v3/abstractions.py: SessionTrace, SessionTimeStep, LMCAISEvent;
 * lm_call_record_abstractions.py: LLMCallRecord, LLMMessage, LLMContentPart, LLMUsage, ToolCallSpec).
 * Times inside `time_record` are Unix seconds (floats), as synth-ai records them; other times are ISO strings.
 */

type JsonObject = Readonly<Record<string, unknown>>

export type LlmContentPart = {
  readonly type: string
  readonly text?: string
  readonly data?: unknown
  readonly mime_type?: string
  readonly uri?: string
}

export type LlmMessage = {
  readonly role: string
  readonly parts: ReadonlyArray<LlmContentPart>
  readonly name?: string
  readonly tool_call_id?: string
  readonly metadata: JsonObject
}

export type ToolCallSpec = {
  readonly name: string
  readonly arguments_json: string
  readonly arguments: JsonObject | null
  readonly call_id: string | null
  readonly index: number
}

export type LlmUsage = {
  readonly input_tokens: number | null
  readonly output_tokens: number | null
  readonly total_tokens: number | null
  readonly reasoning_tokens: number | null
  readonly cache_read_tokens: number | null
  readonly cost_usd: number | null
}

export type LlmCallRecord = {
  readonly call_id: string
  readonly api_type: ModelApi
  readonly provider: string | null
  readonly model_name: string
  readonly schema_version: "1.0"
  readonly started_at: string
  readonly completed_at: string
  readonly latency_ms: number
  readonly request_params: JsonObject
  readonly input_messages: ReadonlyArray<LlmMessage>
  readonly tool_choice: string | null
  readonly output_messages: ReadonlyArray<LlmMessage>
  readonly output_text: string | null
  readonly output_tool_calls: ReadonlyArray<ToolCallSpec>
  readonly usage: LlmUsage | null
  readonly finish_reason: string | null
  readonly outcome: "success" | "error" | "cancelled"
  readonly error: { readonly message: string; readonly code: number | null } | null
  readonly metadata: JsonObject
}

/** synth-ai's LMCAISEvent: no `type` field, told apart from environment and runtime events by its fields. */
export type LmCaisEvent = {
  readonly system_instance_id: string
  readonly time_record: { readonly event_time: number | null; readonly message_time: number }
  readonly metadata: JsonObject
  readonly event_metadata: null
  readonly model_name: string
  readonly provider: string | null
  readonly input_tokens: number | null
  readonly output_tokens: number | null
  readonly total_tokens: number | null
  readonly cost_usd: number | null
  readonly latency_ms: number
  readonly span_id: null
  readonly trace_id: null
  readonly system_state_before: null
  readonly system_state_after: null
  readonly call_records: ReadonlyArray<LlmCallRecord>
}

/**
 * synth-ai's SessionTimeStep without its `events` copy: each event names its step in `metadata.step_id`
 * (synth-ai's convention), which keeps traces half the size; synth-ai's own database export has this shape.
 */
export type SessionTimeStep = {
  readonly step_id: string
  readonly step_index: number
  readonly timestamp: string
  readonly turn_number: number
  readonly markov_blanket_messages: ReadonlyArray<unknown>
  readonly step_metadata: JsonObject
  readonly completed_at: string
}

/** Where proctor's and synth-ai's readers first look for a rollout's tokens (`trace.usage.total_tokens`). */
export type TraceUsage = {
  readonly prompt_tokens: number
  readonly completion_tokens: number
  readonly total_tokens: number
}

/** A tracing-v3 session trace of any generation; unknown keys are kept. */
export interface SessionTrace {
  readonly [key: string]: unknown
  readonly session_id: string
  readonly created_at: string
  readonly session_time_steps: ReadonlyArray<unknown>
  readonly event_history: ReadonlyArray<unknown>
  readonly markov_blanket_message_history: ReadonlyArray<unknown>
  readonly metadata: JsonObject
}

export interface InterceptedSessionTrace extends SessionTrace {
  readonly session_time_steps: ReadonlyArray<SessionTimeStep>
  readonly event_history: ReadonlyArray<LmCaisEvent>
  readonly usage?: TraceUsage
}

export interface SessionTraceMeta {
  readonly sessionId: string
  readonly runId: string
  readonly seed: number
  readonly attempt: number
  /** Defaults to the first call's start. */
  readonly createdAt?: string
  /** Defaults to the calls' `rollout_id` (the `run_id`/`trace_correlation_id` sent to the task app). */
  readonly traceCorrelationId?: string
}

const totalOf = (call: ModelCall): number | null => {
  const u = call.usage
  if (u === null) return null
  if (u.total_tokens !== null) return u.total_tokens
  return u.prompt_tokens !== null && u.completion_tokens !== null ? u.prompt_tokens + u.completion_tokens : null
}

const OUTCOME = { ok: "success", error: "error", cancelled: "cancelled" } as const

const callRecord = (call: ModelCall): LlmCallRecord => {
  const output = outputOf(call.response_message)
  return {
    call_id: call.call_id,
    api_type: call.api,
    provider: call.provider,
    model_name: call.model ?? "",
    schema_version: "1.0",
    started_at: call.started_at,
    completed_at: call.completed_at,
    latency_ms: Math.round(call.latency_ms),
    request_params: requestParams(call.request),
    input_messages: inputMessages(call.api, call.request),
    tool_choice: toolChoice(call.request),
    output_messages: output.messages,
    output_text: output.text,
    output_tool_calls: output.toolCalls,
    usage:
      call.usage === null
        ? null
        : {
            input_tokens: call.usage.prompt_tokens,
            output_tokens: call.usage.completion_tokens,
            total_tokens: totalOf(call),
            reasoning_tokens: call.usage.reasoning_tokens,
            cache_read_tokens: call.usage.cached_tokens,
            cost_usd: call.cost_usd,
          },
    finish_reason: call.finish_reason,
    outcome: OUTCOME[call.outcome],
    error: call.error === null ? null : { message: call.error, code: call.status },
    metadata: { stream: call.stream, status: call.status, ttft_ms: call.ttft_ms },
  }
}

const INTERCEPTOR = "interceptor"

const unixSeconds = (iso: string): number | null => {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? null : ms / 1000
}

const stepId = (index: number) => `call_${index}`

const lmCaisEvent = (call: ModelCall, index: number): LmCaisEvent => ({
  system_instance_id: "proctor.interceptor",
  time_record: { event_time: unixSeconds(call.started_at), message_time: index },
  metadata: {
    source: INTERCEPTOR,
    step_id: stepId(index),
    call_id: call.call_id,
    rollout_id: call.rollout_id,
    ...(call.error === null ? {} : { error: call.error }),
  },
  event_metadata: null,
  model_name: call.model ?? "",
  provider: call.provider,
  input_tokens: call.usage?.prompt_tokens ?? null,
  output_tokens: call.usage?.completion_tokens ?? null,
  total_tokens: totalOf(call),
  cost_usd: call.cost_usd,
  latency_ms: Math.round(call.latency_ms),
  span_id: null,
  trace_id: null,
  system_state_before: null,
  system_state_after: null,
  call_records: [callRecord(call)],
})

const timeStep = (call: ModelCall, index: number): SessionTimeStep => ({
  step_id: stepId(index),
  step_index: index,
  timestamp: call.started_at,
  turn_number: index,
  markov_blanket_messages: [],
  step_metadata: { call_id: call.call_id },
  completed_at: call.completed_at,
})

const sum = (values: ReadonlyArray<number | null | undefined>) => values.reduce<number>((t, v) => t + (v ?? 0), 0)

/** `cost_usd` is null when no call was priced; `unpriced_calls` says how many calls the total leaves out. */
const usageTotals = (calls: ReadonlyArray<ModelCall>) => {
  const priced = calls.flatMap((c) => (c.cost_usd === null ? [] : [c.cost_usd]))
  return {
    call_count: calls.length,
    input_tokens: sum(calls.map((c) => c.usage?.prompt_tokens)),
    output_tokens: sum(calls.map((c) => c.usage?.completion_tokens)),
    total_tokens: sum(calls.map(totalOf)),
    reasoning_tokens: sum(calls.map((c) => c.usage?.reasoning_tokens)),
    cache_read_tokens: sum(calls.map((c) => c.usage?.cached_tokens)),
    cost_usd: priced.length === 0 ? null : Number(sum(priced).toPrecision(12)),
    unpriced_calls: calls.length - priced.length,
  }
}

/**
 * A synth-ai tracing-v3 session trace of one rollout from the model calls the interceptor saw: one
 * LMCAISEvent and one time step per call, in the order the calls started.
 */
export const sessionTraceFromCalls = (
  calls: ReadonlyArray<ModelCall>,
  meta: SessionTraceMeta,
): InterceptedSessionTrace => {
  const ordered = [...calls].sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at))
  const totals = usageTotals(ordered)
  const correlationId = meta.traceCorrelationId ?? ordered[0]?.rollout_id
  const reported = ordered.some((c) => c.usage !== null)
  return {
    session_id: meta.sessionId,
    created_at: meta.createdAt ?? ordered[0]?.started_at ?? new Date().toISOString(),
    session_time_steps: ordered.map(timeStep),
    event_history: ordered.map(lmCaisEvent),
    markov_blanket_message_history: [],
    metadata: {
      session_id: meta.sessionId,
      ...(correlationId === undefined ? {} : { trace_correlation_id: correlationId }),
      proctor: { run_id: meta.runId, seed: meta.seed, attempt: meta.attempt, source: INTERCEPTOR },
      usage: totals,
    },
    ...(reported
      ? {
          usage: {
            prompt_tokens: totals.input_tokens,
            completion_tokens: totals.output_tokens,
            total_tokens: totals.total_tokens,
          },
        }
      : {}),
  }
}

export { mergeSessionTraces } from "./internal/mergeSessionTraces.js"
