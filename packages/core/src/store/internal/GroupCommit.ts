import { close, fdatasync, fsync, openSync } from "node:fs"
import { Deferred, Effect, Exit, FiberId } from "effect"
import type { StoreError } from "../ResultStore.js"

/** One round of syncing: the writes made before it started are on stable storage once `done` completes. */
interface Batch {
  readonly done: Deferred.Deferred<void, StoreError>
  /** Files written for this batch's appends (traces): synced and closed with it. */
  readonly files: Array<number>
}

/**
 * Group commit: an append's `wait` completes only once its lines are on stable storage, with one `fdatasync` per
 * file for every append that wrote while the previous sync ran. At most one sync is in flight; the next batch
 * gathers meanwhile, and all of its waiters resume together when its sync returns. An append costs a suspended
 * fiber and nothing else (no timer, no per-append callback): the syncs run on libuv's thread pool, off the event
 * loop. New files (traces) are synced with the batch that wrote them, and their directory after them, so the
 * journal never reaches stable storage pointing at a trace that did not.
 *
 * A failed sync fails its batch and every append after it: once the kernel has reported a write lost, a later
 * `fdatasync` that succeeds says nothing about it.
 */
export class GroupCommit {
  private gathering: Batch | null = null
  private syncing: Batch | null = null
  private failure: StoreError | null = null

  /**
   * @param journals the append-only files, synced in this order after the batch's new files (the results journal
   *   last, so a result is never durable before the model calls written before it)
   * @param newFilesDir where the new files of a batch are created; synced after them
   */
  constructor(
    private readonly journals: ReadonlyArray<number>,
    private readonly newFilesDir: string,
    private readonly failed: (cause: unknown) => StoreError,
  ) {}

  /** Adds a file this batch created (already written, still open): it is synced, then closed, with the batch. */
  addFile(fd: number): void {
    this.current().files.push(fd)
  }

  /** Completes once everything written before this call is on stable storage. */
  readonly wait: Effect.Effect<void, StoreError> = Effect.suspend(() =>
    this.failure === null ? Deferred.await(this.current().done) : Effect.fail(this.failure),
  )

  /** Completes once no sync is in flight or gathering (before the files are closed). */
  readonly idle: Effect.Effect<void> = Effect.suspend(() => {
    const pending = [this.syncing, this.gathering].filter((batch): batch is Batch => batch !== null)
    return Effect.forEach(pending, (batch) => Effect.ignore(Deferred.await(batch.done)), { discard: true })
  })

  /** The batch a write made now belongs to: the one gathering, or a new one, started at once when none is syncing. */
  private current(): Batch {
    const gathering = this.gathering
    if (gathering !== null) return gathering
    const batch: Batch = { done: Deferred.unsafeMake<void, StoreError>(FiberId.none), files: [] }
    this.gathering = batch
    if (this.syncing === null) this.startNext()
    return batch
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
    for (const fd of this.journals) steps.push((next) => fdatasync(fd, next))
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
