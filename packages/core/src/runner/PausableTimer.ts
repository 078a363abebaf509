import { type Clock, Effect } from "effect"

/**
 * A stopwatch that can be paused (nanoeval's LimitsHelper timer): an agent's working time leaves out what is not
 * the agent's doing (its sandbox starting, its grading). Reads the clock it was made with, so a `TestClock`
 * drives it in tests; `pause`/`resume` are plain calls, for solvers that do not use Effect.
 */
export class PausableTimer {
  private accumulatedMs = 0
  private runningSince: number | null
  private readonly listeners = new Set<() => void>()

  constructor(
    private readonly clock: Clock.Clock,
    running = true,
  ) {
    this.runningSince = running ? clock.unsafeCurrentTimeMillis() : null
  }

  /** Made on the current fiber's clock. */
  static readonly make = (running = true): Effect.Effect<PausableTimer> =>
    Effect.clockWith((clock) => Effect.sync(() => new PausableTimer(clock, running)))

  get paused(): boolean {
    return this.runningSince === null
  }

  elapsedMs(): number {
    const since = this.runningSince
    return since === null ? this.accumulatedMs : this.accumulatedMs + this.clock.unsafeCurrentTimeMillis() - since
  }

  pause(): void {
    if (this.runningSince === null) return
    this.accumulatedMs = this.elapsedMs()
    this.runningSince = null
    this.changed()
  }

  resume(): void {
    if (this.runningSince !== null) return
    this.runningSince = this.clock.unsafeCurrentTimeMillis()
    this.changed()
  }

  /** Wakes waiters to look again: the timer was paused or resumed, or a limit they read changed. */
  changed(): void {
    for (const listener of [...this.listeners]) listener()
  }

  /**
   * Completes once the running time reaches `limitMs()` (read afresh after every pause, resume or `changed`);
   * never while the limit is null.
   */
  reaches(limitMs: () => number | null): Effect.Effect<void> {
    const change = Effect.async<void>((resume) => {
      const listener = () => resume(Effect.void)
      this.listeners.add(listener)
      return Effect.sync(() => void this.listeners.delete(listener))
    })
    const look: Effect.Effect<void> = Effect.suspend(() => {
      const limit = limitMs()
      const elapsed = this.elapsedMs()
      if (limit !== null && elapsed >= limit) return Effect.void
      const wait = limit === null || this.paused ? Effect.never : Effect.sleep(limit - elapsed)
      return Effect.zipRight(Effect.raceFirst(wait, change), look)
    })
    return look
  }
}
