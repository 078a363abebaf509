import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import {
  type BackoffPolicy,
  defaultBackoff,
  type EvalResult,
  Interceptor,
  type InterceptorService,
  type ModelCall,
  type ModelRateLimitRule,
  makeRunControl,
  modelCallFinished,
  type PricingOverrides,
  ResultStore,
  type RunControl,
  type RunEvent,
  rolloutWithRetries,
  Solver as SolverTag,
  StoreError,
} from "@proctor/core"
import { Worker } from "bullmq"
import { Context, Effect, Exit, Fiber, Layer, Option, PubSub, Queue, Runtime, Scope } from "effect"
import Fastify from "fastify"
import { INTERCEPTOR_PREFIX, registerInterceptorRoutes } from "../api/interceptorRoutes.js"
import { redisRateGate } from "../interceptor/redisRateGate.js"
import { serverInterceptorLayer } from "../interceptor/serverInterceptorLayer.js"
import { JobDatabase } from "../jobs/JobDatabase.js"
import type { JobEvent } from "../jobs/JobEvent.js"
import { JobPendingRolloutsLayer } from "../jobs/JobPendingRollouts.js"
import { JobRuntime, type JobRuntimeOptions } from "../jobs/JobRuntime.js"
import { isTerminal } from "../jobs/JobStatus.js"
import { JobStore } from "../jobs/JobStore.js"
import { jobEventOf, withoutTrace } from "../jobs/jobEventOf.js"
import { jobServicesLayer } from "../jobs/jobServicesLayer.js"
import { RolloutStore, type RolloutStoreService } from "../jobs/RolloutStore.js"
import { SandboxRuntimes } from "../jobs/SandboxRuntimes.js"
import { storedStats, storeJobEnd } from "../jobs/storeJobEnd.js"
import { orStartError, type StartError } from "../lifetime/StartError.js"
import {
  ClusterBus,
  type ClusterSettings,
  clusterName,
  ROLLOUT_QUEUE,
  redisConnection,
  workersKey,
} from "./ClusterBus.js"
import { ClusterStore } from "./ClusterStore.js"
import { Batcher } from "./internal/Batcher.js"
import { LIVE_FLUSH_MS, LiveRunFeed } from "./LiveRunFeed.js"
import { queueJobId, type RolloutMessage } from "./RolloutKey.js"
import { readLiveWorkers, WORKER_BEAT_MS, type WorkerBeat } from "./WorkerBeat.js"

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
  /** On close, how long in-flight rollouts may finish before they are handed back. Default 30 s. */
  readonly drainGraceMs?: number | undefined
}

/** A worker inside its scope: taking rollouts. Closing the scope drains it and closes it. */
export interface RolloutWorker {
  readonly id: string
  /** Where this worker's interceptor listens (null without interception). */
  readonly interceptorUrl: string | null
}

/** A job as one worker runs its rollouts: opened once, dropped when the job ends. */
interface JobContext {
  readonly planned: number
  readonly control: RunControl
  /** Where its rollouts' run events go: to its subscribers and, summarised, to the replicas' live views. */
  readonly runEvents: PubSub.PubSub<RunEvent>
  readonly run: (key: { seed: number; attempt: number }) => Effect.Effect<EvalResult | null>
  readonly scope: Scope.CloseableScope
  checkedAt: number
}

/** Job contexts are checked against PostgreSQL this often, so a job ended elsewhere stops here too. */
const RECHECK_MS = 5_000

/** Model calls go to PostgreSQL with the job; results are committed by the worker itself (first answer wins). */
const modelCallStore = (store: RolloutStoreService, jobId: string) =>
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

const cannotStart = (reason: StartError["reason"]) => orStartError("the worker", reason)

/** This worker's own interceptor, on its own fastify instance (a worker has no other HTTP server). */
const listenInterceptor = (options: RolloutWorkerOptions, interceptor: InterceptorService) =>
  Effect.gen(function* () {
    const app = yield* Effect.acquireRelease(
      Effect.sync(() => Fastify({ logger: false, forceCloseConnections: true })),
      (app) => Effect.promise(() => app.close()),
    )
    return yield* Effect.tryPromise(async () => {
      await registerInterceptorRoutes(app, interceptor)
      const address = await app.listen({
        host: options.interceptorHost ?? "127.0.0.1",
        port: options.interceptorPort ?? 0,
      })
      const url = options.interceptorPublicUrl ?? `${address}${INTERCEPTOR_PREFIX}`
      interceptor.setBaseUrl(url)
      return url
    }).pipe(cannotStart("Http"))
  })

