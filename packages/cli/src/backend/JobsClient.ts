import { HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Context, Duration, Effect, Either, Layer, Redacted, Schedule, Schema, Stream } from "effect"
import { JobsClientError } from "./JobsClientError.js"
import { ErrorBody, Job, JobList, JobResults, SubmittedJob } from "./JobsWire.js"
import { isFinalUpdate, type JobUpdate, updateFromSse } from "./JobUpdate.js"
import type { JobSubmission } from "./jobSubmission.js"
import { sseMessages } from "./sse.js"

export interface JobsClientOptions {
  /** The server's base URL; a trailing `/api` (synth-ai's `SYNTH_BASE_URL` form) is accepted too. */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string> | null
  /** Deadline of one request (not of a followed event stream). Default 30 s. */
  readonly requestTimeoutMs?: number | undefined
  /** How often to poll when the event stream is unavailable. Default 2 s, synth-ai's cadence. */
  readonly pollIntervalMs?: number | undefined
  /** An event stream silent this long is taken as dropped and polling takes over. Default 30 s. */
  readonly streamIdleMs?: number | undefined
}

export interface ListJobsQuery {
  readonly status?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export interface FollowOptions {
  /** false: poll only, never open the event stream. */
  readonly events?: boolean | undefined
}

export interface JobsClientService {
  /** The normalized base URL, e.g. `http://127.0.0.1:8000`. */
  readonly baseUrl: string
  readonly submit: (body: JobSubmission) => Effect.Effect<SubmittedJob, JobsClientError>
  readonly get: (jobId: string) => Effect.Effect<Job, JobsClientError>
  readonly list: (query?: ListJobsQuery) => Effect.Effect<JobList, JobsClientError>
  readonly results: (jobId: string) => Effect.Effect<JobResults, JobsClientError>
  /** `GET …/results?format=jsonl`: one JSON row per line, as the server streams them. */
  readonly resultLines: (jobId: string) => Stream.Stream<string, JobsClientError>
  /** The traces zip, whole. */
  readonly traces: (jobId: string) => Effect.Effect<Uint8Array, JobsClientError>
  readonly cancel: (jobId: string) => Effect.Effect<Readonly<Record<string, unknown>>, JobsClientError>
  /** The job's event stream as updates; fails when the server has no event stream for it. */
  readonly events: (jobId: string) => Stream.Stream<JobUpdate, JobsClientError>
  /**
   * Follows a job to its end: a first snapshot, then live updates from the event stream, falling back to
   * polling when the stream is unavailable or drops, and always a last snapshot with a terminal status.
   */
  readonly follow: (jobId: string, options?: FollowOptions) => Stream.Stream<JobUpdate, JobsClientError>
}

/** `http://host/` and `http://host/api` both mean the server at `http://host`. */
export const normalizeBaseUrl = (raw: string): string => {
  const url = new URL(raw)
  url.search = ""
  url.hash = ""
  return url
    .toString()
    .replace(/\/+$/, "")
    .replace(/\/api$/, "")
}

const RESULTS_DEADLINE = Duration.minutes(10)

const decodeLenient = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.decodeUnknownEither(schema, { onExcessProperty: "preserve" })

const reasonOfStatus = (status: number): JobsClientError["reason"] => {
  if (status === 401 || status === 403) return "Unauthorized"
  if (status === 404) return "NotFound"
  if (status >= 400 && status < 500) return "BadRequest"
  return "Server"
}

const decodeErrorBody = decodeLenient(ErrorBody)

/** The server's own words about a failed request, when its body is the documented error envelope. */
const describeErrorBody = (text: string): { message?: string; code?: string; field?: string } => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return text.trim() === "" ? {} : { message: text.trim().slice(0, 300) }
  }
  const body = decodeErrorBody(parsed)
  if (Either.isLeft(body)) return {}
  if ("error" in body.right) {
    const { code, message, field } = body.right.error
    return {
      ...(message === undefined ? {} : { message }),
      ...(code === undefined ? {} : { code }),
      ...(field === undefined ? {} : { field }),
    }
  }
  const detail = body.right.detail
  return { message: typeof detail === "string" ? detail : JSON.stringify(detail).slice(0, 300) }
}

const causeText = (cause: unknown): string => {
  const error = cause as { message?: unknown; cause?: { code?: unknown; message?: unknown } }
  const code = error.cause?.code
  if (typeof code === "string") return code
  if (typeof error.cause?.message === "string") return error.cause.message
  return typeof error.message === "string" ? error.message : String(cause)
}

export class JobsClient extends Context.Tag("@proctor/cli/JobsClient")<JobsClient, JobsClientService>() {
  static readonly make = (options: JobsClientOptions): Effect.Effect<JobsClientService, never, HttpClient.HttpClient> =>
    Effect.map(HttpClient.HttpClient, (http) => makeClient(http, options))

