import type { AddressInfo } from "node:net"
import { Interceptor, type InterceptorService, listeningUrl, type PricingOverrides } from "@proctor/core"
import { Cause, Context, Deferred, Effect, Exit, Layer, Option, Runtime, Scope } from "effect"
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from "fastify"
import secureJson from "secure-json-parse"
import { DEFAULT_REDIS_PREFIX } from "../cluster/ClusterBus.js"
import { clusterJobManagerLayer } from "../cluster/ClusterJobManager.js"
import { ClusterLiveRuns } from "../cluster/ClusterLiveRuns.js"
import { ClusterStore } from "../cluster/ClusterStore.js"
import { serverInterceptorLayer } from "../interceptor/serverInterceptorLayer.js"
import { JobDatabase } from "../jobs/JobDatabase.js"
import { JobManager, type JobManagerOptions } from "../jobs/JobManager.js"
import { JobStore } from "../jobs/JobStore.js"
import type { JobStoreError } from "../jobs/JobStoreError.js"
import { jobServicesLayer } from "../jobs/jobServicesLayer.js"
import { LocalJobs } from "../jobs/LocalJobs.js"
import type { SecretBoxError } from "../jobs/SecretBox.js"
import { orStartError, StartError } from "../lifetime/StartError.js"
import { registerApiDocsRoutes } from "./apiDocsRoutes.js"
import { errorBody } from "./httpError.js"
import { INTERCEPTOR_PREFIX, registerInterceptorRoutes } from "./interceptorRoutes.js"
import { ApiKeyCache, DEFAULT_API_KEY_CACHE_TTL_MS } from "./internal/ApiKeyCache.js"
import type { RequestLimits } from "./JobCreateRequest.js"
import { type ApiRuntime, type ApiServices, apiRuntimeOf, registerJobRoutes } from "./jobRoutes.js"
import { buildOpenApi } from "./openapi.js"
import { registerOpsRoutes } from "./opsRoutes.js"
import { defaultRateLimit, RateLimiter, type RateLimitOptions } from "./RateLimiter.js"
import { registerViewerRoutes } from "./viewerRoutes.js"

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024
export const DEFAULT_MAX_SEEDS_PER_JOB = 100_000
export const DEFAULT_DRAIN_GRACE_MS = 30_000

export interface JobServerOptions extends Omit<JobManagerOptions, "solverFor"> {
  /** The embedded SQLite database (`{dataDir}/proctor.db`) and the secret key file live here. */
  readonly dataDir?: string | undefined
  /** PostgreSQL instead of SQLite (`postgres://user@host:5432/db`). */
  readonly databaseUrl?: string | undefined
  /**
   * Scale-out: with Redis (and PostgreSQL), this server is one API replica of a cluster; rollouts run on
   * `proctor worker` processes, dispatched through BullMQ. Without it, rollouts run in this process.
   */
  readonly redisUrl?: string | undefined
  /** Prefix of every Redis key and channel of the cluster (BullMQ's `prefix`). Default `proctor`. */
  readonly redisPrefix?: string | undefined
  /** How long this replica's lease on a job it dispatches lasts unrenewed. Default 10 s. */
  readonly leaseTtlMs?: number | undefined
  /** Default 127.0.0.1. */
  readonly host?: string | undefined
  /** Default 0 (a free port). */
  readonly port?: number | undefined
  /**
   * The key that seals task-app keys at rest; default `PROCTOR_SECRET_KEY`, else `{dataDir}/secret.key`. A server
   * whose key is not the one the database's keys were sealed with refuses to start.
   */
  readonly secretKey?: string | undefined
  readonly bodyLimitBytes?: number | undefined
  readonly maxSeedsPerJob?: number | undefined
  /** Highest `max_concurrent` a job may ask for. Default 256. */
  readonly maxConcurrency?: number | undefined
  /** Per-key token bucket; `false` turns rate limiting off. */
  readonly rateLimit?: RateLimitOptions | false | undefined
  /**
   * How long the status route (`GET /api/eval/jobs/{id}`, the one clients poll) trusts an API key the database
   * returned without asking it again: a revoked key may read job statuses for up to this long, every other route
   * refuses it at once. Default 1000 ms; 0 asks the database on every request.
   */
  readonly apiKeyCacheTtlMs?: number | undefined
  /** When set, jobs may only target these task-app hosts (`host`, `host:port`, `*.suffix`). */
  readonly allowedTaskAppHosts?: ReadonlyArray<string> | undefined
  /** How long `shutdown` lets in-flight rollouts finish. Default 30 s. */
  readonly drainGraceMs?: number | undefined
  readonly logger?: FastifyServerOptions["logger"] | undefined
  readonly solverFor?: JobManagerOptions["solverFor"]
  /**
   * Route every job's model calls through the inference interceptor mounted on this server (default true):
   * jobs whose policy names an `inference_url` get tokens, cost and traces measured on the wire.
   */
  readonly intercept?: boolean | undefined
  /** The interceptor's URL as task apps see it; default `{server url}/interceptor`. */
  readonly interceptorPublicUrl?: string | undefined
  /** Overrides or additions to core's price table, for the interceptor's cost. */
  readonly pricingOverrides?: PricingOverrides | undefined
  /** Registers more routes on the same server before it listens. */
  readonly mount?: ((app: FastifyInstance) => void | Promise<void>) | undefined
}