/**
 * The worker's services: the cluster's store, the secret box, metrics, its interceptor, the job runtime, and the
 * sandbox runtimes of its machine (its Docker sandboxes labelled with its id).
 */
const workerLayer = (options: RolloutWorkerOptions, id: string) => {
  const services = jobServicesLayer(
    ClusterStore.layer.pipe(Layer.provideMerge(JobDatabase.layerPg(options.databaseUrl))),
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
  const withSandboxes = Layer.merge(
    withInterceptor,
    SandboxRuntimes.layer({ owner: { id, group: clusterName(options.cluster) } }),
  )
  return Layer.merge(withSandboxes, JobRuntime.layer(options).pipe(Layer.provide(withSandboxes)))
}

/**
 * `proctor worker`: takes rollouts from BullMQ, runs each with core's retries (every model call through this
 * worker's own interceptor, stored and priced in PostgreSQL) and commits its result to PostgreSQL unless another
 * answer was committed first. BullMQ's lock is renewed while a rollout runs; a worker that dies loses it and
 * BullMQ's stalled check hands the rollout to another worker. Its scope's release drains it: no more rollouts;
 * in-flight ones may finish within `drainGraceMs` (or until `hurry` completes), the rest are handed back (their
 * BullMQ jobs end without a result, and the dispatcher queues them again).
 */
export const rolloutWorker = (
  options: RolloutWorkerOptions,
  hurry: Effect.Effect<void> = Effect.never,
): Effect.Effect<RolloutWorker, StartError, Scope.Scope> =>
  Effect.gen(function* () {
    const id = `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`
    const concurrency = Math.max(1, options.concurrency ?? 8)
    const lockDuration = options.lockDurationMs ?? 30_000
    const runtime = yield* Layer.toRuntime(workerLayer(options, id)).pipe(cannotStart("Services"))
    const run = Runtime.runPromise(runtime)
    const store = Context.get(runtime.context, JobStore)
    const rollouts = Context.get(runtime.context, RolloutStore)
    const cluster = Context.get(runtime.context, ClusterStore)
    const jobs = Context.get(runtime.context, JobRuntime)
    const sandboxes = Context.get(runtime.context, SandboxRuntimes)
    const interceptor = Runtime.runSync(runtime)(Effect.serviceOption(Interceptor))
    const interceptorUrl = Option.isSome(interceptor) ? yield* listenInterceptor(options, interceptor.value) : null

    const bus = yield* Effect.acquireRelease(
      Effect.sync(() => new ClusterBus(options.cluster)),
      (bus) => Effect.promise(() => bus.close()),
    )
    const contexts = new Map<string, Promise<JobContext | null>>()
    /** Rollouts running here that were delivered before (by their `queueJobId`). */
    const redelivered = new Set<string>()
    // Results and their events go out in bursts: one statement and one Redis message for many rollouts.
    const commits = new Batcher((batch: ReadonlyArray<{ jobId: string; result: EvalResult }>) =>
      run(cluster.commitResults(batch)),
    )
    const events = new Batcher((batch: ReadonlyArray<JobEvent>) =>
      bus.publishEvents(batch).then(() => batch.map(() => undefined)),
    )
    const live = new LiveRunFeed(id, (message) => void bus.publishLive(message).catch(() => 0))
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.zipRight(
          Effect.sleep(LIVE_FLUSH_MS),
          Effect.sync(() => live.flush()),
        ),
      ),
    )

    /** Each open job's run events, by job id. */
    const runEventHubs = new Map<string, PubSub.PubSub<RunEvent>>()
    // What rollouts' model calls have spent so far shows on the dashboards while they run. One subscription for every
    // job: one per job would cost each call once per job this worker has open.
    if (Option.isSome(interceptor)) {
      const calls = yield* PubSub.subscribe(interceptor.value.calls)
      const route = (call: ModelCall) => {
        const hub = runEventHubs.get(call.run_id)
        return hub === undefined ? Effect.void : PubSub.publish(hub, modelCallFinished(call))
      }
      yield* Effect.forkScoped(
        Effect.forever(
          Effect.flatMap(Queue.takeBetween(calls, 1, 1024), (batch) => Effect.forEach(batch, route, { discard: true })),
        ),
      )
    }

    /**
     * The job's run events as its subscribers hear them (its agent rollouts' steps, its retries) and as the replicas'
     * live views fold them, published by a fiber of the job's scope: a rollout never waits for Redis.
     */
    const runEventsOf = (jobId: string, scope: Scope.Scope) =>
      Effect.gen(function* () {
        const runEvents = yield* PubSub.unbounded<RunEvent>()
        const subscription = yield* Scope.extend(PubSub.subscribe(runEvents), scope)
        const forward = (batch: Iterable<RunEvent>) =>
          Effect.promise(() => {
            const all = Array.from(batch)
            live.add(jobId, all)
            return Promise.all(
              all
                .map((event) => jobEventOf(jobId, event))
                .filter((event) => event !== null)
                .map((event) => events.submit(event).catch(() => undefined)),
            )
          })
        yield* Effect.forkIn(Effect.forever(Effect.flatMap(Queue.takeBetween(subscription, 1, 1024), forward)), scope)
        return runEvents
      })

    /**
     * A job this worker cannot open (its config or secrets unreadable, an agent job's tasks or runtime missing on this
     * machine) ends as failed with that line: dispatched again and again, its rollouts would never run anywhere.
     */
    const failJob = (jobId: string, error: string) =>
      Effect.gen(function* () {
        const stats = yield* storedStats(rollouts, jobId)
        const end = yield* storeJobEnd(store, jobId, { status: "failed", error: `worker ${id}: ${error}`, stats })
        if (!end.ended) return
        yield* Effect.promise(() => bus.publishControl({ type: "cancel", job_id: jobId }).catch(() => 0))
        if (end.event !== null) yield* Effect.promise(() => bus.publishEvent(end.event!).catch(() => 0))
      })

    const openJob = (jobId: string): Effect.Effect<JobContext | null, unknown> =>
      Effect.gen(function* () {
        const record = yield* store.getJob(jobId)
        if (record === null || isTerminal(record.status) || record.secretsSealed === null) return null
        const opened = yield* Effect.either(jobs.open(record))
        if (opened._tag === "Left") {
          yield* failJob(jobId, opened.left.message)
          return null
        }
        const { config, solver, agent } = opened.right
        const scope = yield* Scope.make()
        // A task app's async rollouts are held in PostgreSQL: a key a killed worker had is polled again here.
        const pendingRollouts = JobPendingRolloutsLayer(rollouts, jobId, (key) =>
          redelivered.has(queueJobId({ job_id: jobId, ...key })),
        )
        const context = yield* Layer.buildWithScope(
          solver.pipe(
            Layer.provide(Layer.merge(Layer.succeed(ResultStore, modelCallStore(rollouts, jobId)), pendingRollouts)),
          ),
          scope,
        )
        const control = makeRunControl()
        const runEvents = yield* runEventsOf(jobId, scope)
        runEventHubs.set(jobId, runEvents)
        const tryRollout = rolloutWithRetries({
          runId: jobId,
          config,
          solver: Context.get(context, SolverTag),
          control,
          events: runEvents,
          backoff: options.backoff ?? defaultBackoff,
          recordSteps: (steps) => Effect.orDie(rollouts.appendSteps(jobId, steps)),
          // A command-line agent's own output, kept with the job as the embedded runner keeps it.
          recordAgentEvents: (events) => Effect.orDie(rollouts.appendAgentEvents(jobId, events)),
        })
        // An agent job's results name their task, as the embedded runner's do.
        const run =
          agent === null
            ? tryRollout
            : (key: { seed: number; attempt: number }) =>
                Effect.map(tryRollout(key), (result) =>
                  result === null ? null : { ...result, task_id: agent.taskIdOf(key.seed) },
                )
        return { planned: record.planned, control, runEvents, run, scope, checkedAt: Date.now() } satisfies JobContext
      })

    /** Stops the job's rollouts here and closes what was opened for it. */
    const dropJob = (jobId: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        const context = contexts.get(jobId)
        contexts.delete(jobId)
        runEventHubs.delete(jobId)
        if (context === undefined) return Effect.void
        return Effect.flatMap(
          Effect.promise(() => context.catch(() => null)),
          (ctx) =>
            ctx === null
              ? Effect.void
              : Effect.zipRight(Effect.sync(ctx.control.cancelInFlight), Scope.close(ctx.scope, Exit.void)),
        ).pipe(Effect.ensuring(Effect.sync(() => live.forgetJob(jobId))))
      })
    const dropAll = Effect.suspend(() => Effect.forEach([...contexts.keys()], dropJob, { discard: true }))
    // Released after BullMQ's worker has closed: whatever is still open for a job is closed with the worker.
    yield* Effect.addFinalizer(() => dropAll)

    const contextOf = async (jobId: string): Promise<JobContext | null> => {
      let context = contexts.get(jobId)
      if (context === undefined) {
        context = run(openJob(jobId))
        contexts.set(jobId, context)
        // A failure (PostgreSQL away) is not remembered: the next rollout of the job tries again.
        context.catch(() => contexts.delete(jobId))
        return context
      }
      const ctx = await context
      if (ctx !== null && Date.now() - ctx.checkedAt > RECHECK_MS) {
        ctx.checkedAt = Date.now()
        const record = await run(store.getJob(jobId))
        if (record === null || isTerminal(record.status)) {
          await run(dropJob(jobId))
          return null
        }
      }
      return ctx
    }

    yield* Effect.acquireRelease(
      Effect.sync(() =>
        bus.onControl((message) => {
          if (message.type === "cancel") void run(dropJob(message.job_id))
        }),
      ),
      (unlisten) => Effect.sync(unlisten),
    )

    let committed = 0
    let handingBack = false
    const processRollout = async (job: { data: RolloutMessage; attemptsStarted: number }) => {
      const { job_id: jobId, seed, attempt } = job.data
      const ctx = await contextOf(jobId)
      if (ctx === null || handingBack) return "skipped"
      // Delivered before (its worker died, or the dispatcher found it lost): whoever had it may have left it with the app.
      const queued = queueJobId(job.data)
      if (job.attemptsStarted > 1 || job.data.redelivery === true) redelivered.add(queued)
      const result = await run(
        Effect.raceFirst(ctx.run({ seed, attempt }), Effect.as(ctx.control.cancelled, null)).pipe(
          // After the rollout's own events, so the replicas' live views drop it only once they have heard them all.
          Effect.ensuring(PubSub.publish(ctx.runEvents, { _tag: "RolloutLeft", key: { seed, attempt } })),
        ),
      ).finally(() => redelivered.delete(queued))
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

    const workerConnection = yield* Effect.acquireRelease(
      Effect.sync(() => redisConnection(options.cluster.redisUrl).on("error", () => {})),
      (connection) => Effect.sync(() => connection.disconnect()),
    )
    let active = 0
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
      void pruneOrphans()
    }
    /**
     * Sandboxes a killed worker left on this machine (Docker's containers outlive it) are removed by any worker of
     * its cluster sharing the machine's daemon, once the dead one has missed 3 beats; a restarted worker does it at
     * its start. Another cluster's workers on the daemon are not ours to judge: their sandboxes are left alone.
     */
    let pruning = false
    const pruneOrphans = async () => {
      if (pruning) return
      pruning = true
      try {
        const live = await readLiveWorkers(bus.redis, options.cluster.prefix)
        const removed = await run(sandboxes.pruneOrphans(new Set([id, ...live.map((worker) => worker.id)])))
        if (removed > 0) process.stderr.write(`removed ${removed} sandbox(es) left by workers that are gone\n`)
      } catch {
        // Redis or the daemon away: the next beat tries again.
      } finally {
        pruning = false
      }
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        beat()
        return setInterval(beat, WORKER_BEAT_MS)
      }),
      (beating) =>
        Effect.zipRight(
          Effect.sync(() => clearInterval(beating)),
          Effect.promise(() => bus.redis.hdel(workersKey(options.cluster.prefix), id).catch(() => 0)),
        ),
    )

    const graceMs = options.drainGraceMs ?? 30_000
    const handBack = Effect.zipRight(
      Effect.sync(() => {
        handingBack = true
      }),
      dropAll,
    )
    yield* Effect.acquireRelease(
      Effect.tryPromise(async () => {
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
        await worker.waitUntilReady().catch(async (error: unknown) => {
          await worker.close(true)
          throw error
        })
        return worker
      }).pipe(cannotStart("Services")),
      // Takes no more rollouts and waits for the in-flight ones; after the grace (or on `hurry`) hands them back.
      (worker) =>
        Effect.gen(function* () {
          const handingBackLater = yield* Effect.fork(
            Effect.zipRight(Effect.interruptible(Effect.raceFirst(Effect.sleep(graceMs), hurry)), handBack),
          )
          yield* Effect.promise(() => worker.close())
          yield* Fiber.interrupt(handingBackLater)
        }),
    )
    return { id, interceptorUrl }
  })
