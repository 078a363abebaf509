import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import {
  type BackoffPolicy,
  defaultBackoff,
  type EvalResult,
  Interceptor,
  type ModelRateLimitRule,
  makeRunControl,
  type PricingOverrides,
  ResultStore,
  type RunControl,
  rolloutWithRetries,
  Solver as SolverTag,
  StoreError,
} from "@proctor/core"
import { Worker } from "bullmq"
import { Context, Effect, Exit, Layer, ManagedRuntime, Option, Scope } from "effect"
import Fastify, { type FastifyInstance } from "fastify"
import { INTERCEPTOR_PREFIX, registerInterceptorRoutes } from "../api/interceptorRoutes.js"
import { redisRateGate } from "../interceptor/redisRateGate.js"
import { serverInterceptorLayer } from "../interceptor/serverInterceptorLayer.js"
import { causeMessage } from "../internal/causeMessage.js"
import type { JobEvent } from "../jobs/JobEvent.js"
import { JobRuntime, type JobRuntimeOptions } from "../jobs/JobRuntime.js"
import { isTerminal } from "../jobs/JobStatus.js"
import { JobStore } from "../jobs/JobStore.js"
import { withoutTrace } from "../jobs/jobEventOf.js"
import { jobServicesLayer } from "../jobs/jobServicesLayer.js"
import { ClusterBus, type ClusterSettings, ROLLOUT_QUEUE, redisConnection, workersKey } from "./ClusterBus.js"
import { ClusterStore } from "./ClusterStore.js"
import { Batcher } from "./internal/Batcher.js"
import type { RolloutMessage } from "./RolloutKey.js"

export interface RolloutWorkerOptions extends JobRuntimeOptions {
  readonly databaseUrl: string
  readonly cluster: ClusterSettings
  /** Rollouts this worker runs at once. Default 8. */
  readonly concurrency?: number | undefined
  /**
   * How long a rollout stays claimed by a worker that stopped renewing its claim (killed, cut off) before another
   * worker runs it; renewed every half of it while the rollout runs, however long that is. Default 30 s.
   */
  readonly lockDurationMs?: number | undefined
  /** The key that sealed the jobs' task-app keys; default `PROCTOR_SECRET_KEY`. */
  readonly secretKey?: string | undefined
  /** Route model calls through this worker's own interceptor (default true). */
  readonly intercept?: boolean | undefined
  /** Where this worker's interceptor listens; default 127.0.0.1 and any free port. */
  readonly interceptorHost?: string | undefined
  readonly interceptorPort?: number | undefined
  /** The interceptor's URL as task apps see it; default `http://{host}:{port}/interceptor`. */
  readonly interceptorPublicUrl?: string | undefined
  readonly pricingOverrides?: PricingOverrides | undefined
  /** Configured limits of model upstreams, held together by every worker of the cluster (see `redisRateGate`). */
  readonly modelRateLimits?: ReadonlyArray<ModelRateLimitRule> | undefined
  readonly backoff?: BackoffPolicy | undefined
}

export interface RolloutWorkerHandle {
  readonly id: string
  /** Where this worker's interceptor listens (null without interception). */
  readonly interceptorUrl: string | null
  /**
   * SIGTERM: take no more rollouts; in-flight ones may finish within `graceMs`, the rest are handed back (their
   * BullMQ jobs end without a result, and the dispatcher queues them again). Then closes.
   */
  readonly drain: (graceMs: number) => Promise<void>
  readonly closed: Promise<void>
}

/** What a worker publishes about itself every few seconds, for `/metrics` (workers alive, throughput). */
export interface WorkerBeat {
  readonly id: string
  readonly host: string
  readonly pid: number
  readonly concurrency: number
  /** Rollouts it is running now. */
  readonly active: number
  /** Results it committed since it started. */
  readonly committed: number
  readonly started_at: string
  /** Epoch ms of this beat; a worker unheard of for 3 beats is gone. */
  readonly seen_at: number
}

export const WORKER_BEAT_MS = 5_000

/** A job as one worker runs its rollouts: opened once, dropped when the job ends. */
interface JobContext {
  readonly planned: number
  readonly control: RunControl
  readonly run: (key: { seed: number; attempt: number }) => Effect.Effect<EvalResult | null>
  readonly scope: Scope.CloseableScope
  checkedAt: number
}

/** Job contexts are checked against PostgreSQL this often, so a job ended elsewhere stops here too. */
const RECHECK_MS = 5_000

