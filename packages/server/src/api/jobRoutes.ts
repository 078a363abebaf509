import { Cause, Effect, Either, Exit, Fiber, Option, Runtime, Schema } from "effect"
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import type { ApiKeyRecord } from "../jobs/ApiKey.js"
import { JobManager } from "../jobs/JobManager.js"
import { isTerminal, type JobStatus } from "../jobs/JobStatus.js"
import { type JobRecord, JobStore } from "../jobs/JobStore.js"
import { statusView, summaryView } from "../jobs/JobView.js"
import type { KeyStore } from "../jobs/KeyStore.js"
import { LocalJobs, type LocalJobsService } from "../jobs/LocalJobs.js"
import { emptyStats } from "../jobs/ResultTally.js"
import { RolloutStore, type RolloutStoreService } from "../jobs/RolloutStore.js"
import type { ServerMetrics } from "../jobs/ServerMetrics.js"
import { InvalidRequest } from "./ApiErrors.js"
import { JobListQuery, ResultsQuery } from "./ApiSchemas.js"
import { authenticate, authenticateKeyHash, bearerKeyHash, jobFor, jobNotFound, mayRead } from "./authenticate.js"
import { type ApiFailure, errorBody, httpErrorOf } from "./httpError.js"
import { ApiKeyCache } from "./internal/ApiKeyCache.js"
import { jsonlBody, jsonResultsBody, pagesOf, tracesZipBody } from "./internal/bodies.js"
import { issuesOf } from "./internal/issues.js"
import { makeLruMap } from "./internal/LruMap.js"
import { decodeJobRequest, type RequestLimits } from "./JobCreateRequest.js"
import { RateLimiter } from "./RateLimiter.js"
import { openEventStream, streamJobEvents } from "./sse.js"

export type ApiServices = JobStore | RolloutStore | KeyStore | JobManager | RateLimiter | ApiKeyCache | ServerMetrics

/** How routes run their Effects: on the server's runtime, whose services live as long as the server's scope. */
export interface ApiRuntime {
  readonly runPromise: <A, E>(effect: Effect.Effect<A, E, ApiServices>) => Promise<A>
  readonly runPromiseExit: <A, E>(effect: Effect.Effect<A, E, ApiServices>) => Promise<Exit.Exit<A, E>>
  readonly runFork: <A, E>(effect: Effect.Effect<A, E, ApiServices>) => Fiber.RuntimeFiber<A, E>
}

export const apiRuntimeOf = (runtime: Runtime.Runtime<ApiServices>): ApiRuntime => ({
  runPromise: Runtime.runPromise(runtime),
  runPromiseExit: Runtime.runPromiseExit(runtime),
  runFork: Runtime.runFork(runtime),
})

export interface JobRoutesOptions {
  readonly limits: RequestLimits
  readonly openApi: () => Record<string, unknown>
  /** Open event streams, ended by the server before it closes (they would otherwise hold it open). */
  readonly streams: Set<() => void>
}

/** Sends a failed Effect's error through the one error mapping; anything unexpected is a logged 500. */
export const sendFailure = (reply: FastifyReply, log: FastifyBaseLogger, cause: Cause.Cause<ApiFailure>) => {
  const failure = Cause.failureOption(cause)
  if (failure._tag === "Some") {
    const http = httpErrorOf(failure.value)
    if (http.status >= 500) log.warn({ tag: failure.value._tag, reason: failure.value.message }, "request failed")
    return reply.code(http.status).headers(http.headers).send(http.body)
  }
  log.error({ cause: Cause.pretty(cause) }, "request failed unexpectedly")
  return reply.code(500).send(errorBody("internal_error", "the server failed to answer this request"))
}

const decodeQuery = <A, I>(schema: Schema.Schema<A, I>, query: unknown) =>
  Either.mapLeft(
    Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })(query ?? {}),
    (error) => {
      const issues = issuesOf(error)
      const first = issues[0] ?? { field: "query", message: "is invalid" }
      return new InvalidRequest({
        reason: "InvalidField",
        field: first.field,
        message: issues.map((i) => `${i.field}: ${i.message}`).join("; "),
        issues,
      })
    },
  )

/** Opaque to clients: the (created_at, id) of the last job of a page. */
const encodeCursor = (job: JobRecord) => Buffer.from(JSON.stringify([job.createdAt, job.id])).toString("base64url")
const decodeCursor = (cursor: string) => {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((part) => typeof part === "string")) {
      return Either.right({ createdAt: parsed[0] as string, id: parsed[1] as string })
    }
  } catch {
    // falls through to the 400
  }
  return Either.left(InvalidRequest.field("cursor", "not a cursor this server issued"))
}

/**
 * A job's stats without scanning its rows where possible: an ended job's are stored on its row, a job this
 * process runs has live counters; only the rest (queued, run by another process, ended before stats were stored)
 * are aggregated from the rows.
 */
