import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { type EvalResult, SummaryAccumulator } from "@proctor/core"
import { Context, Duration, Effect, FiberMap, Layer, Queue } from "effect"
import { loggableCause } from "../internal/loggableCause.js"
import type { ApiKeyRecord } from "../jobs/ApiKey.js"
import { admitJob, type JobSpec, nowIso, verdict } from "../jobs/admitJob.js"
import type { JobEvent } from "../jobs/JobEvent.js"
import { JobManager, type JobManagerService } from "../jobs/JobManager.js"
import { JobRejected } from "../jobs/JobRejected.js"
import { isTerminal } from "../jobs/JobStatus.js"
import { type JobRecord, JobStore } from "../jobs/JobStore.js"
import { tallyRow, tallyRowOf } from "../jobs/ResultTally.js"
import { RolloutStore } from "../jobs/RolloutStore.js"
import { SecretBox } from "../jobs/SecretBox.js"
import { storedStats, storeJobEnd } from "../jobs/storeJobEnd.js"
import { ClusterBus, type ClusterSettings } from "./ClusterBus.js"
import { ClusterMonitor, type ClusterMonitorService } from "./ClusterMonitor.js"
import { ClusterStore } from "./ClusterStore.js"
import { readClusterMetrics } from "./clusterMetrics.js"
import { DispatchWindow } from "./DispatchWindow.js"
import { keyParts, plannedKeys, type RolloutKeyText, type RolloutMessage, rolloutKeyText } from "./RolloutKey.js"
import { RolloutQueue } from "./RolloutQueue.js"

export interface ClusterManagerOptions {
  readonly cluster: ClusterSettings
  /** Jobs this replica dispatches at once; the rest wait as `pending` (or for another replica). Default 4. */
  readonly maxRunningJobs?: number | undefined
  /** Pending + running jobs one key may have; more is a 429. Default 4. */
  readonly maxActiveJobsPerKey?: number | undefined
  /** How long a replica's lease on a job lasts unrenewed: a killed replica's jobs move on after this. Default 10 s. */
  readonly leaseTtlMs?: number | undefined
  /** How often a dispatcher compares what it dispatched with BullMQ and PostgreSQL. Default 2 s. */
  readonly reconcileEveryMs?: number | undefined
}

const TOP_UP_GATHER = Duration.millis(20)

const messageOf =
  (jobId: string) =>
  (key: RolloutKeyText): RolloutMessage => ({ job_id: jobId, ...keyParts(key) })

/** The rollout a worker's `seed.completed` event is about. */
const committedKeyOf = (event: JobEvent): RolloutKeyText | null => {
  if (event.type !== "seed.completed") return null
  const result = event.data.result as { readonly seed?: unknown; readonly attempt?: unknown } | undefined
  return typeof result?.seed === "number" && typeof result.attempt === "number"
    ? rolloutKeyText(result.seed, result.attempt)
    : null
}

/**
 * `serve --redis-url`: an API replica. Rollouts run on `proctor worker` processes; this replica leases running jobs
 * in PostgreSQL and dispatches each through its window onto BullMQ, reconciling with PostgreSQL (the truth) so that
 * whatever Redis or a dead worker lost is dispatched again. Status is read from PostgreSQL and live events come over
 * Redis, so every replica answers the same for every job. Leases are also how jobs resume: an active job nobody holds
 * is taken by the next lease round.
 */