/** Model calls go to PostgreSQL with the job; results are committed by the worker itself (first answer wins). */
const modelCallStore = (store: Context.Tag.Service<JobStore>, jobId: string) =>
  ResultStore.of({
    location: null,
    completed: Effect.succeed([]),
    append: () => Effect.void,
    appendModelCalls: (calls) =>
      Effect.mapError(
        store.appendModelCalls(jobId, calls),
        (e) => new StoreError({ reason: "Io", message: e.message }),
      ),
    appendSteps: (steps) =>
      Effect.mapError(store.appendSteps(jobId, steps), (e) => new StoreError({ reason: "Io", message: e.message })),
    saveSummary: () => Effect.void,
  })

/**
 * `proctor worker`: takes rollouts from BullMQ, runs each with core's retries (every model call through this
 * worker's own interceptor, stored and priced in PostgreSQL) and commits its result to PostgreSQL unless another
 * answer was committed first. BullMQ's lock is renewed while a rollout runs; a worker that dies loses it and
 * BullMQ's stalled check hands the rollout to another worker.
 */
export const startRolloutWorker = async (options: RolloutWorkerOptions): Promise<RolloutWorkerHandle> => {
  const id = `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`
  const concurrency = Math.max(1, options.concurrency ?? 8)
  const lockDuration = options.lockDurationMs ?? 30_000
  const services = jobServicesLayer(
    ClusterStore.layer.pipe(Layer.provideMerge(JobStore.layerPgWithClient(options.databaseUrl))),
    { secretKey: options.secretKey },
  )
  const interceptorLayer = serverInterceptorLayer({
    pricingOverrides: options.pricingOverrides,
    // Shared by every worker through the cluster's Redis: a 429 one of them gets slows all of them.
    rateGate: Effect.acquireRelease(
      Effect.sync(() =>
        redisRateGate({
          redisUrl: options.cluster.redisUrl,
          prefix: options.cluster.prefix,
          limits: options.modelRateLimits,
        }),
      ),
      (gate) => Effect.promise(gate.close),
    ),
  })
  const withInterceptor =
    options.intercept === false ? services : Layer.merge(services, interceptorLayer.pipe(Layer.provide(services)))
  const layer = Layer.merge(withInterceptor, JobRuntime.layer(options).pipe(Layer.provide(withInterceptor)))
  const runtime = ManagedRuntime.make(layer)
  const started = await runtime.runPromiseExit(
    Effect.all([JobStore, ClusterStore, JobRuntime, Effect.serviceOption(Interceptor)]),
  )
  if (Exit.isFailure(started)) {
    await runtime.dispose()
    throw new Error(`the worker cannot start: ${causeMessage(started.cause)}`)
  }
  const [store, cluster, jobs, interceptor] = started.value

  let interceptorApp: FastifyInstance | null = null
  let interceptorUrl: string | null = null
  if (Option.isSome(interceptor)) {
    interceptorApp = Fastify({ logger: false, forceCloseConnections: true })
    await registerInterceptorRoutes(interceptorApp, interceptor.value)
    const host = options.interceptorHost ?? "127.0.0.1"
    const address = await interceptorApp.listen({ host, port: options.interceptorPort ?? 0 })
    interceptorUrl = options.interceptorPublicUrl ?? `${address}${INTERCEPTOR_PREFIX}`
    interceptor.value.setBaseUrl(interceptorUrl)
  }

  const bus = new ClusterBus(options.cluster)
  const contexts = new Map<string, Promise<JobContext | null>>()

  const openJob = (jobId: string): Effect.Effect<JobContext | null, unknown> =>
    Effect.gen(function* () {
      const record = yield* store.getJob(jobId)
      if (record === null || isTerminal(record.status) || record.secretsSealed === null) return null
      const { config, solver } = yield* jobs.open(record)
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        solver.pipe(Layer.provide(Layer.succeed(ResultStore, modelCallStore(store, jobId)))),
        scope,
      )
      const control = makeRunControl()
      const run = rolloutWithRetries({
        runId: jobId,
        config,
        solver: Context.get(context, SolverTag),
        control,
        backoff: options.backoff ?? defaultBackoff,
        recordSteps: (steps) => Effect.orDie(store.appendSteps(jobId, steps)),
      })
      return { planned: record.planned, control, run, scope, checkedAt: Date.now() } satisfies JobContext
    })

  const dropJob = (jobId: string) => {
    const context = contexts.get(jobId)
    contexts.delete(jobId)
    void context?.then((ctx) => {
      if (ctx === null) return
      ctx.control.cancelInFlight()
      return runtime.runPromise(Scope.close(ctx.scope, Exit.void))
    })
  }

  const contextOf = async (jobId: string): Promise<JobContext | null> => {
    let context = contexts.get(jobId)
    if (context === undefined) {
      context = runtime.runPromise(openJob(jobId))
      contexts.set(jobId, context)
      // A failure (PostgreSQL away) is not remembered: the next rollout of the job tries again.
      context.catch(() => contexts.delete(jobId))
      return context
    }
    const ctx = await context
    if (ctx !== null && Date.now() - ctx.checkedAt > RECHECK_MS) {
      ctx.checkedAt = Date.now()
      const record = await runtime.runPromise(store.getJob(jobId))
      if (record === null || isTerminal(record.status)) {
        dropJob(jobId)
        return null
      }
    }
    return ctx
  }

  const unlistenControl = bus.onControl((message) => {
    if (message.type === "cancel") dropJob(message.job_id)
  })

  // Results and their events go out in bursts: one statement and one Redis message for many rollouts.
  const commits = new Batcher((batch: ReadonlyArray<{ jobId: string; result: EvalResult }>) =>
    runtime.runPromise(cluster.commitResults(batch)),
  )
  const events = new Batcher((batch: ReadonlyArray<JobEvent>) =>
    bus.publishEvents(batch).then(() => batch.map(() => undefined)),
  )
  let committed = 0
  let handingBack = false
  const processRollout = async (job: { data: RolloutMessage }) => {
    const { job_id: jobId, seed, attempt } = job.data
    const ctx = await contextOf(jobId)
    if (ctx === null || handingBack) return "skipped"
    const result = await runtime.runPromise(
      Effect.raceFirst(ctx.run({ seed, attempt }), Effect.as(ctx.control.cancelled, null)),
    )
    if (result === null) return "abandoned"
    if (!(await commits.submit({ jobId, result }))) {
      bus.incrementStat("rollouts_rerun")
      return "already committed"
    }
    committed++
    await events
      .submit({
        type: "seed.completed",
        job_id: jobId,
        message: `seed ${seed} ${result.status}`,
        data: { result: withoutTrace(result), total: ctx.planned, worker: id },
      })
      .catch(() => 0)
    return "committed"
  }

  const workerConnection = redisConnection(options.cluster.redisUrl)
  workerConnection.on("error", () => {})
  const worker = new Worker<RolloutMessage>(ROLLOUT_QUEUE, processRollout, {
    connection: workerConnection,
    prefix: options.cluster.prefix,
    concurrency,
    lockDuration,
    stalledInterval: Math.max(1_000, Math.round(lockDuration / 2)),
    // A rollout whose worker died again and again is still only lost work: the dispatcher queues it anew.
    maxStalledCount: 10,
    removeOnComplete: { count: 0 },
    removeOnFail: { count: 0 },
  })
  let active = 0
  worker.on("error", () => {})
  worker.on("active", () => {
    active++
  })
  worker.on("completed", () => {
    active--
  })
  worker.on("failed", (job, error) => {
    active--
    process.stderr.write(`rollout ${job?.id ?? "?"} failed on this worker: ${error.message}\n`)
  })

  const startedAt = new Date().toISOString()
  const beat = () => {
    const value: WorkerBeat = {
      id,
      host: hostname(),
      pid: process.pid,
      concurrency,
      active,
      committed,
      started_at: startedAt,
      seen_at: Date.now(),
    }
    void bus.redis.hset(workersKey(options.cluster.prefix), id, JSON.stringify(value)).catch(() => 0)
  }
  beat()
  const beating = setInterval(beat, WORKER_BEAT_MS)

  let markClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve
  })
  let draining: Promise<void> | null = null
  const drain = (graceMs: number) => {
    draining ??= (async () => {
      const handBack = setTimeout(() => {
        handingBack = true
        for (const jobId of [...contexts.keys()]) dropJob(jobId)
      }, graceMs)
      await worker.close()
      clearTimeout(handBack)
      clearInterval(beating)
      unlistenControl()
      await bus.redis.hdel(workersKey(options.cluster.prefix), id).catch(() => 0)
      await bus.close()
      workerConnection.disconnect()
      await interceptorApp?.close()
      await runtime.dispose()
      markClosed()
    })()
    return draining
  }
  await worker.waitUntilReady()
  return { id, interceptorUrl, drain, closed }
}
