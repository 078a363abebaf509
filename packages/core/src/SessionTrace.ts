import type { ModelApi, ModelCall } from "./ModelCall.js"

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

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)
const num = (u: unknown): number | null => (typeof u === "number" && Number.isFinite(u) ? u : null)

const parseObject = (json: string): JsonObject | null => {
  try {
    const value: unknown = JSON.parse(json)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

// ---- messages -------------------------------------------------------------------------------------------------

const textPart = (text: string): LlmContentPart => ({ type: "text", text })

const contentPart = (item: unknown): LlmContentPart => {
  if (typeof item === "string") return textPart(item)
  if (!isRecord(item)) return { type: "json", data: item }
  const type = str(item.type)
  switch (type) {
    case "text":
    case "input_text":
    case "output_text":
      return textPart(str(item.text) ?? "")
    case "image_url":
    case "input_image": {
      const image = item.image_url
      const uri = typeof image === "string" ? image : isRecord(image) ? str(image.url) : undefined
      return uri === undefined ? { type: "image", data: item } : { type: "image", uri }
    }
    case "image": {
      const source = isRecord(item.source) ? item.source : undefined
      const mime = source === undefined ? undefined : str(source.media_type)
      return { type: "image", data: source ?? item, ...(mime === undefined ? {} : { mime_type: mime }) }
    }
    case "thinking":
      return { type: "thinking", text: str(item.thinking) ?? "" }
    case "refusal":
      return { type: "refusal", text: str(item.refusal) ?? "" }
    case "tool_result": {
      const text = str(item.content)
      return { type: "tool_result", data: item, ...(text === undefined ? {} : { text }) }
    }
    default:
      return { type: type ?? "json", data: item }
  }
}

const contentParts = (content: unknown): ReadonlyArray<LlmContentPart> =>
  content === null || content === undefined
    ? []
    : Array.isArray(content)
      ? content.map(contentPart)
      : [contentPart(content)]

/** Chat `tool_calls[]`, Anthropic `tool_use` blocks and Responses `function_call` items, in one shape. */
const toolCallSpec = (call: unknown, index: number): ToolCallSpec | undefined => {
  if (!isRecord(call)) return undefined
  const fn = isRecord(call.function) ? call.function : call
  const name = str(fn.name)
  if (name === undefined) return undefined
  const raw = call.type === "tool_use" ? call.input : fn.arguments
  const json = typeof raw === "string" ? raw : JSON.stringify(raw ?? {})
  return {
    name,
    arguments_json: json,
    arguments: parseObject(json),
    call_id: str(call.id) ?? str(call.call_id) ?? null,
    index,
  }
}

const toolCallsOf = (item: unknown): ReadonlyArray<unknown> => {
  if (!isRecord(item)) return []
  if (item.type === "function_call") return [item]
  const chat = Array.isArray(item.tool_calls) ? item.tool_calls : []
  const blocks = Array.isArray(item.content) ? item.content.filter((b) => isRecord(b) && b.type === "tool_use") : []
  return [...chat, ...blocks]
}

/** Output messages leave tool calls to `output_tool_calls`; input messages keep them as `tool_call` parts. */
const message = (m: unknown, defaultRole: string, keepToolCalls: boolean): LlmMessage => {
  if (!isRecord(m)) return { role: defaultRole, parts: contentParts(m), metadata: {} }
  const name = str(m.name)
  const toolCallId = str(m.tool_call_id) ?? str(m.call_id)
  const optional = {
    ...(name === undefined ? {} : { name }),
    ...(toolCallId === undefined ? {} : { tool_call_id: toolCallId }),
  }
  if (m.type === "function_call") return { role: "assistant", parts: [{ type: "tool_call", data: m }], metadata: {} }
  if (m.type === "function_call_output") {
    const output = str(m.output) ?? JSON.stringify(m.output ?? null)
    return { role: "tool", parts: [textPart(output)], ...optional, metadata: {} }
  }
  if (m.role === undefined && m.content === undefined) {
    return { role: defaultRole, parts: [{ type: str(m.type) ?? "json", data: m }], metadata: {} }
  }
  const reasoning = str(m.reasoning_content) ?? str(m.reasoning)
  const parts = [
    ...(reasoning === undefined ? [] : [{ type: "reasoning", text: reasoning }]),
    ...contentParts(m.content).filter((p) => keepToolCalls || p.type !== "tool_use"),
    ...(keepToolCalls && Array.isArray(m.tool_calls) ? m.tool_calls.map((data) => ({ type: "tool_call", data })) : []),
  ]
  return { role: str(m.role) ?? defaultRole, parts, ...optional, metadata: {} }
}

const inputMessages = (api: ModelApi, request: unknown): ReadonlyArray<LlmMessage> => {
  if (!isRecord(request)) return []
  const system = api === "messages" ? request.system : api === "responses" ? request.instructions : undefined
  const head: ReadonlyArray<LlmMessage> =
    system === undefined || system === null ? [] : [{ role: "system", parts: contentParts(system), metadata: {} }]
  const body = api === "responses" ? request.input : request.messages
  const items = body === undefined || body === null ? [] : Array.isArray(body) ? body : [body]
  return [...head, ...items.map((m) => message(m, "user", true))]
}

const outputOf = (response: unknown) => {
  const items = response === undefined || response === null ? [] : Array.isArray(response) ? response : [response]
  const messages = items
    .filter((item) => !(isRecord(item) && item.type === "function_call"))
    .map((item) => message(item, "assistant", false))
  const toolCalls = items
    .flatMap(toolCallsOf)
    .flatMap((call, i) => {
      const spec = toolCallSpec(call, i)
      return spec === undefined ? [] : [spec]
    })
    .map((spec, index) => ({ ...spec, index }))
  const texts = messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.type === "text" && p.text !== undefined ? [p.text] : [])),
  )
  return { messages, toolCalls, text: texts.length === 0 ? null : texts.join("") }
}

