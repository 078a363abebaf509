import { Context, Effect, Either, Layer, Option, Redacted, type Scope } from "effect"
import { Pool } from "undici"
import { defaults } from "../config/EvalRunConfig.js"
import { formatParseIssues, renderPath } from "../internal/formatIssues.js"
import { headerValue } from "../internal/headerValue.js"
import {
  type AcceptedRollout,
  acceptedRolloutOf,
  type PollState,
  pollStateOf,
  terminatePath,
} from "./AsyncRolloutWire.js"
import { DeadlineSweep } from "./internal/DeadlineSweep.js"
import { exchange, TOO_LARGE_CODE } from "./internal/Exchange.js"
import { parsePythonJson } from "./internal/parsePythonJson.js"
import { isUnauthorisedEnvelope, parseRetryAfter, TaskAppError } from "./TaskAppError.js"
import { decodeRolloutResponse, type RolloutRequest, type RolloutResponse } from "./TaskAppWire.js"

export interface TaskAppClientOptions {
  /** Base URL of the task app; a path prefix is kept (`http://host/apps/math` → `/apps/math/rollout`). */
  readonly baseUrl: string
  readonly apiKey?: Redacted.Redacted<string> | null | undefined
  /** Deadline of one request, enforced by the transport (no timer fiber per request). */
  readonly timeoutMs: number
  /** Keep-alive connections to the task app; the runner sets this to its concurrency. */
  readonly connections?: number | undefined
  /** Longer answers are refused while they stream in (`too_large`); default `defaults.max_response_bytes`. */
  readonly maxResponseBytes?: number | undefined
}

export interface TaskAppClientService {
  readonly baseUrl: string
  readonly health: () => Effect.Effect<unknown, TaskAppError>
  readonly info: () => Effect.Effect<unknown, TaskAppError>
  /** One seed → one object, several → a list, none → `{"taskset": …}`. */
  readonly taskInfo: (seeds: ReadonlyArray<number>) => Effect.Effect<unknown, TaskAppError>
  /**
   * A rollout request, or its JSON already encoded (`encodeRolloutRequest`): answered with the result, or (the
   * async form) with the id of a rollout the app runs in the background, to poll with `pollRollout`.
   */
  readonly rollout: (request: RolloutRequest | string) => Effect.Effect<RolloutStart, TaskAppError>
  /** How a rollout started in the async form stands; a done one's result is decoded as a rollout response. */
  readonly pollRollout: (statusPath: string) => Effect.Effect<PolledRollout, TaskAppError>
  /** Asks the app to stop a rollout it runs in the background (`POST /rollouts/{id}/terminate`). */
  readonly terminateRollout: (appRolloutId: string, reason: string) => Effect.Effect<void, TaskAppError>
  /** A raw request, for contract checks that need to see exactly what the server answered. */
  readonly request: (
    method: "GET" | "POST",
    path: string,
    /** `body` is sent as JSON; a string is taken as JSON already encoded. */
    options?: { readonly body?: unknown; readonly auth?: boolean },
  ) => Effect.Effect<RawResponse, TaskAppError>
  /** Aborts every request in flight: how a run is cancelled without a signal per request. */
  readonly abortAll: () => Promise<void>
}

export type RolloutStart =
  | { readonly _tag: "Finished"; readonly response: RolloutResponse }
  | { readonly _tag: "Accepted"; readonly accepted: AcceptedRollout }

export interface PolledRollout {
  readonly state: PollState<RolloutResponse>
  /** The app's `Retry-After` on this answer, when it gave one. */
  readonly retryAfterMs?: number
}

export interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly text: string
}

/** Talks to one task app over a keep-alive undici pool: the rollout call is proctor's hot path. */
export class TaskAppClient extends Context.Tag("@proctor/core/TaskAppClient")<TaskAppClient, TaskAppClientService>() {
  static readonly make = (options: TaskAppClientOptions): Effect.Effect<TaskAppClientService, never, Scope.Scope> =>
    Effect.acquireRelease(
      Effect.sync(() => makeClient(options)),
      (client) => Effect.promise(client.abortAll),
    )

  static readonly layer = (options: TaskAppClientOptions): Layer.Layer<TaskAppClient> =>
    Layer.scoped(TaskAppClient, TaskAppClient.make(options))
}

const TRANSPORT_TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"])

