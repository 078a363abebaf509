import type { RolloutKeyText } from "./RolloutKey.js"

/**
 * Which rollouts of one job to have queued or running: at most `size` (the job's `max_concurrent`) at a time
 * across every worker, since BullMQ's open-source edition has no per-group concurrency. Pure bookkeeping: the
 * dispatcher feeds it commits (from live events and from PostgreSQL) and queues what `topUp` hands out.
 */
export class DispatchWindow {
  private readonly order: ReadonlyArray<RolloutKeyText>
  private readonly planned: ReadonlySet<RolloutKeyText>
  private readonly committed: Set<RolloutKeyText>
  private readonly flying = new Set<RolloutKeyText>()
  private cursor = 0

  constructor(
    planned: Iterable<RolloutKeyText>,
    committed: Iterable<RolloutKeyText>,
    readonly size: number,
  ) {
    this.planned = new Set(planned)
    this.committed = new Set([...committed].filter((key) => this.planned.has(key)))
    this.order = [...this.planned].filter((key) => !this.committed.has(key))
  }

  /** Rollouts queued or running: dispatched and not yet committed. */
  get inFlight(): ReadonlySet<RolloutKeyText> {
    return this.flying
  }

  get committedCount(): number {
    return this.committed.size
  }

  get plannedCount(): number {
    return this.planned.size
  }

  get done(): boolean {
    return this.committed.size >= this.planned.size
  }

  /** The next rollouts to dispatch, so that no more than `size` are in flight; they count as in flight from now. */
  topUp(): Array<RolloutKeyText> {
    const next: Array<RolloutKeyText> = []
    while (this.flying.size < this.size && this.cursor < this.order.length) {
      const key = this.order[this.cursor++]!
      if (this.committed.has(key)) continue
      this.flying.add(key)
      next.push(key)
    }
    return next
  }

  /** A committed result (a live event or a read of PostgreSQL) frees its slot. False when it was known already. */
  commit(key: RolloutKeyText): boolean {
    if (!this.planned.has(key) || this.committed.has(key)) return false
    this.committed.add(key)
    this.flying.delete(key)
    return true
  }
}
