import type { LiveRunState } from "@proctor/core"
import { Context, type Effect } from "effect"
import type { JobRecord } from "./JobStore.js"
import type { JobStoreError } from "./JobStoreError.js"
import type { ResultStats } from "./ResultTally.js"

/** A job as a live view reads it while it runs: what is in flight, and how far its rows may be read. */
export interface LiveRun {
  readonly state: LiveRunState
  /** Up to which `seq` its rows are committed in order; null: every stored row (not running here yet, or elsewhere). */
  readonly committedSeq: number | null
}

/**
 * The jobs whose rollouts run in this process: the embedded server's, never an API replica's (its workers run
 * them; its routes read PostgreSQL and Redis). Routes ask for it with `Effect.serviceOption`.
 */
export interface LocalJobsService {
  /**
   * Queues every job a previous process left pending or running and runs only their missing rollouts. Run once the
   * server listens: an intercepted rollout needs the interceptor's public URL.
   */
  readonly resumeAll: Effect.Effect<ReadonlyArray<string>, JobStoreError>
  /**
   * Stats of a job this process is running, kept up to date as its rows are stored; null when it is not running
   * here (ended, queued, or run by another process), where the stored aggregate or the rows are the truth.
   */
  readonly liveStats: (jobId: string) => ResultStats | null
  /**
   * A job this process is running, its row as stored when it started (nothing on it changes until the job ends)
   * and its live stats, so a status poll needs no query. Null otherwise, and from the moment it ends.
   */
  readonly liveStatus: (jobId: string) => { readonly record: JobRecord; readonly stats: ResultStats } | null
  /**
   * A job this process has queued or runs, what is in flight (from its run events), and up to which `seq` its rows
   * are committed in order (null until it runs). Null for any other job.
   */
  readonly liveRun: (jobId: string) => LiveRun | null
}

export class LocalJobs extends Context.Tag("@proctor/server/LocalJobs")<LocalJobs, LocalJobsService>() {}
