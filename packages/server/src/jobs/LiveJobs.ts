import { LiveRunState, type RunControl } from "@proctor/core"
import { Deferred, Effect, PubSub } from "effect"
import type { RowSequence } from "./internal/RowSequence.js"
import type { JobEvent } from "./JobEvent.js"
import type { JobRecord } from "./JobStore.js"
import type { LiveRun } from "./LocalJobs.js"
import { type ResultStats, type ResultTally, statsOfTally } from "./ResultTally.js"

/** A job this process has queued or runs: what its routes read live, and how it is stopped. */
export interface LiveJob {
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

export const makeLiveJob = (id: string) =>
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
    return job
  })

export const publish = (job: LiveJob, event: JobEvent) => PubSub.publish(job.hub, event)

/** Publishes a job's last event, once: whichever of its ends comes first is the one its subscribers hear. */
export const endWith = (job: LiveJob, event: JobEvent | null) =>
  Effect.suspend(() => {
    if (job.ended || event === null) return Effect.void
    job.ended = true
    return publish(job, event)
  })

/** The jobs this process has queued or runs, by id. */
export class LiveJobs {
  private readonly jobs = new Map<string, LiveJob>()

  get = (jobId: string): LiveJob | undefined => this.jobs.get(jobId)
  has = (jobId: string): boolean => this.jobs.has(jobId)
  add = (job: LiveJob): void => {
    this.jobs.set(job.id, job)
  }
  delete = (jobId: string): void => {
    this.jobs.delete(jobId)
  }
  get size(): number {
    return this.jobs.size
  }
  all = (): Array<LiveJob> => [...this.jobs.values()]

  stats = (jobId: string): ResultStats | null => {
    const tally = this.jobs.get(jobId)?.tally
    return tally === undefined || tally === null ? null : statsOfTally(tally)
  }

  run = (jobId: string): LiveRun | null => {
    const job = this.jobs.get(jobId)
    return job === undefined ? null : { state: job.live, committedSeq: job.sequence?.committed() ?? null }
  }

  status = (jobId: string): { readonly record: JobRecord; readonly stats: ResultStats } | null => {
    const job = this.jobs.get(jobId)
    if (job === undefined || job.running === null || job.tally === null) return null
    return { record: job.running, stats: statsOfTally(job.tally) }
  }
}
