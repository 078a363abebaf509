import {
  type BackoffPolicy,
  type EvalResult,
  type EvalRunConfig,
  Interceptor,
  type InterceptorService,
  interceptedLayer,
  makeRunControl,
  policyUpstream,
  type ResultStore,
  type RunControl,
  type RunEvent,
  runRollouts,
  type Solver,
  taskAppSolverLayer,
  withRunEvents,
} from "@proctor/core"
import { LiveRunState } from "@proctor/report"
import {
  Cause,
  Context,
  Deferred,
  Duration,
  Effect,
  Exit,
  FiberSet,
  Layer,
  Option,
  PubSub,
  type Queue,
  type Scope,
} from "effect"
import { loggableCause } from "../internal/loggableCause.js"
import type { ApiKeyRecord } from "./ApiKey.js"
import { admitJob, type JobSpec, nowIso, verdict } from "./admitJob.js"
import { RowSequence } from "./internal/RowSequence.js"
import { type JobSecrets, runConfigOf } from "./JobConfig.js"
import type { JobEvent } from "./JobEvent.js"
import { JobRejected } from "./JobRejected.js"
import { JobResultStoreLayer } from "./JobResultStore.js"
import { isTerminal, type JobStatus } from "./JobStatus.js"
import { type JobRecord, JobStore } from "./JobStore.js"
import type { JobStoreError } from "./JobStoreError.js"
import { terminalEvent } from "./JobView.js"
import {
  emptyStats,
  type ResultStats,
  type ResultTally,
  statsOfTally,
  type TallyRow,
  tallyRow,
  tallyRowOf,
} from "./ResultTally.js"
import { SecretBox } from "./SecretBox.js"
import { ServerMetrics } from "./ServerMetrics.js"

export type { JobSpec } from "./admitJob.js"
export { newJobId } from "./admitJob.js"

export interface JobManagerOptions {
  /** Jobs running at once across all keys; the rest wait as `pending`. Default 4. */
  readonly maxRunningJobs?: number | undefined
  /** Pending + running jobs one key may have; more is a 429. Default 4. */
  readonly maxActiveJobsPerKey?: number | undefined
  /** How long a cancelled job's in-flight rollouts may take to finish before they are abandoned. Default 2 s. */
  readonly cancelGraceMs?: number | undefined
  readonly backoff?: BackoffPolicy | undefined
  /** The solver each job runs on. Default: core's HTTP task-app solver for the job's config. */
  readonly solverFor?:
    | ((job: { readonly jobId: string; readonly config: EvalRunConfig }) => Layer.Layer<Solver>)
    | undefined
  /**
   * Where the model key for intercepted calls comes from when the policy has no `api_key`
   * (`PROCTOR_UPSTREAM_API_KEY`, `OPENAI_API_KEY`, …; see core's `policyUpstream`). Default `process.env`.
   */
  readonly upstreamEnv?: Readonly<Record<string, string | undefined>> | undefined
}

export interface JobManagerService {
  /** Stores the job (committed before this returns) and queues it. */
  readonly submit: (owner: ApiKeyRecord, spec: JobSpec) => Effect.Effect<JobRecord, JobRejected | JobStoreError>
  /** Stops a job: a queued one at once; a running one takes no new rollouts and abandons in-flight ones after the grace period. */
  readonly cancel: (job: JobRecord) => Effect.Effect<JobRecord, JobStoreError>
  /** Live events of a job this process is running or has queued; null otherwise. */
  readonly subscribe: (jobId: string) => Effect.Effect<Queue.Dequeue<JobEvent> | null, never, Scope.Scope>
  /** Queues every job a previous process left pending or running; runs only their missing rollouts. */
  readonly resumeAll: Effect.Effect<ReadonlyArray<string>, JobStoreError>
  /**
   * SIGTERM: start no new job or rollout, let in-flight rollouts finish within `graceMs`, abandon the rest. Jobs
   * stopped this way stay `running` in the database so the next start resumes them.
   */
  readonly drain: (graceMs: number) => Effect.Effect<void>
  readonly isDraining: () => boolean
  readonly activeJobs: () => number
  /**
   * Stats of a job this process is running, kept up to date as its rows are stored; null when it is not running
   * here (ended, queued, or run by another process), where the stored aggregate or the rows are the truth.
   */
  readonly liveStats: (jobId: string) => ResultStats | null
  /**
   * A job this process is running: its row as stored when it started (nothing on it changes until the job
   * ends) and its live stats, so a status poll needs no query. Null otherwise, and from the moment it ends.
   */
  readonly liveStatus: (jobId: string) => { readonly record: JobRecord; readonly stats: ResultStats } | null
  /**
   * A job this process has queued or runs: what is in flight (from its run events), and up to which `seq` its rows
   * are committed in order (null until it runs). Null for any other job.
   */
  readonly liveRun: (jobId: string) => { readonly state: LiveRunState; readonly committedSeq: number | null } | null
}

