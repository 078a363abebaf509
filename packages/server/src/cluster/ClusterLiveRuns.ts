import { EvalResult } from "@proctor/core"
import { Context, Deferred, Effect, Either, FiberId, Layer, ParseResult, Runtime, Schema, type Scope } from "effect"
import { loggableCause } from "../internal/loggableCause.js"
import { endsStream, type JobEvent } from "../jobs/JobEvent.js"
import { isTerminal } from "../jobs/JobStatus.js"
import { JobStore } from "../jobs/JobStore.js"
import type { JobStoreError } from "../jobs/JobStoreError.js"
import { RolloutStore } from "../jobs/RolloutStore.js"
import { ClusterBus, type ClusterSettings } from "./ClusterBus.js"
import { JobLiveFold } from "./JobLiveFold.js"
import { decodeLiveMessage } from "./LiveMessage.js"
import { readLiveWorkers, WORKER_BEAT_MS } from "./WorkerBeat.js"

export interface ClusterLiveRunsService {
  /**
   * A job's live state as its workers report it, followed from now on if it was not yet; null once it has ended.
   * (A job is followed from its first rollout's start anyway, so that a rollout started before anyone asked shows.)
   */
  readonly follow: (jobId: string) => Effect.Effect<JobLiveFold | null, JobStoreError>
}

interface Followed {
  readonly fold: JobLiveFold
  /** True once the fold has its job's counts; false when the job turned out to have ended. */
  readonly ready: Deferred.Deferred<boolean, JobStoreError>
  readonly unlisten: () => void
}

const decodeResult = Schema.decodeUnknownEither(EvalResult)

/** A bad message is named in a log line this long at most. */
const LOGGED_ERROR_CHARS = 300

const makeClusterLiveRuns = (
  settings: ClusterSettings,
): Effect.Effect<ClusterLiveRunsService, never, JobStore | RolloutStore | Scope.Scope> =>
  Effect.gen(function* () {
    const store = yield* JobStore
    const rollouts = yield* RolloutStore
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const bus = yield* Effect.acquireRelease(
      Effect.sync(() => new ClusterBus(settings)),
      (bus) => Effect.promise(() => bus.close()),
    )
    const followed = new Map<string, Followed>()
    const ignored = (what: string, error: ParseResult.ParseError) =>
      runFork(
        Effect.logWarning(
          `${what} ignored: ${ParseResult.TreeFormatter.formatErrorSync(error)}`.slice(0, LOGGED_ERROR_CHARS),
        ),
      )

    const stop = (entry: Followed) => {
      if (followed.get(entry.fold.jobId) === entry) followed.delete(entry.fold.jobId)
      entry.unlisten()
      entry.fold.end()
    }

    /** The job's commits and its end, from its event stream. */
    const onJobEvent = (entry: () => Followed) => (event: JobEvent) => {
      if (endsStream(event.type)) return stop(entry())
      if (event.type !== "seed.completed") return
      const result = decodeResult(event.data.result)
      if (Either.isRight(result)) entry().fold.onCommitted(result.right)
      else ignored(`job ${event.job_id}: a seed.completed event's result`, result.left)
    }

    /** Counts from PostgreSQL. An ended job is not followed; a failed read is tried again by the next follow. */
    const start = (entry: Followed) =>
      Effect.gen(function* () {
        const { fold } = entry
        const record = yield* store.getJob(fold.jobId)
        if (record === null || isTerminal(record.status)) return false
        fold.start(record.planned, yield* rollouts.resultTally(fold.jobId))
        return true
      }).pipe(
        Effect.tap((started) => (started ? Effect.void : Effect.sync(() => stop(entry)))),
        Effect.tapError(() => Effect.sync(() => stop(entry))),
        Effect.exit,
        Effect.flatMap((exit) => Deferred.done(entry.ready, exit)),
      )

    const begin = (jobId: string): Followed => {
      const fold = new JobLiveFold(jobId)
      // Listening before the counts are read: a commit in between is not missed.
      const entry: Followed = {
        fold,
        ready: Deferred.unsafeMake<boolean, JobStoreError>(FiberId.none),
        unlisten: bus.onEvent(
          jobId,
          onJobEvent(() => entry),
        ),
      }
      followed.set(jobId, entry)
      runFork(start(entry))
      return entry
    }

    const onLive = (text: string) => {
      const decoded = decodeLiveMessage(text)
      if (Either.isLeft(decoded)) return ignored("a live message", decoded.left)
      const message = decoded.right
      if ("redispatched" in message) return followed.get(message.job_id)?.fold.onRedispatched(message.redispatched)
      const starting = message.events.some((event) => event._tag === "RolloutStarted")
      const entry = followed.get(message.job_id) ?? (starting ? begin(message.job_id) : undefined)
      entry?.fold.onWorker(message.worker, message.events)
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => bus.onLive(onLive)),
      (unlisten) => Effect.sync(unlisten),
    )
    yield* Effect.addFinalizer(() => Effect.sync(() => [...followed.values()].forEach(stop)))

    /** Rollouts of workers whose beat lapsed leave; jobs whose end went unheard (pub/sub is lossy) are dropped. */
    const sweep = Effect.gen(function* () {
      if (followed.size === 0) return
      const live = yield* Effect.tryPromise(() => readLiveWorkers(bus.redis, settings.prefix))
      const workers = new Set(live.map((worker) => worker.id))
      for (const entry of [...followed.values()]) {
        entry.fold.forgetWorkersBut(workers)
        const record = yield* store.getJob(entry.fold.jobId)
        if (record === null || isTerminal(record.status)) stop(entry)
      }
    })
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.zipRight(
          Effect.sleep(WORKER_BEAT_MS),
          sweep.pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("live runs' sweep failed", loggableCause(cause))),
          ),
        ),
      ),
    )

    return {
      follow: Effect.fn("ClusterLiveRuns.follow")(function* (jobId: string) {
        const entry = followed.get(jobId) ?? begin(jobId)
        return (yield* Deferred.await(entry.ready)) ? entry.fold : null
      }),
    }
  })

/**
 * Present in an API replica's runtime (`serve --redis-url`) only: the live state of the cluster's running jobs, folded
 * from what their workers publish, so that the dashboard shows a cluster job's rollouts in flight as it shows an
 * embedded job's.
 */
export class ClusterLiveRuns extends Context.Tag("@proctor/server/ClusterLiveRuns")<
  ClusterLiveRuns,
  ClusterLiveRunsService
>() {
  static readonly make = makeClusterLiveRuns
  static readonly layer = (settings: ClusterSettings): Layer.Layer<ClusterLiveRuns, never, JobStore | RolloutStore> =>
    Layer.scoped(ClusterLiveRuns, makeClusterLiveRuns(settings))
}
