import { closeSync, fsyncSync, openSync, writeSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import type { EvalResult } from "../result/EvalResult.js"
import { type StoreError, storeIoError } from "./ResultStore.js"
import { RESULTS_FILE } from "./RunDirectory.js"

/** A batch that suits results that are cheap to redo: ~1,000 short ones, one write instead of a thousand. */
export const CHEAP_BATCH_BYTES = 256 * 1024

export interface JournalAppender {
  /**
   * Queues a result (no trace: it is written as it is); writes the batch when it is full. Plain, not an Effect: it
   * runs once a rollout in a loop of microseconds. Returns the error of a write that failed.
   */
  readonly append: (result: EvalResult) => StoreError | undefined
}

/**
 * A run directory's journal appended in batches, for work that can be redone exactly (re-grading stored answers):
 * a kill loses at most the batch not yet written, whose rollouts a resume does again, and at worst tears the last
 * line, which `openJournal` cuts off. A `batchBytes` of 0 writes each result at once, for work that costs money to
 * redo (a judge's calls). A run's rollouts, which cost model calls, go through the store's `append`, one
 * write each. The batch left is written, and the file synced, when the scope closes.
 */
export const openJournalAppender = (dir: string, batchBytes: number) => {
  const path = join(dir, RESULTS_FILE)
  const failed = storeIoError(`cannot append to ${path}`)
  return Effect.acquireRelease(
    Effect.try({ try: () => ({ fd: openSync(path, "a"), batch: "" }), catch: failed }),
    (file) =>
      Effect.try({
        try: () => {
          if (file.batch !== "") writeSync(file.fd, file.batch)
          fsyncSync(file.fd)
          closeSync(file.fd)
        },
        catch: failed,
      }).pipe(Effect.orDie),
  ).pipe(
    Effect.map(
      (file): JournalAppender => ({
        append: (result) => {
          file.batch += `${JSON.stringify(result)}\n`
          if (file.batch.length < batchBytes) return undefined
          const batch = file.batch
          file.batch = ""
          try {
            writeSync(file.fd, batch)
          } catch (error) {
            return failed(error)
          }
          return undefined
        },
      }),
    ),
  )
}
