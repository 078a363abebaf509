/**
 * Deadlines for many concurrent requests on one timer. A timer (or racing fiber) per request costs more
 * than the request itself at thousands per second; a sweep every `resolutionMs` costs a set insert and
 * delete per request, and is late by at most `resolutionMs`.
 */
export class DeadlineSweep {
  private readonly pending = new Set<{ readonly at: number; readonly expire: () => void }>()
  private timer: NodeJS.Timeout | null = null

  constructor(private readonly resolutionMs = 100) {}

  /** Calls `expire` once `at` (epoch ms) has passed, unless the returned function is called first. */
  add(at: number, expire: () => void): () => void {
    const entry = { at, expire }
    this.pending.add(entry)
    if (this.timer === null) {
      this.timer = setInterval(() => this.sweep(), this.resolutionMs)
      this.timer.unref()
    }
    return () => {
      this.pending.delete(entry)
    }
  }

  private sweep() {
    const now = Date.now()
    for (const entry of this.pending) {
      if (entry.at <= now) {
        this.pending.delete(entry)
        entry.expire()
      }
    }
    if (this.pending.size === 0 && this.timer !== null) {
      clearInterval(this.timer)
      this.timer = null
    }
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    this.pending.clear()
  }
}
