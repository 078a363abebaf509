/**
 * A column of numbers that grows by doubling: an index of 100,000 rollouts holds a few megabytes in typed
 * arrays instead of an object per rollout.
 */
export class NumberColumn {
  private values = new Float64Array(1024)
  private size = 0

  get length(): number {
    return this.size
  }

  at(index: number): number {
    return this.values[index]!
  }

  set(index: number, value: number): void {
    this.values[index] = value
  }

  push(value: number): number {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.size] = value
    return this.size++
  }
}