  /** Over undici: this client is not on a hot path, so the platform client's convenience wins. */
  static readonly layer = (options: JobsClientOptions): Layer.Layer<JobsClient> =>
    Layer.effect(JobsClient, JobsClient.make(options)).pipe(Layer.provide(NodeHttpClient.layerUndici))
}

const makeClient = (http: HttpClient.HttpClient, options: JobsClientOptions): JobsClientService => {
  const baseUrl = normalizeBaseUrl(options.baseUrl)
  const jobsUrl = `${baseUrl}/api/eval/jobs`
  const timeout = Duration.millis(options.requestTimeoutMs ?? 30_000)
  const pollInterval = Duration.millis(options.pollIntervalMs ?? 2_000)
  const streamIdle = Duration.millis(options.streamIdleMs ?? 30_000)
  const jobUrl = (jobId: string, suffix = "") => `${jobsUrl}/${encodeURIComponent(jobId)}${suffix}`

  const authorize = (request: HttpClientRequest.HttpClientRequest) =>
    options.apiKey === null ? request : HttpClientRequest.bearerToken(request, Redacted.value(options.apiKey))

  const endpointOf = (request: HttpClientRequest.HttpClientRequest) => `${request.method} ${request.url}`

  const transportError = (endpoint: string) => (error: HttpClientError.HttpClientError) =>
    new JobsClientError({
      reason: "Unreachable",
      endpoint,
      message: `cannot reach the job server at ${baseUrl}: ${causeText(error)}`,
    })

  /** Sends a request and hands back a 2xx response; anything else becomes a classified error. */
  const send = (request: HttpClientRequest.HttpClientRequest) => {
    const endpoint = endpointOf(request)
    return http.execute(authorize(request)).pipe(
      Effect.mapError(transportError(endpoint)),
      Effect.flatMap((response) =>
        response.status >= 200 && response.status < 300
          ? Effect.succeed(response)
          : Effect.flatMap(
              Effect.orElseSucceed(response.text, () => ""),
              (text) => Effect.fail(statusError(endpoint, response.status, text)),
            ),
      ),
    )
  }

  const statusError = (endpoint: string, status: number, text: string) => {
    const described = describeErrorBody(text)
    // A 403 naming a field is a refused value (e.g. a task-app host outside the server's allow-list), not a key.
    const reason = status === 403 && described.field !== undefined ? "BadRequest" : reasonOfStatus(status)
    const fallback =
      reason === "Unauthorized"
        ? "the API key was refused"
        : reason === "NotFound"
          ? "not found"
          : `the server answered HTTP ${status}`
    return new JobsClientError({
      reason,
      endpoint,
      status,
      message: described.message ?? fallback,
      ...(described.code === undefined ? {} : { code: described.code }),
      ...(described.field === undefined ? {} : { field: described.field }),
    })
  }

  const withDeadline = <A>(endpoint: string, effect: Effect.Effect<A, JobsClientError>, duration = timeout) =>
    Effect.timeoutFail(effect, {
      duration,
      onTimeout: () =>
        new JobsClientError({
          reason: "Unreachable",
          endpoint,
          message: `the job server at ${baseUrl} did not answer within ${Duration.format(duration)}`,
        }),
    })

  const requestJson = <A, I>(
    request: HttpClientRequest.HttpClientRequest,
    schema: Schema.Schema<A, I>,
    deadline: Duration.Duration = timeout,
  ) => {
    const endpoint = endpointOf(request)
    const decode = decodeLenient(schema)
    return withDeadline(
      endpoint,
      send(request).pipe(
        Effect.flatMap((response) =>
          Effect.mapError(
            response.json,
            () => new JobsClientError({ reason: "Decode", endpoint, message: "the server's answer is not JSON" }),
          ),
        ),
        Effect.flatMap((body) =>
          Either.match(decode(body), {
            onLeft: (error) =>
              Effect.fail(
                new JobsClientError({
                  reason: "Decode",
                  endpoint,
                  message: `unexpected answer from the job server: ${error.message.split("\n").slice(0, 4).join(" ")}`,
                }),
              ),
            onRight: (value) => Effect.succeed(value),
          }),
        ),
      ),
      deadline,
    )
  }

  const Anything = Schema.Record({ key: Schema.String, value: Schema.Unknown })

  const get = (jobId: string) => requestJson(HttpClientRequest.get(jobUrl(jobId)), Job)

  /** A server restarting or a network blip must not end a long watch: transient failures are retried a while. */
  const getPatiently = (jobId: string) =>
    Effect.retry(get(jobId), {
      while: (error) => error.transient,
      schedule: Schedule.spaced(pollInterval).pipe(Schedule.intersect(Schedule.recurs(15))),
    })

  const poll = (jobId: string): Stream.Stream<JobUpdate, JobsClientError> =>
    Stream.repeatEffectWithSchedule(getPatiently(jobId), Schedule.spaced(pollInterval)).pipe(
      Stream.map((job): JobUpdate => ({ _tag: "Snapshot", job })),
      Stream.takeUntil(isFinalUpdate),
    )

  const events = (jobId: string): Stream.Stream<JobUpdate, JobsClientError> => {
    const request = HttpClientRequest.get(jobUrl(jobId, "/events")).pipe(
      HttpClientRequest.setHeader("accept", "text/event-stream"),
    )
    const endpoint = endpointOf(request)
    const open = withDeadline(endpoint, send(request)).pipe(
      Effect.filterOrFail(
        (response: HttpClientResponse.HttpClientResponse) =>
          (response.headers["content-type"] ?? "").includes("text/event-stream"),
        () =>
          new JobsClientError({ reason: "Decode", endpoint, message: "the events endpoint is not an event stream" }),
      ),
    )
    return Stream.unwrap(
      Effect.map(open, (response) =>
        // Idle is measured on bytes, so a server's keep-alive comments keep a quiet stream alive.
        sseMessages(
          Stream.mapError(response.stream, transportError(endpoint)).pipe(
            Stream.timeoutFail(
              () =>
                new JobsClientError({
                  reason: "Unreachable",
                  endpoint,
                  message: `nothing on the event stream for ${Duration.format(streamIdle)}`,
                }),
              streamIdle,
            ),
          ),
        ).pipe(Stream.filterMap(updateFromSse)),
      ),
    )
  }

  const follow = (jobId: string, followOptions: FollowOptions = {}): Stream.Stream<JobUpdate, JobsClientError> =>
    Stream.unwrap(
      Effect.map(get(jobId), (first) => {
        const head = Stream.make<[JobUpdate]>({ _tag: "Snapshot", job: first })
        if (isFinalUpdate({ _tag: "Snapshot", job: first })) return head
        if (followOptions.events === false) {
          return Stream.concat(head, Stream.concat(Stream.execute(Effect.sleep(pollInterval)), poll(jobId)))
        }
        // Whatever ends the live phase (a terminal event, the stream dropping, no events endpoint at all),
        // polling follows it: at once, and it ends at the first terminal snapshot, which is the last word.
        const live = events(jobId).pipe(
          Stream.takeUntil(isFinalUpdate),
          Stream.catchAll(() => Stream.empty),
        )
        return Stream.concat(Stream.concat(head, live), poll(jobId))
      }),
    )

  return {
    baseUrl,
    submit: (body) =>
      requestJson(HttpClientRequest.post(jobsUrl).pipe(HttpClientRequest.bodyUnsafeJson(body)), SubmittedJob),
    get,
    list: (query = {}) =>
      requestJson(
        HttpClientRequest.get(jobsUrl).pipe(
          HttpClientRequest.setUrlParams({
            ...(query.status === undefined ? {} : { status: query.status }),
            ...(query.limit === undefined ? {} : { limit: String(query.limit) }),
            ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
          }),
        ),
        JobList,
      ),
    // A big job's rows are tens of megabytes: the deadline is for a server that does not answer, not a slow body.
    results: (jobId) =>
      requestJson(
        HttpClientRequest.get(jobUrl(jobId, "/results")),
        JobResults,
        Duration.max(timeout, RESULTS_DEADLINE),
      ),
    resultLines: (jobId) => {
      const request = HttpClientRequest.get(jobUrl(jobId, "/results")).pipe(
        HttpClientRequest.setUrlParam("format", "jsonl"),
      )
      const endpoint = endpointOf(request)
      return Stream.unwrap(
        Effect.map(withDeadline(endpoint, send(request)), (response) =>
          Stream.mapError(response.stream, transportError(endpoint)).pipe(
            Stream.decodeText(),
            Stream.splitLines,
            Stream.filter((line) => line.trim() !== ""),
          ),
        ),
      )
    },
    traces: (jobId) => {
      const request = HttpClientRequest.get(jobUrl(jobId, "/traces"))
      const endpoint = endpointOf(request)
      return send(request).pipe(
        Effect.flatMap((response) => Effect.mapError(response.arrayBuffer, transportError(endpoint))),
        Effect.map((buffer) => new Uint8Array(buffer)),
      )
    },
    cancel: (jobId) => requestJson(HttpClientRequest.post(jobUrl(jobId, "/cancel")), Anything),
    events,
    follow,
  }
}