interface LiveJob {
  readonly id: string
  readonly hub: PubSub.PubSub<JobEvent>
  readonly done: Deferred.Deferred<void>
  control: RunControl | null
  /** Set once the job starts running: its rows' aggregate, counted once at (re)start and updated per stored row. */
  tally: ResultTally | null
  /** The job's row while this process runs it; cleared before its end is stored. */
  running: JobRecord | null
  cancelRequested: boolean
  /** Set once the job's end (terminal or interrupted) has been published. */
  ended: boolean
  /** Its run events folded for the viewer: progress, in flight, tokens and cost. */
  readonly live: LiveRunState
  /** Numbers its rows as they are stored, once it runs. */
  sequence: RowSequence | null
}

/** Without a trace: rows on the event stream stay small (traces are downloaded as a zip). */
const withoutTrace = (result: EvalResult) => {
  const { trace: _trace, ...row } = result
  return row
}

/**
 * With an `Interceptor` in context, every job whose policy names an `inference_url` has its model calls routed
 * through it (core's `interceptedSolver`): tokens, cost and traces measured on the wire, each rollout's calls
 * stored in `model_calls` before its result.
 */
export const withInterception = (
  base: Layer.Layer<Solver>,
  interceptor: InterceptorService,
  config: EvalRunConfig,
  env: Readonly<Record<string, string | undefined>>,
): Layer.Layer<Solver, never, ResultStore> => {
  const upstream = policyUpstream(config, env)
  return upstream === null ? base : interceptedLayer({ interceptor, upstream }).pipe(Layer.provide(base))
}

