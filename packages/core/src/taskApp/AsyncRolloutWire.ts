import { Either, Option, Schema } from "effect"
import { isRecord } from "../internal/isRecord.js"

/**
 * The async form of `POST /rollout`, after synth-ai's containers contract (`synth-laboratories/containers`,
 * `http_adapter.py`, `platform/app.py`, `platform/state.py`): the app answers at once with the rollout's id and
 * runs it in the background; `GET /rollouts/{rollout_id}` says how it stands (and carries the result once it is
 * done), `POST /rollouts/{rollout_id}/terminate` (body `{reason}`) stops it, and an id the app does not know is 404.
 * The containers source answers such a start 200 with `status: "running"`; proctor also takes the 202 the issue
 * names, a `status_url` (or `Location`) where the app polls elsewhere, and a `result` object nesting the result.
 */

/**
 * How the app says a rollout stands. A poll answer with any other status is taken as still running; a start
 * answered 200 is taken as async only with one of `RUNNING` (a sync app's own `status: "success"` is a result).
 */
const RUNNING = new Set(["prepared", "queued", "pending", "accepted", "running", "in_progress"])
const DONE = new Set(["completed", "succeeded", "truncated"])
const FAILED = new Set(["failed", "error"])
/** Stopped before its end (by the app, or by proctor's terminate): recorded as an aborted rollout. */
const STOPPED = new Set(["cancelled", "canceled", "terminated", "stopped"])

const AcceptedBody = Schema.Struct({
  rollout_id: Schema.String.pipe(Schema.minLength(1)),
  status: Schema.optional(Schema.NullOr(Schema.String)),
  status_url: Schema.optional(Schema.NullOr(Schema.String)),
})

/** A rollout the app runs in the background: where to ask about it. */
export interface AcceptedRollout {
  readonly appRolloutId: string
  /** Path (under the task app's base URL) answering how the rollout stands. */
  readonly statusPath: string
  /** How long the app asked to be left alone before the first poll (`Retry-After`), when it said. */
  readonly retryAfterMs?: number
}

/** `Result` is the done rollout's result: the JSON as answered, or decoded as a rollout response. */
export type PollState<Result = unknown> =
  | { readonly _tag: "Running" }
  | { readonly _tag: "Done"; readonly result: Result }
  | { readonly _tag: "Stopped"; readonly status: string; readonly result: Result }
  | { readonly _tag: "Failed"; readonly status: string; readonly message: string }
  /** 404: the app no longer holds the rollout (it restarted, or forgot it); it has to run again. */
  | { readonly _tag: "Unknown" }

const pathOf = (location: string, basePath: string): string => {
  const absolute = /^https?:\/\//i.test(location) ? new URL(location) : null
  const path = absolute === null ? location : absolute.pathname + absolute.search
  // The client prefixes every path with the app's base path; a status URL that already carries it would get it twice.
  return basePath !== "" && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path
}

/** The status path proctor polls when the app names none: the containers contract's `GET /rollouts/{id}`. */
export const defaultStatusPath = (appRolloutId: string) => `/rollouts/${encodeURIComponent(appRolloutId)}`

export const terminatePath = (appRolloutId: string) => `/rollouts/${encodeURIComponent(appRolloutId)}/terminate`

/**
 * The rollout an answer to `POST /rollout` started in the background, or none when the answer is the result
 * itself: a 202, or a 2xx whose `status` is one of a rollout still running (the containers form).
 */
export const acceptedRolloutOf = (
  status: number,
  json: unknown,
  location: string | undefined,
  basePath: string,
): Option.Option<Either.Either<AcceptedRollout, string>> => {
  const runningStatus = isRecord(json) && typeof json.status === "string" && RUNNING.has(json.status.toLowerCase())
  if (status !== 202 && !runningStatus) return Option.none()
  const decoded = Schema.decodeUnknownEither(AcceptedBody)(json)
  if (Either.isLeft(decoded)) return Option.some(Either.left("an async answer needs a non-empty `rollout_id`"))
  const { rollout_id, status_url } = decoded.right
  const statusLocation = status_url ?? location
  return Option.some(
    Either.right({
      appRolloutId: rollout_id,
      statusPath:
        statusLocation === undefined || statusLocation === ""
          ? defaultStatusPath(rollout_id)
          : pathOf(statusLocation, basePath),
    }),
  )
}

const stateOfStatus = (status: string, body: Record<string, unknown>): PollState["_tag"] => {
  const normalised = status.toLowerCase()
  if (DONE.has(normalised)) return "Done"
  if (FAILED.has(normalised)) return "Failed"
  if (STOPPED.has(normalised)) return "Stopped"
  return body.terminated === true ? "Done" : "Running"
}

const errorMessageOf = (body: Record<string, unknown>): string => {
  const error = body.error
  if (typeof error === "string") return error
  if (isRecord(error) && typeof error.message === "string") return error.message
  const detail = body.status_detail ?? body.detail
  return typeof detail === "string" ? detail : "no reason given"
}

/** How an answer to a poll (2xx JSON) says the rollout stands; a done rollout's result is `result`, or the body. */
export const pollStateOf = (json: unknown): PollState => {
  if (!isRecord(json)) return { _tag: "Running" }
  const status = typeof json.status === "string" ? json.status : ""
  const result = isRecord(json.result) ? json.result : json
  switch (stateOfStatus(status, json)) {
    case "Done":
      return { _tag: "Done", result }
    case "Failed":
      return { _tag: "Failed", status, message: errorMessageOf(json) }
    case "Stopped":
      return { _tag: "Stopped", status, result }
    default:
      return { _tag: "Running" }
  }
}
