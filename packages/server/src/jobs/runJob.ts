import {
  type BackoffPolicy,
  type EvalResult,
  forwardModelCalls,
  makeRunControl,
  type RunEvent,
  runRollouts,
  withRunEvents,
} from "@proctor/core"
import { Cause, Effect, Exit, Layer, type PubSub } from "effect"
import { loggableCause } from "../internal/loggableCause.js"
import { nowIso, verdict } from "./admitJob.js"
import { RowSequence } from "./internal/RowSequence.js"
import { JobPendingRolloutsLayer } from "./JobPendingRollouts.js"
import { JobResultStoreLayer } from "./JobResultStore.js"
import type { JobRuntimeService, OpenedJob } from "./JobRuntime.js"
import { isTerminal, type JobStatus } from "./JobStatus.js"
import { JobStore, type JobStoreService } from "./JobStore.js"
import { interruptedEvent, jobEventOf } from "./jobEventOf.js"
import { endWith, type LiveJob, publish } from "./LiveJobs.js"
import { statsOfTally, type TallyRow, tallyRow, tallyRowOf } from "./ResultTally.js"
import { RolloutStore, type RolloutStoreService } from "./RolloutStore.js"
import type { ServerMetricsService } from "./ServerMetrics.js"
import { storedStats, storeJobEnd } from "./storeJobEnd.js"

export interface JobRunnerDeps {
  readonly store: JobStoreService
  readonly rollouts: RolloutStoreService
  readonly runtime: JobRuntimeService
  readonly metrics: ServerMetricsService
  readonly backoff: BackoffPolicy | undefined
  /** True once the process drains: a job that has not started returns at once, a running one stops. */
  readonly draining: () => boolean
}

/**
 * One job run in this process, from its stored row to its stored end: opened through the `JobRuntime`, its rollouts
 * run by core's runner on the job's own `RunControl`, its run events forwarded to its subscribers.
 */
export const makeJobRunner = ({ store, rollouts, runtime, metrics, backoff, draining }: JobRunnerDeps) => {
  const storeLayer = Layer.merge(Layer.succeed(JobStore, store), Layer.succeed(RolloutStore, rollouts))

  const runLayer = (job: LiveJob, opened: OpenedJob) => {
    // Each committed row moves the live tally, so status polls never aggregate the rows.
    const onStored = (result: EvalResult, replaced: TallyRow | null) => {
      const tally = job.tally
      if (tally === null) return
      if (replaced !== null) tallyRow(tally, replaced, -1)
      tallyRow(tally, tallyRowOf(result), 1)
    }
    return opened.solver.pipe(
      Layer.provideMerge(JobResultStoreLayer(job.id, onStored, job.sequence ?? undefined)),
      // A task app's async rollouts are held in the job database: a restarted server polls them again.
      Layer.provide(JobPendingRolloutsLayer(rollouts, job.id)),
      Layer.provide(storeLayer),
    )
  }

  const finish = (job: LiveJob, status: JobStatus, error: string | null) =>
    Effect.gen(function* () {
      job.running = null
      const stats = job.tally === null ? yield* storedStats(rollouts, job.id) : statsOfTally(job.tally)
      const { event } = yield* storeJobEnd(store, job.id, { status, error, stats })
      yield* endWith(job, event)
    })

  const interrupted = (job: LiveJob) => endWith(job, interruptedEvent(job.id))

  /** Run events → metrics, the viewer's live state and the job's event hub. */
  const forward = (job: LiveJob) => (event: RunEvent) => {
    job.live.onEvent(event)
    if (event._tag === "RolloutFinished") metrics.rolloutFinished(event.result)
    else if (event._tag === "RolloutRetried") metrics.rolloutRetried()
    const jobEvent = jobEventOf(job.id, event)
    return jobEvent === null ? Effect.void : publish(job, jobEvent)
  }

  const runJob = (job: LiveJob) =>
    Effect.gen(function* () {
      if (draining()) return
      const record = yield* store.getJob(job.id)
      if (record === null || isTerminal(record.status)) return
      if (job.cancelRequested) return yield* finish(job, "cancelled", null)
      const opened = yield* Effect.either(runtime.open(record))
      if (opened._tag === "Left") return yield* finish(job, "failed", opened.left.message)
      const { config, agent } = opened.right
      if (!(yield* store.markRunning(job.id, nowIso()))) return
      // A job resumed after this process was killed may have left sandboxes; only this process runs the job's rollouts.
      if (agent !== null) yield* Effect.ignore(agent.sandbox.prune(job.id))
      // Counted once here (a resumed job's earlier rows included); every stored row updates it after.
      job.tally = yield* rollouts.resultTally(job.id)
      job.sequence = new RowSequence(yield* rollouts.maxResultSeq(job.id))
      job.running = yield* store.getJob(job.id)
      const control = makeRunControl()
      job.control = control
      // A cancel or a drain that arrived while the job was being set up.
      if (job.cancelRequested) control.cancelInFlight()
      else if (draining()) control.requestStop()

      // Publishing to the job's sliding hub never waits, so events are forwarded synchronously as core delivers them.
      const onEvent = (event: RunEvent) => Effect.runSync(forward(job)(event))
      // The run's exit is the value, so its last events are delivered even when it fails.
      const { modelCalls, priceTable } = opened.right
      const run = (events: PubSub.PubSub<RunEvent>) =>
        runRollouts({ runId: job.id, config, control, events, backoff, taskIdOf: agent?.taskIdOf, priceTable }).pipe(
          Effect.provide(runLayer(job, opened.right)),
        )
      // The dashboard's in-flight rollouts show what their model calls have spent so far.
      const withSpend = (events: PubSub.PubSub<RunEvent>) =>
        modelCalls === undefined
          ? run(events)
          : Effect.scoped(Effect.zipRight(forwardModelCalls(job.id, modelCalls, events), run(events)))
      const exit = yield* withRunEvents(onEvent, (events) => Effect.exit(withSpend(events)), 0)

      if (Exit.isFailure(exit)) {
        if (draining() && Cause.isInterruptedOnly(exit.cause)) return yield* interrupted(job)
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

  return { runJob, interrupted }
}