/** A job server inside its scope: listening, its jobs resumed. Closing the scope drains it and closes it. */
export interface ListeningJobServer {
  readonly url: string
  readonly app: FastifyInstance
}

/** `jobServer` for callers without a scope of their own (tests, benches, the docs' site test). */
export interface JobServer extends ListeningJobServer {
  /**
   * SIGTERM: stop taking jobs and rollouts, let in-flight rollouts finish within `drainGraceMs`, then close. Jobs
   * stopped this way stay `running` and resume on the next start.
   */
  readonly shutdown: () => Promise<void>
  /** Closes at once: in-flight rollouts are abandoned (they are re-run when the job resumes). */
  readonly close: () => Promise<void>
  /** Resolves once the server has closed, however it was closed. */
  readonly closed: Promise<void>
}

const JSON_BODY_REFUSED = "PROCTOR_JSON_BODY_REFUSED"

/** A request body as JSON; otherwise throws a 400 error whose message says where the JSON broke or which key was refused. */
const parseJsonBody = (body: string): unknown => {
  try {
    return secureJson.parse(body, { protoAction: "error", constructorAction: "ignore" })
  } catch (cause) {
    const message = /forbidden prototype property/.test((cause as Error).message)
      ? 'body: an object key "__proto__" is refused anywhere in the body; rename it'
      : body.trim() === ""
        ? "body: empty, expected a JSON object"
        : `body: not valid JSON (${(cause as Error).message})`
    throw Object.assign(new Error(message, { cause }), { statusCode: 400, code: JSON_BODY_REFUSED })
  }
}

/** The layers of a job server: the store, the secret box, metrics, the job manager, the rate limiter and key cache. */
export const jobServerLayer = (options: JobServerOptions): Layer.Layer<ApiServices, JobStoreError | SecretBoxError> => {
  if (options.databaseUrl === undefined && options.dataDir === undefined) {
    throw new Error("createJobServer needs a dataDir (SQLite) or a databaseUrl (PostgreSQL)")
  }
  if (options.redisUrl !== undefined && options.databaseUrl === undefined) {
    throw new Error("a cluster (--redis-url) keeps its jobs in PostgreSQL: give --database-url as well")
  }
  const store =
    options.databaseUrl === undefined
      ? JobDatabase.layerSqlite(options.dataDir!)
      : JobDatabase.layerPg(options.databaseUrl)
  if (options.redisUrl !== undefined) return clusterServerLayer(options, options.redisUrl, options.databaseUrl!)
  const services = jobServicesLayer(store, options)
  const base =
    options.intercept === false
      ? services
      : Layer.merge(services, serverInterceptorLayer(options).pipe(Layer.provide(services)))
  return withApiServices(options, JobManager.layer(options)).pipe(Layer.provideMerge(base))
}

