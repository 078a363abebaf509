import type { BackoffPolicy } from "@proctor/core"
import { Context, Deferred, Duration, Effect, FiberSet, Layer, PubSub, type Queue, type Scope } from "effect"
import type { ApiKeyRecord } from "./ApiKey.js"
import { admitJob, type JobSpec, nowIso } from "./admitJob.js"
import type { JobEvent } from "./JobEvent.js"
import { JobRejected } from "./JobRejected.js"
import { JobRuntime, type JobRuntimeOptions } from "./JobRuntime.js"
import { isTerminal } from "./JobStatus.js"
import { type JobRecord, JobStore } from "./JobStore.js"
import type { JobStoreError } from "./JobStoreError.js"
import { terminalEvent } from "./JobView.js"
import { endWith, LiveJobs, makeLiveJob } from "./LiveJobs.js"
import { LocalJobs, type LocalJobsService } from "./LocalJobs.js"
import { RolloutStore } from "./RolloutStore.js"
import { makeJobRunner } from "./runJob.js"
import { SandboxRuntimes } from "./SandboxRuntimes.js"
import { SecretBox } from "./SecretBox.js"
import { ServerMetrics } from "./ServerMetrics.js"
import { storedStats } from "./storeJobEnd.js"

export type { JobSpec } from "./admitJob.js"
export { newJobId } from "./admitJob.js"

export interface JobManagerOptions extends JobRuntimeOptions {
  /** Jobs running at once across all keys; the rest wait as `pending`. Default 4. */
  readonly maxRunningJobs?: number | undefined
  /** Pending + running jobs one key may have; more is a 429. Default 4. */
  readonly maxActiveJobsPerKey?: number | undefined
  /** How long a cancelled job's in-flight rollouts may take to finish before they are abandoned. Default 2 s. */
  readonly cancelGraceMs?: number | undefined
  readonly backoff?: BackoffPolicy | undefined
}

/**
 * What the routes ask of whichever runs the jobs: the embedded `JobManager` (rollouts run in this process) or an API
 * replica's cluster manager (`serve --redis-url`: rollouts run on `proctor worker` processes). What only the
 * embedded one can answer (resuming, live state) is `LocalJobs`.
 */
export interface JobManagerService {
  /** Stores the job (committed before this returns) and queues it. */
  readonly submit: (owner: ApiKeyRecord, spec: JobSpec) => Effect.Effect<JobRecord, JobRejected | JobStoreError>
  /**
   * Stops a job: a queued one at once; a running one takes no new rollouts and abandons in-flight ones after the
   * grace period. On a replica the job ends at once and its queued rollouts are dropped.
   */
  readonly cancel: (job: JobRecord) => Effect.Effect<JobRecord, JobStoreError>
  /**
   * Live events of a job: embedded, of one this process runs or has queued (null otherwise); on a replica, of any
   * job, as the cluster's workers and replicas publish them (null when Redis cannot be listened to).
   */
  readonly subscribe: (jobId: string) => Effect.Effect<Queue.Dequeue<JobEvent> | null, never, Scope.Scope>
  /**
   * SIGTERM: start no new job or rollout, let in-flight rollouts finish within `graceMs`, abandon the rest. Jobs
   * stopped this way stay `running` in the database so the next start resumes them. A replica stops dispatching and
   * hands its leases back at once (`graceMs` unused): the rollouts carry on on the workers.
   */
  readonly drain: (graceMs: number) => Effect.Effect<void>
  readonly isDraining: () => boolean
}