// ---- records and events ---------------------------------------------------------------------------------------

const MESSAGE_KEYS = new Set(["messages", "input", "system", "instructions"])

const requestParams = (request: unknown): JsonObject => {
  if (!isRecord(request)) return { raw_params: {} }
  const stop = request.stop
  return {
    temperature: num(request.temperature),
    top_p: num(request.top_p),
    max_tokens: num(request.max_completion_tokens) ?? num(request.max_tokens) ?? num(request.max_output_tokens),
    stop: typeof stop === "string" ? [stop] : Array.isArray(stop) ? stop : null,
    top_k: num(request.top_k),
    seed: num(request.seed),
    n: num(request.n),
    response_format: isRecord(request.response_format) ? request.response_format : null,
    raw_params: Object.fromEntries(Object.entries(request).filter(([key]) => !MESSAGE_KEYS.has(key))),
  }
}

const toolChoice = (request: unknown): string | null => {
  if (!isRecord(request) || request.tool_choice === undefined || request.tool_choice === null) return null
  return typeof request.tool_choice === "string" ? request.tool_choice : JSON.stringify(request.tool_choice)
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

// ---- merging --------------------------------------------------------------------------------------------------

/** Every id a task app may have recorded for a call: synth-ai's `call_records[].call_id`, or looser spots. */
const callIdsOf = (event: unknown): ReadonlyArray<string> => {
  if (!isRecord(event)) return []
  const records = Array.isArray(event.call_records) ? event.call_records : []
  const response = isRecord(event.llm_response) ? event.llm_response : {}
  const metadata = isRecord(event.metadata) ? event.metadata : {}
  return [
    event.call_id,
    metadata.call_id,
    response.call_id,
    response.id,
    ...records.map((r) => isRecord(r) && r.call_id),
  ]
    .map(str)
    .filter((id): id is string => id !== undefined && id !== "")
}

const isModelCallEvent = (event: unknown): event is Record<string, unknown> =>
  isRecord(event) &&
  (event.type === "lm_call" || Array.isArray(event.call_records) || "model_name" in event || "llm_response" in event)

const markSource = (event: Record<string, unknown>, source: string): Record<string, unknown> => {
  const metadata = isRecord(event.metadata) ? event.metadata : {}
  return metadata.source === undefined ? { ...event, metadata: { ...metadata, source } } : event
}

/** Unix seconds, Unix milliseconds, numeric strings or ISO strings, as milliseconds. */
const toMs = (u: unknown): number | undefined => {
  if (typeof u === "string" && /^\d+(?:\.\d+)?$/.test(u)) return toMs(Number(u))
  if (typeof u === "number" && Number.isFinite(u)) return u < 1e11 ? u * 1000 : u
  if (typeof u !== "string") return undefined
  const ms = Date.parse(u)
  return Number.isNaN(ms) ? undefined : ms
}

const timeOf = (event: unknown): number | undefined => {
  if (!isRecord(event)) return undefined
  const record = Array.isArray(event.call_records) ? event.call_records[0] : undefined
  return (
    toMs(isRecord(event.time_record) ? event.time_record.event_time : undefined) ??
    toMs(event.timestamp) ??
    toMs(isRecord(record) ? record.started_at : undefined)
  )
}

/** An event without a time keeps its place after the event before it in its own list. */
const withTimes = (events: ReadonlyArray<unknown>) => {
  let last = Number.NEGATIVE_INFINITY
  return events.map((event) => {
    last = timeOf(event) ?? last
    return { event, at: last }
  })
}

/** Some task apps send `{session_trace: {...}, ...}`; the envelope's other keys are kept alongside. */
const unwrap = (trace: Record<string, unknown>): Record<string, unknown> => {
  if (Array.isArray(trace.event_history) || !isRecord(trace.session_trace)) return trace
  const { session_trace, ...envelope } = trace
  return { ...envelope, ...session_trace }
}

/**
 * Merges the trace a task app returned with the interceptor's. The task app's events and metadata are kept;
 * intercepted model calls it already recorded (same call id) are not added again, and its model-call events
 * that match none are kept beside the intercepted ones, each marked with `metadata.source` (`task_app` or
 * `interceptor`), so nothing is lost when the two cannot be matched. Events are ordered by time.
 * The task app's own `usage` totals win when it sent them (it may call models proctor never saw);
 * proctor's are always under `metadata.proctor.usage`. A task-app trace that is not an object is kept whole
 * under `metadata.task_app_trace`.
 */
export const mergeSessionTraces = (taskAppTrace: unknown, intercepted: SessionTrace): SessionTrace => {
  if (!isRecord(taskAppTrace)) {
    return taskAppTrace === undefined
      ? intercepted
      : { ...intercepted, metadata: { ...intercepted.metadata, task_app_trace: taskAppTrace } }
  }
  const base = unwrap(taskAppTrace)
  const theirEvents: ReadonlyArray<unknown> = Array.isArray(base.event_history) ? base.event_history : []
  const theirIds = new Set(theirEvents.flatMap(callIdsOf))
  const ourIds = new Set(intercepted.event_history.flatMap(callIdsOf))

  const matched = new Set<string>()
  const added = intercepted.event_history.filter((event) => {
    const ids = callIdsOf(event).filter((id) => theirIds.has(id))
    for (const id of ids) matched.add(id)
    return ids.length === 0
  })
  const kept = theirEvents.map((event) =>
    isModelCallEvent(event) && !callIdsOf(event).some((id) => ourIds.has(id)) ? markSource(event, "task_app") : event,
  )
  const eventHistory = [...withTimes(kept), ...withTimes(added)]
    .sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1))
    .map(({ event }) => event)

  const ours = intercepted.metadata
  const theirs = isRecord(base.metadata) ? base.metadata : {}
  const proctor = {
    ...(isRecord(theirs.proctor) ? theirs.proctor : {}),
    ...(isRecord(ours.proctor) ? ours.proctor : {}),
    ...(ours.usage === undefined ? {} : { usage: ours.usage }),
    merge: {
      task_app_events: theirEvents.length,
      interceptor_events_added: added.length,
      matched_call_ids: [...matched],
    },
  }
  const metadata = {
    ...theirs,
    ...(base.metadata === undefined || isRecord(base.metadata) ? {} : { task_app_metadata: base.metadata }),
    ...(theirs.trace_correlation_id === undefined && ours.trace_correlation_id !== undefined
      ? { trace_correlation_id: ours.trace_correlation_id }
      : {}),
    ...(theirs.usage === undefined && ours.usage !== undefined ? { usage: ours.usage } : {}),
    proctor,
  }
  const steps = Array.isArray(base.session_time_steps) ? base.session_time_steps : []
  const usage = base.usage ?? intercepted.usage
  return {
    ...base,
    session_id:
      base.session_id === undefined || base.session_id === null ? intercepted.session_id : String(base.session_id),
    created_at:
      base.created_at === undefined || base.created_at === null ? intercepted.created_at : String(base.created_at),
    session_time_steps: steps.length > 0 ? steps : intercepted.session_time_steps,
    event_history: eventHistory,
    markov_blanket_message_history: Array.isArray(base.markov_blanket_message_history)
      ? base.markov_blanket_message_history
      : intercepted.markov_blanket_message_history,
    metadata,
    ...(usage === undefined ? {} : { usage }),
  }
}