const statsOf = (rollouts: RolloutStoreService, local: LocalJobsService | null, job: JobRecord) => {
  if (job.stats !== null && isTerminal(job.status)) return Effect.succeed(job.stats)
  const live = local?.liveStats(job.id) ?? null
  if (live !== null) return Effect.succeed(live)
  return Effect.map(rollouts.resultStats([job.id]), (stats) => stats.get(job.id) ?? emptyStats)
}

const JSON_UTF8 = "application/json; charset=utf-8"

/** Ended jobs whose status body is kept: more than a server's clients poll at once. */
const CACHED_ENDED_JOBS = 1_024
/**
 * A body holds the job's seed list, up to 100,000 seeds (~600 KB): only bodies up to this size are kept, so the
 * cache stays under ~16 MB. Bigger ones are rebuilt from the database on each poll, as before.
 */
const MAX_CACHED_STATUS_CHARS = 16_384

/** `?format=` decides; without it, an Accept header asking for NDJSON / JSON Lines does. */
const wantsJsonl = (request: FastifyRequest, format: "json" | "jsonl" | undefined) =>
  format !== undefined
    ? format === "jsonl"
    : /application\/(x-ndjson|jsonl|x-jsonlines)/.test(request.headers.accept ?? "")

/**
 * The eval job API. Each route only decodes, runs one Effect on the server's runtime and sends what it returns:
 * the work is in `JobManager` and the stores, the status codes in `httpErrorOf`. The status route, which clients
 * poll, first tries to answer from memory without an Effect.
 */