const transportError = (endpoint: string, timeoutMs: number, maxBytes: number) => (cause: unknown) => {
  const code = (cause as { code?: string }).code ?? ""
  if (code === TOO_LARGE_CODE) {
    return new TaskAppError({
      reason: "TooLarge",
      endpoint,
      message: `${endpoint} answered with more than ${maxBytes} bytes (max_response_bytes); the answer was refused`,
    })
  }
  if (TRANSPORT_TIMEOUT_CODES.has(code)) {
    return new TaskAppError({
      reason: "Timeout",
      endpoint,
      message: `no answer from ${endpoint} within ${timeoutMs} ms`,
    })
  }
  const detail = code === "" ? String((cause as Error).message ?? cause) : code
  return new TaskAppError({ reason: "Unreachable", endpoint, message: `${endpoint} unreachable (${detail})` })
}

const snippet = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)

/** How much of an error body's own message is kept: enough for a cause chain, bounded for a row. */
const MAX_REASON_CHARS = 500

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * `code: message` of an error envelope (`{"detail":{"error":{code, message}}}`, `{"error":{…}}`,
 * `{"detail": "…"}`), so the reason leads instead of being cut off inside the JSON; null for any other body.
 */
const envelopeReason = (json: unknown): string | null => {
  const detail = isRecord(json) ? json.detail : undefined
  if (typeof detail === "string") return detail.slice(0, MAX_REASON_CHARS)
  const error = isRecord(detail) ? detail.error : isRecord(json) ? json.error : undefined
  if (typeof error === "string") return error.slice(0, MAX_REASON_CHARS)
  if (!isRecord(error) || typeof error.message !== "string") return null
  const code = typeof error.code === "string" ? `${error.code}: ` : ""
  return `${code}${error.message}`.slice(0, MAX_REASON_CHARS)
}

