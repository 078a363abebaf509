import { close, fdatasync, fsync, openSync } from "node:fs"
import { Deferred, Effect, Exit, FiberId } from "effect"
import type { StoreError } from "../ResultStore.js"

/** One round of syncing: the writes made before it started are on stable storage once `done` completes. */
interface Batch {
  readonly done: Deferred.Deferred<void, StoreError>
  /** Files written for this batch's appends (traces): synced and closed with it. */
  readonly files: Array<number>
  /** The journals written to since the previous batch started. */
  readonly written: Set<number>
}

/**
 * Group commit: a journal write noted with `wrote` completes only once its lines are on stable storage, with one `fdatasync` per
 * file for every append that wrote while the previous sync ran. At most one sync is in flight; the next batch
 * gathers meanwhile, and all of its waiters resume together when its sync returns. An append costs a suspended
 * fiber and nothing else (no timer, no per-append callback): the syncs run on libuv's thread pool, off the event
 * loop. New files (traces) are synced with the batch that wrote them, and their directory after them, so a result
 * that counts has its trace on stable storage too.
 *
 * A failed sync fails its batch and every append after it: once the kernel has reported a write lost, a later
 * `fdatasync` that succeeds says nothing about it.
 */
export class GroupCommit {
  private gathering: Batch | null = null
  private syncing: Batch | null = null
  private failure: StoreError | null = null

  /**
   * @param journals the append-only files, synced in this order after the batch's new files when written to (the
   *   results journal last, so a result is never durable before the model calls written before it)
   * @param newFilesDir where the new files of a batch are created; synced after them
   */
  constructor(
    private readonly journals: ReadonlyArray<number>,
    private readonly newFilesDir: string,
    private readonly failed: (cause: unknown) => StoreError,
  ) {}

  /**
   * Notes a write just made to one of the journals; the effect completes once it is on stable storage (running it
   * is optional: a write to another journal noted later waits for this one's batch too).
   */
  wrote(journal: number): Effect.Effect<void, StoreError> {
    if (this.failure !== null) return Effect.fail(this.failure)
    const batch = this.current()
    batch.written.add(journal)
    this.startIfIdle()
    return Deferred.await(batch.done)
  }

  /** Adds a file this batch created (already written, still open): it is synced, then closed, with the batch. */
  addFile(fd: number): void {
    this.current().files.push(fd)
    this.startIfIdle()
  }

  /** Completes once no sync is in flight or gathering (before the files are closed). */
  readonly idle: Effect.Effect<void> = Effect.suspend(() => {
    const pending = [this.syncing, this.gathering].filter((batch): batch is Batch => batch !== null)
    return Effect.forEach(pending, (batch) => Effect.ignore(Deferred.await(batch.done)), { discard: true })
  })

  /** The batch a write made now belongs to: the one gathering, or a new one. */
  private current(): Batch {
    const gathering = this.gathering
    if (gathering !== null) return gathering
    const batch: Batch = {
      done: Deferred.unsafeMake<void, StoreError>(FiberId.none),
      files: [],
      written: new Set(),
    }
    this.gathering = batch
    return batch
  }

  /** Starts syncing the batch gathering, unless a sync is in flight (it starts the next one when it returns). */
  private startIfIdle(): void {
    if (this.syncing === null) this.startNext()
  }

  private startNext(): void {
    const batch = this.gathering
    this.gathering = null
    this.syncing = batch
    if (batch === null) return
    // Handed to the thread pool now: writes made after this point wait for the next round.
    this.syncAll(batch, (error) => {
      if (error !== null && this.failure === null) this.failure = this.failed(error)
      Deferred.unsafeDone(batch.done, this.failure === null ? Exit.void : Exit.fail(this.failure))
      this.startNext()
    })
  }

  private syncAll(batch: Batch, done: (error: unknown) => void): void {
    const steps: Array<(next: (error: NodeJS.ErrnoException | null) => void) => void> = []
    for (const fd of batch.files) {
      steps.push((next) => fdatasync(fd, (error) => close(fd, () => next(error))))
    }
    if (batch.files.length > 0) {
      steps.push((next) => {
        let dir: number
        try {
          dir = openSync(this.newFilesDir, "r")
        } catch (error) {
          return next(error as NodeJS.ErrnoException)
        }
        fsync(dir, (error) => close(dir, () => next(error)))
      })
    }
    for (const fd of this.journals) if (batch.written.has(fd)) steps.push((next) => fdatasync(fd, next))
    const run = (i: number) => {
      if (i === steps.length) return done(null)
      steps[i]!((error) => {
        if (error === null) return run(i + 1)
        // The batch's files not reached yet are still open.
        for (const fd of batch.files.slice(i + 1)) close(fd, () => {})
        done(error)
      })
    }
    run(0)
  }
}
