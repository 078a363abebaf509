/**
 * Numbers a running job's rows in the order they are stored (`seq`), and knows up to which number every row is
 * committed: rows are stored concurrently, so number 7 may commit before number 6. A reader that stops at
 * `committed()` sees the job's rows as an append-only list, never skipping one that commits late.
 */
export class RowSequence {
  private readonly pending = new Set<number>()

  constructor(private last: number) {}

  take(): number {
    this.last++
    this.pending.add(this.last)
    return this.last
  }

  /** The row numbered `seq` is committed (or its write failed: the number then never appears). */
  settle(seq: number): void {
    this.pending.delete(seq)
  }

  committed(): number {
    let lowest = this.last + 1
    for (const seq of this.pending) if (seq < lowest) lowest = seq
    return lowest - 1
  }
}
