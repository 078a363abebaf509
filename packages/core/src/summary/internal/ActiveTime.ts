/**
 * The time during which at least one rollout was in flight: the union of every rollout's
 * [started_at, finished_at]. Unlike one session's wall clock, it covers every session of a resumed run,
 * including one that was killed before it could write its summary, and leaves out the time between sessions.
 */
export class ActiveTime {
  private starts = new Float64Array(1024)
  private ends = new Float64Array(1024)
  private count = 0

  add(startedAt: string, finishedAt: string): void {
    const start = Date.parse(startedAt)
    const end = Date.parse(finishedAt)
    if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return
    if (this.count === this.starts.length) {
      const starts = new Float64Array(this.count * 2)
      const ends = new Float64Array(this.count * 2)
      starts.set(this.starts)
      ends.set(this.ends)
      this.starts = starts
      this.ends = ends
    }
    this.starts[this.count] = start
    this.ends[this.count] = end
    this.count++
  }

  /** Milliseconds, or null when no rollout had usable timestamps. */
  totalMs(): number | null {
    const n = this.count
    if (n === 0) return null
    const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => this.starts[a]! - this.starts[b]!)
    let total = 0
    let spanStart = this.starts[order[0]!]!
    let spanEnd = this.ends[order[0]!]!
    for (let j = 1; j < n; j++) {
      const i = order[j]!
      if (this.starts[i]! > spanEnd) {
        total += spanEnd - spanStart
        spanStart = this.starts[i]!
      }
      if (this.ends[i]! > spanEnd) spanEnd = this.ends[i]!
    }
    return total + spanEnd - spanStart
  }
}