/** Maps a non-2xx answer to its error, or parses a 2xx body as JSON. */
export const classifyResponse = (endpoint: string, raw: RawResponse): Either.Either<unknown, TaskAppError> => {
  const { status, text } = raw
  let json: unknown
  let parsed = true
  try {
    json = JSON.parse(text)
  } catch {
    json = parsePythonJson(text)
    parsed = json !== undefined
  }
  if (status >= 200 && status < 300) {
    return parsed
      ? Either.right(json)
      : Either.left(
          new TaskAppError({
            reason: "MalformedBody",
            endpoint,
            status,
            message: `${endpoint} answered ${status} with a body that is not JSON: ${snippet(text)}`,
          }),
        )
  }
  const retryAfterMs = parseRetryAfter(headerValue(raw.headers["retry-after"]), Date.now())
  const base = { endpoint, status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
  if (status === 401 || status === 403 || (status === 400 && parsed && isUnauthorisedEnvelope(json))) {
    return Either.left(
      new TaskAppError({
        ...base,
        reason: "Unauthorized",
        message: `${endpoint} rejected the task-app API key (${status})`,
      }),
    )
  }
  if (status === 429) {
    return Either.left(
      new TaskAppError({ ...base, reason: "RateLimited", message: `${endpoint} is rate limiting (429)` }),
    )
  }
  return Either.left(
    new TaskAppError({
      ...base,
      reason: "HttpStatus",
      message: `${endpoint} answered ${status}: ${(parsed ? envelopeReason(json) : null) ?? snippet(text)}`,
    }),
  )
}

const makeClient = (options: TaskAppClientOptions): TaskAppClientService => {
  const base = new URL(options.baseUrl)
  const prefix = base.pathname.replace(/\/+$/, "")
  const maxBytes = options.maxResponseBytes ?? defaults.max_response_bytes
  // undici counts the bytes as they arrive and drops the connection at the limit, so no answer is held
  // beyond it: memory stays under connections × maxBytes however much a task app sends.
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 64,
    keepAliveTimeout: 30_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    maxResponseSize: maxBytes,
  })
  const key = options.apiKey ? Redacted.value(options.apiKey) : undefined
  const authHeaders: Record<string, string> = key
    ? { "x-api-key": key, authorization: `Bearer ${key}`, "x-api-keys": key }
    : {}
  const jsonHeaders = { ...authHeaders, "content-type": "application/json", accept: "application/json" }

  const deadlines = new DeadlineSweep()
  const request: TaskAppClientService["request"] = (method, path, opts) => {
    const body = opts?.body
    const dispatched = {
      method,
      path: prefix + path,
      headers: (opts?.auth ?? true) ? jsonHeaders : { accept: "application/json" },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    }
    return Effect.tryPromise({
      try: () => exchange(pool, dispatched, { maxBytes, deadline: Date.now() + options.timeoutMs, deadlines }),
      catch: transportError(`${method} ${path.split("?")[0]}`, options.timeoutMs, maxBytes),
    })
  }

  const getJson = (path: string) =>
    Effect.flatMap(request("GET", path), (raw) => classifyResponse(`GET ${path.split("?")[0]}`, raw))

  const rolloutEndpoint = "POST /rollout"
  const decodeResponse = (endpoint: string, status: number, json: unknown) =>
    Either.mapLeft(
      decodeRolloutResponse(json),
      (error) =>
        new TaskAppError({
          reason: "Decode",
          endpoint,
          status,
          message: `rollout response does not match the contract: ${formatParseIssues(error, (p) => renderPath("", p))}`,
        }),
    )
  const retryAfterOf = (raw: RawResponse) => parseRetryAfter(headerValue(raw.headers["retry-after"]), Date.now())

  const rollout = (req: RolloutRequest | string): Effect.Effect<RolloutStart, TaskAppError> =>
    Effect.flatMap(request("POST", "/rollout", { body: req }), (raw) =>
      Either.flatMap(classifyResponse(rolloutEndpoint, raw), (json): Either.Either<RolloutStart, TaskAppError> => {
        const accepted = acceptedRolloutOf(raw.status, json, headerValue(raw.headers.location), prefix)
        if (Option.isNone(accepted)) {
          return Either.map(decodeResponse(rolloutEndpoint, raw.status, json), (response) => ({
            _tag: "Finished",
            response,
          }))
        }
        const retryAfterMs = retryAfterOf(raw)
        return Either.mapBoth(accepted.value, {
          onLeft: (message) =>
            new TaskAppError({ reason: "Decode", endpoint: rolloutEndpoint, status: raw.status, message }),
          onRight: (a) => ({ _tag: "Accepted", accepted: retryAfterMs === undefined ? a : { ...a, retryAfterMs } }),
        })
      }),
    )

  const pollRollout = (statusPath: string): Effect.Effect<PolledRollout, TaskAppError> => {
    const endpoint = `GET ${statusPath}`
    return Effect.flatMap(request("GET", statusPath), (raw) => {
      const retryAfterMs = retryAfterOf(raw)
      const withRetryAfter = (state: PollState<RolloutResponse>): PolledRollout =>
        retryAfterMs === undefined ? { state } : { state, retryAfterMs }
      if (raw.status === 404) return Either.right(withRetryAfter({ _tag: "Unknown" }))
      return Either.flatMap(classifyResponse(endpoint, raw), (json) => {
        const state = pollStateOf(json)
        if (state._tag !== "Done" && state._tag !== "Stopped") return Either.right(withRetryAfter(state))
        // The result is decoded here so a malformed one fails as the sync form's would.
        return Either.map(decodeResponse(endpoint, raw.status, state.result), (result) =>
          withRetryAfter({ ...state, result }),
        )
      })
    })
  }

  const terminateRollout = (appRolloutId: string, reason: string) => {
    const path = terminatePath(appRolloutId)
    return Effect.flatMap(request("POST", path, { body: { reason } }), (raw) =>
      // 404: the app no longer holds it, which is what terminating asks for.
      raw.status === 404 ? Either.right(undefined) : Either.map(classifyResponse(`POST ${path}`, raw), () => undefined),
    )
  }

  return {
    baseUrl: options.baseUrl,
    health: Effect.fn("TaskAppClient.health")(() => getJson("/health")),
    info: Effect.fn("TaskAppClient.info")(() => getJson("/info")),
    taskInfo: Effect.fn("TaskAppClient.taskInfo")((seeds: ReadonlyArray<number>) =>
      getJson(seeds.length === 0 ? "/task_info" : `/task_info?${seeds.map((s) => `seed=${s}`).join("&")}`),
    ),
    rollout,
    pollRollout: Effect.fn("TaskAppClient.pollRollout")(pollRollout),
    terminateRollout: Effect.fn("TaskAppClient.terminateRollout")(terminateRollout),
    request,
    abortAll: () => {
      deadlines.stop()
      return pool.destroy()
    },
  }
}