/** What the routes need beside the job manager, embedded or clustered: the per-key rate limit and the key cache. */
const withApiServices = <A, E, R>(options: JobServerOptions, manager: Layer.Layer<A, E, R>) =>
  Layer.mergeAll(
    manager,
    RateLimiter.layer(options.rateLimit === false ? null : (options.rateLimit ?? defaultRateLimit)),
    ApiKeyCache.layer({ ttlMs: options.apiKeyCacheTtlMs ?? DEFAULT_API_KEY_CACHE_TTL_MS }),
  )

/** An API replica: the same routes, jobs dispatched to workers through BullMQ instead of run here. */
const clusterServerLayer = (options: JobServerOptions, redisUrl: string, databaseUrl: string) => {
  const store = ClusterStore.layer.pipe(Layer.provideMerge(JobDatabase.layerPg(databaseUrl)))
  const base = jobServicesLayer(store, options)
  const cluster = { redisUrl, prefix: options.redisPrefix ?? DEFAULT_REDIS_PREFIX }
  const manager = clusterJobManagerLayer({
    cluster,
    maxRunningJobs: options.maxRunningJobs,
    maxActiveJobsPerKey: options.maxActiveJobsPerKey,
    leaseTtlMs: options.leaseTtlMs,
  })
  return withApiServices(options, Layer.merge(manager, ClusterLiveRuns.layer(cluster))).pipe(Layer.provideMerge(base))
}

/** The fastify instance with every route, its handlers running their Effects on `runtime`; not listening yet. */
const makeApp = async (
  options: JobServerOptions,
  runtime: ApiRuntime,
  interceptor: Option.Option<InterceptorService>,
) => {
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES
  const limits: RequestLimits = {
    maxSeedsPerJob: options.maxSeedsPerJob ?? DEFAULT_MAX_SEEDS_PER_JOB,
    maxConcurrency: options.maxConcurrency ?? 256,
    allowedTaskAppHosts: options.allowedTaskAppHosts ?? null,
  }
  // Hijacked responses (event streams, streamed model calls) must not hold a closing server open.
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    forceCloseConnections: true,
    // The router's own refusals get the API's error shape too: an over-long id names no job (404).
    frameworkErrors: (error, _request, reply) => {
      // Typed for route generics this handler has none of.
      const plain = reply as unknown as FastifyReply
      return error.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? plain.code(404).send(errorBody("job_not_found", "no such job"))
        : plain.code(400).send(errorBody("bad_url", "the URL cannot be parsed", { field: "url" }))
    },
  })
  // fastify's own JSON parser says only "not valid JSON"; this one, the same secure-json-parse with the same
  // refusal of "__proto__" keys, passes on where the JSON broke or which key was refused.
  app.removeContentTypeParser("application/json")
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string))
    } catch (error) {
      done(error as Error, undefined)
    }
  })
  const streams = new Set<() => void>()
  let openApi: Record<string, unknown> | null = null

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody("not_found", `no route ${request.method} ${request.url.split("?")[0]}`)),
  )
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply
        .code(413)
        .send(errorBody("payload_too_large", `body: larger than ${bodyLimit} bytes`, { field: "body" }))
    }
    if (error.code === JSON_BODY_REFUSED) {
      return reply.code(400).send(errorBody("invalid_json", error.message, { field: "body" }))
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return reply
        .code(415)
        .send(errorBody("unsupported_media_type", "content-type: expected application/json", { field: "content-type" }))
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return reply.code(status).send(errorBody("bad_request", `body: ${error.message}`, { field: "body" }))
    }
    request.log.error({ err: error }, "request failed")
    return reply.code(500).send(errorBody("internal_error", "the server failed to answer this request"))
  })

  // Event streams are hijacked responses: fastify would wait for them forever, so they are ended first.
  app.addHook("preClose", async () => {
    for (const stop of streams) stop()
  })

  await registerJobRoutes(app, runtime, {
    limits,
    streams,
    openApi: () => {
      openApi ??= buildOpenApi({ version: "0.1.0" })
      return openApi
    },
  })
  await registerViewerRoutes(app, runtime, { streams })
  await registerOpsRoutes(app, runtime)
  registerApiDocsRoutes(app)
  if (Option.isSome(interceptor)) await registerInterceptorRoutes(app, interceptor.value)
  if (options.mount !== undefined) await options.mount(app)
  return app
}

