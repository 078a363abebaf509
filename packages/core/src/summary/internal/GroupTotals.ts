/**
 * Count and sum of scores per group (a seed or a cluster), in two growable typed arrays indexed through one
 * map, so 100k groups cost a few MB and no object per group.
 */
export class GroupTotals<K> {
  private readonly index = new Map<K, number>()
  private counts = new Float64Array(256)
  private sums = new Float64Array(256)

  get size(): number {
    return this.index.size
  }

  add(key: K, score: number): void {
    let i = this.index.get(key)
    if (i === undefined) {
      i = this.index.size
      this.index.set(key, i)
      if (i === this.counts.length) this.grow()
    }
    this.counts[i]! += 1
    this.sums[i]! += score
  }

  /** Calls `f(count, sum)` once per group. */
  forEach(f: (count: number, sum: number) => void): void {
    for (let i = 0; i < this.index.size; i++) f(this.counts[i]!, this.sums[i]!)
  }

  private grow(): void {
    const counts = new Float64Array(this.counts.length * 2)
    const sums = new Float64Array(this.sums.length * 2)
    counts.set(this.counts)
    sums.set(this.sums)
    this.counts = counts
    this.sums = sums
  }
}