export const registerJobRoutes = async (app: FastifyInstance, runtime: ApiRuntime, options: JobRoutesOptions) => {
  const store = await runtime.runPromise(JobStore)
  const rollouts = await runtime.runPromise(RolloutStore)
  const local = Option.getOrNull(await runtime.runPromise(Effect.serviceOption(LocalJobs)))
  const rateLimiter = await runtime.runPromise(RateLimiter)
  const apiKeys = await runtime.runPromise(ApiKeyCache)
  // An ended job's row and stats never change again, so its status body is serialized once and kept, with its
  // owner: who may read it is still checked on every request.
  const endedStatuses = makeLruMap<string, { readonly ownerKeyId: string; readonly body: string }>(CACHED_ENDED_JOBS)

  const run = <A>(request: FastifyRequest, reply: FastifyReply, program: Effect.Effect<A, ApiFailure, ApiServices>) =>
    runtime
      .runPromiseExit(program)
      .then((exit) => (Exit.isSuccess(exit) ? reply.send(exit.value) : sendFailure(reply, request.log, exit.cause)))

  /** Auth, then the job the key may see; for streaming routes that answer outside the Effect. */
  const withJob = <A>(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    then: (key: ApiKeyRecord, job: JobRecord) => Effect.Effect<A, ApiFailure, ApiServices>,
  ) =>
    runtime
      .runPromiseExit(
        Effect.flatMap(authenticate(request.headers.authorization), (key) =>
          Effect.flatMap(jobFor(key, request.params.id), (job) => then(key, job)),
        ),
      )
      .then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        void sendFailure(reply, request.log, exit.cause)
        return null
      })

  app.post("/api/eval/jobs", (request, reply) =>
    run(
      request,
      reply,
      Effect.gen(function* () {
        const key = yield* authenticate(request.headers.authorization)
        const spec = yield* decodeJobRequest(request.body, options.limits)
        const job = yield* (yield* JobManager).submit(key, spec)
        return { job_id: job.id, status: job.status }
      }),
    ),
  )

  app.get("/api/eval/jobs", (request, reply) =>
    run(
      request,
      reply,
      Effect.gen(function* () {
        const key = yield* authenticate(request.headers.authorization)
        const query = yield* decodeQuery(JobListQuery, request.query)
        const before = query.cursor === undefined ? null : yield* decodeCursor(query.cursor)
        const limit = query.limit ?? 20
        const statuses =
          query.status === undefined ? null : (query.status.split(",").map((s) => s.trim()) as Array<JobStatus>)
        const jobs = yield* store.listJobs({ ownerKeyId: key.isAdmin ? null : key.id, statuses, limit, before })
        const stats = yield* Effect.forEach(jobs, (job) => statsOf(rollouts, local, job))
        return {
          jobs: jobs.map((job, i) => statusView(job, stats[i]!)),
          next_cursor: jobs.length === limit ? encodeCursor(jobs[jobs.length - 1]!) : null,
        }
      }),
    ),
  )

  /** The status body of a job the key may see, serialized; an ended job's is kept for the next poll. */
  const statusBody = (key: ApiKeyRecord, jobId: string) =>
    Effect.gen(function* () {
      const job = yield* jobFor(key, jobId)
      const body = JSON.stringify(statusView(job, yield* statsOf(rollouts, local, job)))
      if (isTerminal(job.status) && body.length <= MAX_CACHED_STATUS_CHARS) {
        endedStatuses.set(job.id, { ownerKeyId: job.ownerKeyId, body })
      }
      return body
    })

  /**
   * The status route is the one clients poll, so it answers from memory when it can: with a key the database
   * returned within the key cache's TTL, and an ended job or one this process is running, the answer is an `Exit`,
   * known without the database or a fiber. Otherwise it is the Effect that reads what is missing. Either way one
   * token leaves the key's bucket.
   */
  const jobStatus = (
    authorization: string | undefined,
    jobId: string,
  ): Exit.Exit<string, ApiFailure> | Effect.Effect<string, ApiFailure, ApiServices> => {
    const keyHash = bearerKeyHash(authorization)
    if (Either.isLeft(keyHash)) return Exit.fail(keyHash.left)
    const key = apiKeys.cached(keyHash.right)
    if (key === null) return Effect.flatMap(authenticateKeyHash(keyHash.right), (key) => statusBody(key, jobId))
    const limited = rateLimiter.tryTake(key.id)
    if (limited !== null) return Exit.fail(limited)
    const ended = endedStatuses.get(jobId)
    if (ended !== undefined) {
      return mayRead(key, ended.ownerKeyId) ? Exit.succeed(ended.body) : Exit.fail(jobNotFound(jobId))
    }
    const running = local?.liveStatus(jobId) ?? null
    if (running === null) return statusBody(key, jobId)
    return mayRead(key, running.record.ownerKeyId)
      ? Exit.succeed(JSON.stringify(statusView(running.record, running.stats)))
      : Exit.fail(jobNotFound(jobId))
  }

  // The body is already JSON: with its content type set, fastify sends the string as it is.
  const sendStatus = (request: FastifyRequest, reply: FastifyReply, exit: Exit.Exit<string, ApiFailure>) =>
    Exit.isSuccess(exit) ? reply.type(JSON_UTF8).send(exit.value) : sendFailure(reply, request.log, exit.cause)

  app.get<{ Params: { id: string } }>("/api/eval/jobs/:id", (request, reply) => {
    const status = jobStatus(request.headers.authorization, request.params.id)
    return Exit.isExit(status)
      ? sendStatus(request, reply, status)
      : runtime.runPromiseExit(status).then((exit) => sendStatus(request, reply, exit))
  })

  app.post<{ Params: { id: string } }>("/api/eval/jobs/:id/cancel", (request, reply) =>
    run(
      request,
      reply,
      Effect.gen(function* () {
        const key = yield* authenticate(request.headers.authorization)
        const job = yield* jobFor(key, request.params.id)
        const after = yield* (yield* JobManager).cancel(job)
        return statusView(after, yield* statsOf(rollouts, local, after))
      }),
    ),
  )

  app.get<{ Params: { id: string } }>("/api/eval/jobs/:id/results", async (request, reply) => {
    const found = await withJob(request, reply, (_key, job) =>
      Effect.gen(function* () {
        const query = yield* decodeQuery(ResultsQuery, request.query)
        return { job, query, stats: yield* statsOf(rollouts, local, job) }
      }),
    )
    if (found === null) return reply
    const { job, query, stats } = found
    const pages = pagesOf((after, limit) => runtime.runPromise(rollouts.resultPage(job.id, after, limit)))
    if (wantsJsonl(request, query.format)) return reply.type("application/x-ndjson").send(jsonlBody(pages))
    const head = { job_id: job.id, status: job.status, summary: summaryView(job, stats), run_summary: job.summary }
    return reply.type(JSON_UTF8).send(jsonResultsBody(head, pages))
  })

  app.get<{ Params: { id: string } }>("/api/eval/jobs/:id/traces", async (request, reply) => {
    const job = await withJob(request, reply, (_key, job) => Effect.succeed(job))
    if (job === null) return reply
    const pages = pagesOf((after, limit) => runtime.runPromise(rollouts.tracePage(job.id, after, limit)))
    return reply
      .type("application/zip")
      .header("content-disposition", `attachment; filename="${job.id}_traces.zip"`)
      .send(tracesZipBody(pages, job.config.attempts))
  })

  const events = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const job = await withJob(request, reply, (_key, job) => Effect.succeed(job))
    if (job === null) return reply
    reply.hijack()
    const raw = reply.raw
    openEventStream(raw)
    const fiber = runtime.runFork(streamJobEvents(job.id, raw))
    const stop = () => {
      runtime.runFork(Fiber.interrupt(fiber))
    }
    options.streams.add(stop)
    request.raw.once("close", stop)
    raw.once("close", stop)
    await runtime.runPromise(Fiber.await(fiber)).then((exit) => {
      if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
        request.log.warn({ cause: Cause.pretty(exit.cause) }, "event stream failed")
      }
    })
    options.streams.delete(stop)
    if (!raw.writableEnded) raw.end()
    return reply
  }
  app.get("/api/eval/jobs/:id/events", events)
  // Newer synth-ai clients stream from …/events/stream.
  app.get("/api/eval/jobs/:id/events/stream", events)

  app.get("/api/openapi.json", async () => options.openApi())
}