const cannotStart = (reason: StartError["reason"]) => orStartError("the job server", reason)

/**
 * The eval job server: synth-ai's job API plus proctor's additions on one fastify instance, every route running
 * its Effect on the runtime of the server's services. Jobs a previous process left pending or running are resumed
 * once it listens. Its scope's release drains it (no new jobs or rollouts; in-flight ones finish within
 * `drainGraceMs`; unfinished jobs stay `running` for the next start) — cut short when `hurry` completes — then
 * closes fastify and the services.
 */
export const jobServer = (
  options: JobServerOptions,
  hurry: Effect.Effect<void> = Effect.never,
): Effect.Effect<ListeningJobServer, StartError, Scope.Scope> =>
  Effect.gen(function* () {
    const layer = yield* Effect.try({
      try: () => jobServerLayer(options),
      catch: (error) => new StartError({ reason: "Options", message: (error as Error).message, cause: error }),
    })
    // Builds every service (opens and migrates the database, reads the secret key) before anything listens.
    const runtime = yield* Layer.toRuntime(layer).pipe(cannotStart("Services"))
    const services = runtime.context
    yield* Context.get(services, JobStore).ping.pipe(cannotStart("Services"))
    const interceptor = Runtime.runSync(runtime)(Effect.serviceOption(Interceptor))
    const app = yield* Effect.acquireRelease(
      Effect.tryPromise(() => makeApp(options, apiRuntimeOf(runtime), interceptor)),
      (app) => Effect.promise(() => app.close()),
    ).pipe(cannotStart("Http"))
    yield* Effect.tryPromise(() => app.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 0 })).pipe(
      cannotStart("Http"),
    )
    const url = listeningUrl(app.server.address() as AddressInfo)
    // Jobs are resumed only now: an intercepted rollout needs the interceptor's public URL, known once listening.
    if (Option.isSome(interceptor)) {
      interceptor.value.setBaseUrl(options.interceptorPublicUrl ?? `${url}${INTERCEPTOR_PREFIX}`)
    }
    const local = Runtime.runSync(runtime)(Effect.serviceOption(LocalJobs))
    if (Option.isSome(local)) yield* local.value.resumeAll.pipe(cannotStart("Resume"))

    // Released before fastify closes: the routes answer (503 to new jobs, /readyz draining) while it drains.
    const manager = Context.get(services, JobManager)
    const graceMs = options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS
    yield* Effect.addFinalizer(() =>
      // Both sides interruptible, so whichever loses stops; the release itself is not (a signal must not cut it).
      Effect.raceFirst(Effect.interruptible(manager.drain(graceMs)), Effect.interruptible(hurry)),
    )
    return { url, app }
  })

/**
 * `jobServer` with a scope of its own, for callers that hold a server as a value: `shutdown` closes the scope (a
 * drain), `close` closes it without waiting for rollouts.
 */
export const createJobServer = async (options: JobServerOptions): Promise<JobServer> => {
  const scope = Effect.runSync(Scope.make())
  const hurry = Effect.runSync(Deferred.make<void>())
  const closedScope = Effect.runSync(Deferred.make<void>())
  // Added first, so it runs last: `closed` resolves once everything else is released.
  Effect.runSync(Scope.addFinalizer(scope, Deferred.succeed(closedScope, undefined)))
  const started = await Effect.runPromiseExit(Scope.extend(jobServer(options, Deferred.await(hurry)), scope))
  if (Exit.isFailure(started)) {
    await Effect.runPromise(Scope.close(scope, started))
    throw Cause.squash(started.cause)
  }
  // Cached: a second call waits for the first one's close instead of returning at once.
  const closeScope = Effect.runSync(Effect.cached(Scope.close(scope, Exit.void)))
  return {
    ...started.value,
    shutdown: () => Effect.runPromise(closeScope),
    close: () => Effect.runPromise(Effect.zipRight(Deferred.succeed(hurry, undefined), closeScope)),
    closed: Effect.runPromise(Deferred.await(closedScope)),
  }
}
