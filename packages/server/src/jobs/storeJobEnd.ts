import { Effect } from "effect"
import { nowIso } from "./admitJob.js"
import type { JobEvent } from "./JobEvent.js"
import type { JobStatus } from "./JobStatus.js"
import type { JobRecord, JobStoreService } from "./JobStore.js"
import type { JobStoreError } from "./JobStoreError.js"
import { terminalEvent } from "./JobView.js"
import { emptyStats, type ResultStats } from "./ResultTally.js"
import type { RolloutStoreService } from "./RolloutStore.js"

/**
 * Stores a job's end (its status, error and final aggregate, so polls of the ended job never scan its rows) and
 * reads back its row and the event that tells its subscribers. `ended` is false when the job had already ended;
 * `event` is then that earlier end's, and null when the job is gone or not ended.
 */
export const storeJobEnd = (
  store: JobStoreService,
  jobId: string,
  outcome: { readonly status: JobStatus; readonly error: string | null; readonly stats: ResultStats },
): Effect.Effect<
  { readonly ended: boolean; readonly record: JobRecord | null; readonly event: JobEvent | null },
  JobStoreError
> =>
  Effect.gen(function* () {
    const ended = yield* store.finishJob(jobId, { ...outcome, completedAt: nowIso() })
    const record = yield* store.getJob(jobId)
    return { ended, record, event: record === null ? null : terminalEvent(record, record.stats ?? outcome.stats) }
  })

/** A job's aggregate from its stored rows, for a job that ends without a live tally. */
export const storedStats = (rollouts: RolloutStoreService, jobId: string) =>
  Effect.map(rollouts.resultStats([jobId]), (m) => m.get(jobId) ?? emptyStats)
