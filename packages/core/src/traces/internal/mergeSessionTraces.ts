import type { SessionTrace } from "../SessionTrace.js"
import { isRecord, str } from "../traceMessages.js"

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