export const makeJobManager = (options: JobManagerOptions = {}) =>
  Effect.gen(function* () {
    const store = yield* JobStore
    const rollouts = yield* RolloutStore
    const box = yield* SecretBox
    const metrics = yield* ServerMetrics
    const runtime = yield* JobRuntime
    const maxRunning = Math.max(1, options.maxRunningJobs ?? 4)
    const quota = Math.max(1, options.maxActiveJobsPerKey ?? 4)
    const cancelGraceMs = options.cancelGraceMs ?? 2_000

    const slots = yield* Effect.makeSemaphore(maxRunning)
    // Quota check and insert are one step, so two racing submissions cannot both squeeze under the quota.
    const submitLock = yield* Effect.makeSemaphore(1)
    const fibers = yield* FiberSet.make<void, never>()
    const live = new LiveJobs()
    let draining = false
    const { runJob, interrupted } = makeJobRunner({
      store,
      rollouts,
      runtime,
      metrics,
      backoff: options.backoff,
      draining: () => draining,
    })

    const enqueue = (id: string) =>
      Effect.gen(function* () {
        const job = yield* makeLiveJob(id)
        live.add(job)
        yield* FiberSet.run(
          fibers,
          slots
            .withPermits(1)(runJob(job))
            .pipe(
              Effect.ensuring(
                Effect.suspend(() => {
                  live.delete(id)
                  return Effect.zipRight(
                    job.ended ? Effect.void : interrupted(job),
                    Deferred.succeed(job.done, undefined),
                  )
                }),
              ),
            ),
        )
      })

    const service: JobManagerService = {
      submit: Effect.fn("JobManager.submit")(function* (owner: ApiKeyRecord, spec: JobSpec) {
        const record = yield* submitLock.withPermits(1)(
          Effect.gen(function* () {
            if (draining) {
              return yield* new JobRejected({ reason: "ShuttingDown", message: "the server is shutting down" })
            }
            return yield* admitJob(store, box, owner, spec, quota)
          }),
        )
        yield* enqueue(record.id)
        return record
      }),

      cancel: Effect.fn("JobManager.cancel")(function* (record: JobRecord) {
        if (isTerminal(record.status)) return record
        const job = live.get(record.id)
        if (job === undefined) {
          if (record.status === "pending") yield* store.cancelPending(record.id, nowIso())
          return (yield* store.getJob(record.id)) ?? record
        }
        job.cancelRequested = true
        const control = job.control
        if (control === null) {
          if (yield* store.cancelPending(record.id, nowIso())) {
            const cancelled = yield* store.getJob(record.id)
            if (cancelled !== null)
              yield* endWith(job, terminalEvent(cancelled, yield* storedStats(rollouts, record.id)))
            return cancelled ?? record
          }
          // It was marked running meanwhile: runJob sees `cancelRequested` as soon as it has a RunControl.
        } else {
          control.requestStop()
          yield* Effect.forkDaemon(Effect.delay(Effect.sync(control.cancelInFlight), Duration.millis(cancelGraceMs)))
        }
        yield* Deferred.await(job.done).pipe(Effect.timeout(Duration.millis(cancelGraceMs + 10_000)), Effect.ignore)
        return (yield* store.getJob(record.id)) ?? record
      }),

      subscribe: (jobId) =>
        Effect.suspend(() => {
          const job = live.get(jobId)
          return job === undefined ? Effect.succeed(null) : PubSub.subscribe(job.hub)
        }),

      drain: (graceMs) =>
        Effect.gen(function* () {
          draining = true
          const jobs = live.all()
          for (const job of jobs) job.control?.requestStop()
          const abandon = setTimeout(() => {
            for (const job of live.all()) job.control?.cancelInFlight()
          }, graceMs)
          // Queued jobs return at once when they get a slot (draining), so every `done` completes.
          yield* Effect.forEach(jobs, (job) => Deferred.await(job.done), {
            discard: true,
            concurrency: "unbounded",
          }).pipe(
            Effect.timeout(Duration.millis(graceMs + 10_000)),
            Effect.ignore,
            // Also when the drain is cut short (a second signal): no timer outlives it.
            Effect.ensuring(Effect.sync(() => clearTimeout(abandon))),
          )
        }),

      isDraining: () => draining,
    }
    const local: LocalJobsService = {
      resumeAll: Effect.gen(function* () {
        const jobs = yield* store.resumableJobs
        for (const job of jobs) if (!live.has(job.id)) yield* enqueue(job.id)
        return jobs.map((job) => job.id)
      }),
      liveStats: live.stats,
      liveRun: live.run,
      liveStatus: live.status,
    }
    return Context.make(JobManager, service).pipe(Context.add(LocalJobs, local))
  })

/** Runs eval jobs in this process on core's runner, a bounded number at a time, each with its own RunControl. */
export class JobManager extends Context.Tag("@proctor/server/JobManager")<JobManager, JobManagerService>() {
  static readonly make = makeJobManager
  /** With `LocalJobs`, which only this manager has. */
  static readonly layer = (
    options: JobManagerOptions = {},
  ): Layer.Layer<JobManager | LocalJobs, never, JobStore | RolloutStore | SecretBox | ServerMetrics> =>
    Layer.scopedContext(makeJobManager(options)).pipe(
      Layer.provide(JobRuntime.layer(options).pipe(Layer.provide(SandboxRuntimes.layer()))),
    )
}