export const makeJobManager = (options: JobManagerOptions = {}) =>
  Effect.gen(function* () {
    const store = yield* JobStore
    const box = yield* SecretBox
    const metrics = yield* ServerMetrics
    const maxRunning = Math.max(1, options.maxRunningJobs ?? 4)
    const quota = Math.max(1, options.maxActiveJobsPerKey ?? 4)
    const cancelGraceMs = options.cancelGraceMs ?? 2_000
    const interceptor = yield* Effect.serviceOption(Interceptor)
    const upstreamEnv = options.upstreamEnv ?? process.env
    const storeLayer = Layer.succeed(JobStore, store)
    const runLayer = (job: LiveJob, config: EvalRunConfig) => {
      const base = options.solverFor?.({ jobId: job.id, config }) ?? taskAppSolverLayer(config)
      const solver = Option.isSome(interceptor) ? withInterception(base, interceptor.value, config, upstreamEnv) : base
      // Each committed row moves the live tally, so status polls never aggregate the rows.
      const onStored = (result: EvalResult, replaced: TallyRow | null) => {
        const tally = job.tally
        if (tally === null) return
        if (replaced !== null) tallyRow(tally, replaced, -1)
        tallyRow(tally, tallyRowOf(result), 1)
      }
      const sequence = job.sequence ?? undefined
      return solver.pipe(Layer.provideMerge(JobResultStoreLayer(job.id, onStored, sequence)), Layer.provide(storeLayer))
    }

    const slots = yield* Effect.makeSemaphore(maxRunning)
    // Quota check and insert are one step, so two racing submissions cannot both squeeze under the quota.
    const submitLock = yield* Effect.makeSemaphore(1)
    const fibers = yield* FiberSet.make<void, never>()
    const live = new Map<string, LiveJob>()
    let draining = false

    const publish = (job: LiveJob, event: JobEvent) => PubSub.publish(job.hub, event)

    const endWith = (job: LiveJob, event: JobEvent | null) =>
      Effect.suspend(() => {
        if (job.ended || event === null) return Effect.void
        job.ended = true
        return publish(job, event)
      })

    const stats = (jobId: string) => Effect.map(store.resultStats([jobId]), (m) => m.get(jobId) ?? emptyStats)

    const finish = (job: LiveJob, status: JobStatus, error: string | null) =>
      Effect.gen(function* () {
        job.running = null
        // The final aggregate goes on the row: polls of an ended job read it instead of scanning the rows.
        const final = job.tally === null ? yield* stats(job.id) : statsOfTally(job.tally)
        yield* store.finishJob(job.id, { status, error, completedAt: nowIso(), stats: final })
        const record = yield* store.getJob(job.id)
        if (record === null) return
        yield* endWith(job, terminalEvent(record, record.stats ?? (yield* stats(job.id))))
      })

    const interrupted = (job: LiveJob) =>
      endWith(job, {
        type: "job.interrupted",
        job_id: job.id,
        message: "the server is shutting down; the job resumes when it starts again",
        data: { status: "running" },
      })

    /** Run events → metrics and the job's event hub, in the vocabulary of synth-ai's stream client. */
    const forward = (job: LiveJob, planned: { total: number }) => (event: RunEvent) => {
      job.live.onEvent(event)
      switch (event._tag) {
        case "RunStarted":
          planned.total = event.planned
          return publish(job, {
            type: "job.started",
            job_id: job.id,
            message: `running ${event.planned - event.alreadyDone} of ${event.planned} rollouts`,
            data: { total: event.planned, already_done: event.alreadyDone, completed: event.alreadyDone },
          })
        case "RolloutFinished": {
          metrics.rolloutFinished(event.result)
          const p = event.progress
          return publish(job, {
            type: "seed.completed",
            job_id: job.id,
            message: `seed ${event.result.seed} ${event.result.status}`,
            data: {
              result: withoutTrace(event.result),
              completed: p.done,
              total: p.planned,
              ok: p.ok,
              errored: p.errored,
              in_flight: p.inFlight,
              mean_score: p.scored > 0 ? p.scoreSum / p.scored : null,
            },
          })
        }
        case "RolloutRetried":
          metrics.rolloutRetried()
          return publish(job, {
            type: "seed.retried",
            job_id: job.id,
            message: `seed ${event.key.seed} retry ${event.retry}: ${event.error}`,
            data: {
              seed: event.key.seed,
              attempt: event.key.attempt,
              retry: event.retry,
              error_kind: event.errorKind,
              error: event.error,
              delay_ms: event.delayMs,
            },
          })
        case "StopRequested":
          return publish(job, {
            type: "job.stopping",
            job_id: job.id,
            message: `stopping; ${event.inFlight} rollouts in flight`,
            data: { in_flight: event.inFlight },
          })
        case "RolloutStarted":
        case "RolloutStep":
        case "RunFinished":
          return Effect.void
      }
    }

    const openSecrets = (record: JobRecord) =>
      record.secretsSealed === null
        ? Effect.fail("the job's secrets are gone (it had already ended)")
        : box.open(record.secretsSealed, record.id).pipe(
            Effect.map((text) => JSON.parse(text) as JobSecrets),
            Effect.mapError((error) => error.message),
          )

    const runJob = (job: LiveJob) =>
      Effect.gen(function* () {
        if (draining) return
        const record = yield* store.getJob(job.id)
        if (record === null || isTerminal(record.status)) return
        if (job.cancelRequested) return yield* finish(job, "cancelled", null)
        const secrets = yield* Effect.either(openSecrets(record))
        if (secrets._tag === "Left") return yield* finish(job, "failed", secrets.left)
        const stored = runConfigOf(record.config, secrets.right)
        if (stored._tag === "Left")
          return yield* finish(job, "failed", `the job's stored config is unreadable: ${stored.left}`)
        const config = stored.right
        if (!(yield* store.markRunning(job.id, nowIso()))) return
        // Counted once here (a resumed job's earlier rows included); every stored row updates it after.
        job.tally = yield* store.resultTally(job.id)
        job.sequence = new RowSequence(yield* store.maxResultSeq(job.id))
        job.running = yield* store.getJob(job.id)
        const control = makeRunControl()
        job.control = control
        // A cancel or a drain that arrived while the job was being set up.
        if (job.cancelRequested) control.cancelInFlight()
        else if (draining) control.requestStop()

        const planned = { total: record.planned }
        // Publishing to the job's sliding hub never waits, so events are forwarded synchronously as core delivers them.
        const onEvent = (event: RunEvent) => Effect.runSync(forward(job, planned)(event))
        // The run's exit is the value, so its last events are delivered even when it fails.
        const exit = yield* withRunEvents(
          onEvent,
          (events) =>
            Effect.exit(
              runRollouts({ runId: job.id, config, control, events, backoff: options.backoff }).pipe(
                Effect.provide(runLayer(job, config)),
              ),
            ),
          0,
        )

        if (Exit.isFailure(exit)) {
          if (draining && Cause.isInterruptedOnly(exit.cause)) return yield* interrupted(job)
          const failure = Cause.failureOption(exit.cause)
          const message = failure._tag === "Some" ? failure.value.message : "the run stopped unexpectedly"
          yield* Effect.logError("eval job failed", loggableCause(exit.cause))
          return yield* finish(job, "failed", message)
        }
        const outcome = exit.value
        if (outcome.interrupted) {
          if (job.cancelRequested) return yield* finish(job, "cancelled", null)
          return yield* interrupted(job)
        }
        const { status, error } = verdict(outcome.summary)
        return yield* finish(job, status, error)
      }).pipe(
        Effect.scoped,
        // A database outage while finishing leaves the job pending/running: the next start resumes it.
        Effect.catchAllCause((cause) => Effect.logError("eval job could not be run", loggableCause(cause))),
      )

    const enqueue = (id: string) =>
      Effect.gen(function* () {
        const job: LiveJob = {
          id,
          hub: yield* PubSub.sliding<JobEvent>(4096),
          done: yield* Deferred.make<void>(),
          control: null,
          tally: null,
          running: null,
          cancelRequested: false,
          ended: false,
          live: new LiveRunState(),
          sequence: null,
        }
        live.set(id, job)
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
            if (cancelled !== null) yield* endWith(job, terminalEvent(cancelled, yield* stats(record.id)))
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

      resumeAll: Effect.gen(function* () {
        const jobs = yield* store.resumableJobs
        for (const job of jobs) if (!live.has(job.id)) yield* enqueue(job.id)
        return jobs.map((job) => job.id)
      }),

      drain: (graceMs) =>
        Effect.gen(function* () {
          draining = true
          const jobs = [...live.values()]
          for (const job of jobs) job.control?.requestStop()
          const abandon = setTimeout(() => {
            for (const job of live.values()) job.control?.cancelInFlight()
          }, graceMs)
          // Queued jobs return at once when they get a slot (draining), so every `done` completes.
          yield* Effect.forEach(jobs, (job) => Deferred.await(job.done), {
            discard: true,
            concurrency: "unbounded",
          }).pipe(Effect.timeout(Duration.millis(graceMs + 10_000)), Effect.ignore)
          clearTimeout(abandon)
        }),

      isDraining: () => draining,
      activeJobs: () => live.size,
      liveStats: (jobId) => {
        const tally = live.get(jobId)?.tally
        return tally === undefined || tally === null ? null : statsOfTally(tally)
      },
      liveRun: (jobId) => {
        const job = live.get(jobId)
        return job === undefined ? null : { state: job.live, committedSeq: job.sequence?.committed() ?? null }
      },
      liveStatus: (jobId) => {
        const job = live.get(jobId)
        if (job === undefined || job.running === null || job.tally === null) return null
        return { record: job.running, stats: statsOfTally(job.tally) }
      },
    }
    return service
  })

/** Runs eval jobs in this process on core's runner, a bounded number at a time, each with its own RunControl. */
export class JobManager extends Context.Tag("@proctor/server/JobManager")<JobManager, JobManagerService>() {
  static readonly make = makeJobManager
  static readonly layer = (
    options: JobManagerOptions = {},
  ): Layer.Layer<JobManager, never, JobStore | SecretBox | ServerMetrics> =>
    Layer.scoped(JobManager, makeJobManager(options))
}
