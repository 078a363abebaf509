import { NumberColumn } from "./NumberColumn.js"

/**
 * Where each rollout's lines of one JSONL file are, as byte ranges: lines a try writes together are one range, so
 * most rollouts have one. Per key slot (the reader's): how many lines, its first and last range; per range: where,
 * how long (newlines inside included), and the key's next range (-1: none).
 */
export class KeyRanges {
  private readonly keyLines = new NumberColumn()
  private readonly keyFirst = new NumberColumn()
  private readonly keyLast = new NumberColumn()
  private readonly offsets = new NumberColumn()
  private readonly lengths = new NumberColumn()
  private readonly next = new NumberColumn()
  private allLines = 0

  /** Adds key slots up to `slot` (slots are numbered densely by the reader). */
  private ensure(slot: number): void {
    while (this.keyLines.length <= slot) {
      this.keyLines.push(0)
      this.keyFirst.push(-1)
      this.keyLast.push(-1)
    }
  }

  lines(slot: number): number {
    return slot < this.keyLines.length ? this.keyLines.at(slot) : 0
  }

  /** Every key's lines together. */
  get total(): number {
    return this.allLines
  }

  add(slot: number, offset: number, length: number): void {
    this.ensure(slot)
    this.allLines++
    this.keyLines.set(slot, this.keyLines.at(slot) + 1)
    const last = this.keyLast.at(slot)
    if (last !== -1 && this.offsets.at(last) + this.lengths.at(last) + 1 === offset) {
      this.lengths.set(last, offset + length - this.offsets.at(last))
      return
    }
    const range = this.offsets.push(offset)
    this.lengths.push(length)
    this.next.push(-1)
    if (last === -1) this.keyFirst.set(slot, range)
    else this.next.set(last, range)
    this.keyLast.set(slot, range)
  }

  /** Calls `read` with each of a key's ranges, in file order. */
  forEach(slot: number, read: (offset: number, length: number) => void): void {
    if (slot >= this.keyFirst.length) return
    for (let range = this.keyFirst.at(slot); range !== -1; range = this.next.at(range)) {
      read(this.offsets.at(range), this.lengths.at(range))
    }
  }
}
