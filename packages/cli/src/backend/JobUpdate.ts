import { type EvalResult, isRecord, type RunEvent } from "@proctor/core"
import { Option } from "effect"
import type { Job } from "./JobsWire.js"
import { isTerminalState } from "./JobsWire.js"
import type { SseMessage } from "./sse.js"

/** Counters a job's event stream reports (synth-ai's `data.completed` / `data.total`, plus proctor's extras). */
export interface JobCounters {
  readonly completed: number
  readonly total: number | null
  readonly ok: number | null
  readonly errored: number | null
  readonly inFlight: number | null
  readonly meanScore: number | null
  /** The rollout that moved the counters, when the event carried it. */
  readonly result: EvalResult | null
}

/**
 * What following a job yields:
 * - `Snapshot`: a `GET /jobs/{id}` status (the polling path, and the first and last word of every follow);
 * - `Started` / `Progress` / `Retried`: the event stream's `job.started`, `seed.completed`, `seed.retried`;
 * - `Run`: a core run event relayed as is, for servers that send those;
 * - `Status`: a status change on the stream; `endsStream` when nothing more will come on it (the job ended,
 *   or, for `job.interrupted`, that server stopped running it for now).
 */
export type JobUpdate =
  | { readonly _tag: "Snapshot"; readonly job: Job }
  | { readonly _tag: "Started"; readonly total: number; readonly alreadyDone: number }
  | { readonly _tag: "Progress"; readonly counters: JobCounters }
  | { readonly _tag: "Retried" }
  | { readonly _tag: "Run"; readonly event: RunEvent }
  | { readonly _tag: "Status"; readonly status: string; readonly endsStream: boolean }

const RUN_EVENT_TAGS = new Set(["RunStarted", "RolloutFinished", "RolloutRetried", "StopRequested", "RunFinished"])

/** synth-ai's (and proctor's server's) event types after which a stream ends. */
const ENDING_TYPES = new Set(["job.completed", "job.failed", "job.cancelled", "job.canceled", "job.interrupted"])

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

const asRunEvent = (value: unknown): RunEvent | null =>
  isRecord(value) && typeof value._tag === "string" && RUN_EVENT_TAGS.has(value._tag) ? (value as RunEvent) : null

const countersOf = (data: Record<string, unknown>): JobCounters | null => {
  const completed = num(data.completed)
  if (completed === null) return null
  const result = data.result
  return {
    completed,
    total: num(data.total),
    ok: num(data.ok),
    errored: num(data.errored),
    inFlight: num(data.in_flight),
    meanScore: num(data.mean_score) ?? num(data.mean_reward),
    result: isRecord(result) && typeof result.seed === "number" ? (result as unknown as EvalResult) : null,
  }
}

/** `{type, job_id, message, data}` events, the vocabulary synth-ai's stream client reads. */
const fromTypedEvent = (type: string, data: Record<string, unknown>): Option.Option<JobUpdate> => {
  if (ENDING_TYPES.has(type)) {
    const status = typeof data.status === "string" ? data.status : type.slice("job.".length)
    return Option.some({ _tag: "Status", status, endsStream: true })
  }
  switch (type) {
    case "job.started":
      return Option.some({ _tag: "Started", total: num(data.total) ?? 0, alreadyDone: num(data.already_done) ?? 0 })
    case "seed.completed":
    case "job.status":
    case "job.progress": {
      const counters = countersOf(data)
      if (counters !== null) return Option.some({ _tag: "Progress", counters })
      return typeof data.status === "string"
        ? Option.some({ _tag: "Status", status: data.status, endsStream: isTerminalState(data.status) })
        : Option.none()
    }
    case "seed.retried":
      return Option.some({ _tag: "Retried" })
    default:
      return Option.none()
  }
}

/**
 * Reads one SSE message leniently. Understood: synth-ai's typed events (`{type, data}`, the type also
 * possibly given as the SSE event name), core run events (bare or wrapped in `event` / `payload`), and bare
 * `{status}` payloads. Anything else (heartbeats, kinds this client does not know) yields nothing.
 */
export const updateFromSse = (message: SseMessage): Option.Option<JobUpdate> => {
  let payload: unknown = null
  try {
    payload = JSON.parse(message.data)
  } catch {
    return ENDING_TYPES.has(message.event)
      ? Option.some({ _tag: "Status", status: message.event.slice("job.".length), endsStream: true })
      : Option.none()
  }
  const direct = asRunEvent(payload) ?? (isRecord(payload) ? asRunEvent(payload.event ?? payload.payload) : null)
  if (direct !== null) return Option.some({ _tag: "Run", event: direct })
  if (!isRecord(payload)) return Option.none()
  const type = typeof payload.type === "string" ? payload.type : message.event
  const data = isRecord(payload.data) ? payload.data : payload
  const typed = fromTypedEvent(type, data)
  if (Option.isSome(typed)) return typed
  if (typeof payload.status === "string") {
    return Option.some({ _tag: "Status", status: payload.status, endsStream: isTerminalState(payload.status) })
  }
  return Option.none()
}

/**
 * True for the update after which a job's event stream has nothing more to say (a snapshot: after which a
 * poll has nothing more to say).
 */
export const isFinalUpdate = (update: JobUpdate): boolean => {
  switch (update._tag) {
    case "Snapshot":
      return isTerminalState(update.job.status)
    case "Status":
      return update.endsStream
    case "Run":
      // The server's run is over; whatever it says next is its terminal status, which polling also gets.
      return update.event._tag === "RunFinished"
    default:
      return false
  }
}