export const makeClusterJobManager = (options: ClusterManagerOptions) =>
  Effect.gen(function* () {
    const store = yield* JobStore
    const rollouts = yield* RolloutStore
    const cluster = yield* ClusterStore
    const box = yield* SecretBox
    const maxRunning = Math.max(1, options.maxRunningJobs ?? 4)
    const quota = Math.max(1, options.maxActiveJobsPerKey ?? 4)
    const leaseTtlMs = options.leaseTtlMs ?? 10_000
    const reconcileEveryMs = options.reconcileEveryMs ?? 2_000
    const owner = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`

    const bus = yield* Effect.acquireRelease(
      Effect.sync(() => new ClusterBus(options.cluster)),
      (bus) => Effect.promise(() => bus.close()),
    )
    const queue = yield* Effect.acquireRelease(
      Effect.sync(() => new RolloutQueue(options.cluster)),
      (queue) => Effect.promise(() => queue.close()),
    )
    const submitLock = yield* Effect.makeSemaphore(1)
    const dispatchers = yield* FiberMap.make<string>()
    const windows = new Map<string, DispatchWindow>()
    const leaseWake = yield* Queue.sliding<void>(1)
    let draining = false

    const publish = (event: JobEvent) => Effect.promise(() => bus.publishEvent(event).catch(() => 0))

    const finish = (record: JobRecord, startedMs: number) =>
      Effect.gen(function* () {
        const config = record.config
        const summary = new SummaryAccumulator({
          attempts: config.attempts,
          passThreshold: config.pass_threshold,
          clusterBy: config.cluster_by,
        })
        for (const row of yield* rollouts.resultRows(record.id)) summary.add(JSON.parse(row) as EvalResult)
        const final = summary.summarize({
          runId: record.id,
          plannedKeys: record.planned,
          missingKeys: [],
          durationMs: Date.now() - startedMs,
        })
        yield* store.saveSummary(record.id, final)
        const stats = yield* storedStats(rollouts, record.id)
        const { ended, event } = yield* storeJobEnd(store, record.id, { ...verdict(final), stats })
        if (ended && event !== null) yield* publish(event)
      })

    /** What BullMQ no longer holds and PostgreSQL has no result for was lost (Redis restarted, a job failed): again. */
    const reconcile = (jobId: string, window: DispatchWindow) =>
      Effect.gen(function* () {
        const flying = [...window.inFlight]
        const present = yield* Effect.promise(() => queue.present(flying.map(messageOf(jobId))))
        const absent = flying.filter((_, i) => !present[i])
        // Read after BullMQ: a rollout's BullMQ job is removed only after its result is committed.
        const committed = yield* cluster.committedCount(jobId)
        if (absent.length > 0 || committed !== window.committedCount) {
          for (const key of yield* cluster.committedKeys(jobId)) window.commit(key)
        }
        const lost = absent.filter((key) => window.inFlight.has(key))
        if (lost.length === 0) return
        yield* Effect.promise(() =>
          queue.add(lost.map((key): RolloutMessage => ({ ...messageOf(jobId)(key), redelivery: true }))),
        )
        bus.incrementStat("rollouts_redispatched", lost.length)
        // Whoever had them is no longer heard about them: the dashboards stop showing them in flight until they start.
        yield* Effect.promise(() => bus.publishLive({ job_id: jobId, redispatched: lost.map(keyParts) }).catch(() => 0))
        yield* Effect.logInfo(`job ${jobId}: ${lost.length} rollouts were not in the queue; dispatched again`)
      })

    const dispatch = (jobId: string) =>
      Effect.gen(function* () {
        const record = yield* store.getJob(jobId)
        if (record === null || isTerminal(record.status)) return
        const startedMs = Date.parse(record.startedAt ?? nowIso())
        const wake = yield* Queue.sliding<void>(1)
        let window: DispatchWindow | null = null
        const early: Array<RolloutKeyText> = []
        // Listening before reading PostgreSQL: a commit in between is in the table or among these events.
        const unlisten = bus.onEvent(jobId, (event) => {
          const key = committedKeyOf(event)
          if (key === null) return
          if (window === null) early.push(key)
          else if (window.commit(key)) Queue.unsafeOffer(wake, undefined)
        })
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => {
            unlisten()
            windows.delete(jobId)
          }),
        )
        const { seeds, attempts, concurrency } = record.config
        const current = new DispatchWindow(
          plannedKeys(seeds, attempts),
          yield* cluster.committedKeys(jobId),
          Math.max(1, concurrency),
        )
        for (const key of early) current.commit(key)
        window = current
        windows.set(jobId, current)
        yield* publish({
          type: "job.started",
          job_id: jobId,
          message: `running ${current.plannedCount - current.committedCount} of ${current.plannedCount} rollouts`,
          data: { total: record.planned, already_done: current.committedCount, completed: current.committedCount },
        })
        let reconciledAt = Date.now()
        while (!current.done) {
          const next = current.topUp()
          if (next.length > 0) yield* Effect.promise(() => queue.add(next.map(messageOf(jobId))))
          if (Date.now() - reconciledAt >= reconcileEveryMs) {
            yield* reconcile(jobId, current)
            reconciledAt = Date.now()
            continue
          }
          yield* Queue.take(wake).pipe(Effect.timeout(Duration.millis(reconcileEveryMs)), Effect.ignore)
          // Commits come in bursts: gathering them a moment makes one BullMQ round trip of many rollouts.
          yield* Effect.sleep(TOP_UP_GATHER)
        }
        yield* finish(record, startedMs)
      }).pipe(
        Effect.scoped,
        Effect.catchAllCause((cause) =>
          Effect.logError(`dispatching job ${jobId} failed; it is leased again`, loggableCause(cause)),
        ),
        // Done or failed: the lease goes back, so a job that is still active is picked up again (here or elsewhere).
        Effect.ensuring(Effect.ignore(cluster.releaseLeases(owner, jobId))),
      )

    /** A cancelled job: its queued rollouts are dropped, and whichever replica dispatched it stops. */
    const stopDispatching = (jobId: string) =>
      Effect.gen(function* () {
        const window = windows.get(jobId)
        yield* FiberMap.remove(dispatchers, jobId)
        if (window !== undefined) yield* Effect.promise(() => queue.remove([...window.inFlight].map(messageOf(jobId))))
      })

    const unlistenControl = bus.onControl((message) => {
      if (message.type === "cancel" && windows.has(message.job_id)) {
        Effect.runFork(stopDispatching(message.job_id))
      }
    })
    yield* Effect.addFinalizer(() => Effect.sync(unlistenControl))

    /** Renews this replica's leases, notices lost ones, and takes on more jobs while there is room. */
    const leaseRound = Effect.gen(function* () {
      const mine = [...windows.keys()]
      const held = yield* cluster.renewLeases(owner, mine, leaseTtlMs)
      for (const jobId of mine) {
        if (held.has(jobId)) continue
        const record = yield* store.getJob(jobId)
        if (record !== null && isTerminal(record.status)) yield* stopDispatching(jobId)
        else {
          bus.incrementStat("leases_lost")
          yield* FiberMap.remove(dispatchers, jobId)
        }
      }
      if (draining) return
      const running = yield* FiberMap.size(dispatchers)
      const taken = yield* cluster.acquireLeases(owner, leaseTtlMs, maxRunning - running)
      for (const jobId of taken) yield* FiberMap.run(dispatchers, jobId, dispatch(jobId), { onlyIfMissing: true })
    })

    yield* Effect.forkScoped(
      Effect.forever(
        Effect.zipRight(
          leaseRound.pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("job lease round failed", loggableCause(cause))),
          ),
          Queue.take(leaseWake).pipe(Effect.timeout(Duration.millis(leaseTtlMs / 4)), Effect.ignore),
        ),
      ),
    )
    yield* Effect.addFinalizer(() => Effect.ignore(cluster.releaseLeases(owner)))

    const service: JobManagerService = {
      submit: Effect.fn("ClusterJobManager.submit")(function* (keyOwner: ApiKeyRecord, spec: JobSpec) {
        if (draining) return yield* new JobRejected({ reason: "ShuttingDown", message: "the server is shutting down" })
        const record = yield* submitLock.withPermits(1)(admitJob(store, box, keyOwner, spec, quota))
        Queue.unsafeOffer(leaseWake, undefined)
        return record
      }),

      cancel: Effect.fn("ClusterJobManager.cancel")(function* (record: JobRecord) {
        if (isTerminal(record.status)) return record
        const stats = yield* storedStats(rollouts, record.id)
        const end = yield* storeJobEnd(store, record.id, { status: "cancelled", error: null, stats })
        if (end.ended) {
          yield* Effect.promise(() => bus.publishControl({ type: "cancel", job_id: record.id }).catch(() => 0))
          if (windows.has(record.id)) yield* stopDispatching(record.id)
          if (end.event !== null) yield* publish(end.event)
        }
        return end.record ?? record
      }),

      subscribe: (jobId) =>
        Effect.gen(function* () {
          const events = yield* Queue.sliding<JobEvent>(4096)
          const pending: Array<JobEvent> = []
          let relay: ((event: JobEvent) => void) | null = null
          const unlisten = bus.onEvent(jobId, (event) => (relay === null ? pending.push(event) : relay(event)))
          yield* Effect.addFinalizer(() => Effect.sync(unlisten))
          // Counts in `seed.completed` are this replica's: the rows stored when it subscribed, plus each commit since.
          const tally = yield* rollouts.resultTally(jobId)
          relay = (event) => {
            if (event.type === "seed.completed") {
              const result = event.data.result as EvalResult
              tallyRow(tally, tallyRowOf(result), 1)
              event = {
                ...event,
                data: {
                  ...event.data,
                  completed: tally.completed,
                  ok: tally.ok,
                  errored: tally.completed - tally.ok,
                  mean_score: tally.scored > 0 ? tally.scoreSum / tally.scored : null,
                },
              }
            }
            Queue.unsafeOffer(events, event)
          }
          for (const event of pending.splice(0)) relay(event)
          return events as Queue.Dequeue<JobEvent>
        }).pipe(Effect.orElseSucceed(() => null)),

      drain: () =>
        Effect.gen(function* () {
          draining = true
          yield* FiberMap.clear(dispatchers)
          // Other replicas take the jobs over at once; queued and running rollouts carry on on the workers.
          yield* Effect.ignore(cluster.releaseLeases(owner))
        }),

      isDraining: () => draining,
    }
    const monitor: ClusterMonitorService = {
      metrics: () => readClusterMetrics(queue, options.cluster.prefix),
      pingRedis: (timeoutMs) =>
        Promise.race([
          queue.redis.ping().then(() => undefined),
          new Promise<void>((_, reject) =>
            setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs).unref(),
          ),
        ]),
    }
    return Context.make(JobManager, service).pipe(Context.add(ClusterMonitor, monitor))
  })

/** The job manager of an API replica (`serve --redis-url`), under the same tag the routes use, and its monitor. */
export const clusterJobManagerLayer = (
  options: ClusterManagerOptions,
): Layer.Layer<JobManager | ClusterMonitor, never, JobStore | RolloutStore | ClusterStore | SecretBox> =>
  Layer.scopedContext(makeClusterJobManager(options))
