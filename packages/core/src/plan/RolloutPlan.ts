import type { RolloutKey } from "../result/EvalResult.js"

export interface PlannedKey extends RolloutKey {
  readonly index: number
}

/**
 * Seeds × attempts (nanoeval's n_tries), as positions in one byte array rather than a set of keys: a run
 * of a million rollouts tracks what is done in a megabyte.
 */
export class RolloutPlan {
  readonly size: number
  private readonly done: Uint8Array
  private cursor = 0
  private doneCount = 0

  constructor(
    private readonly seeds: ReadonlyArray<number>,
    private readonly attempts: number,
  ) {
    this.size = seeds.length * attempts
    this.done = new Uint8Array(this.size)
  }

  get completed(): number {
    return this.doneCount
  }

  /** Marks keys an earlier session stored; calls `onFirst` for each key of this plan not yet marked. */
  markStored<K extends RolloutKey>(stored: Iterable<K>, onFirst: (key: K) => void): void {
    // Built on the first stored key only: for a fresh run of a million seeds this map alone would be ~100 MB.
    let seedIndex: Map<number, number> | undefined
    for (const key of stored) {
      seedIndex ??= this.positionsOfSeeds()
      const position = seedIndex.get(key.seed)
      if (position === undefined || key.attempt < 0 || key.attempt >= this.attempts) continue
      if (this.markDone(position * this.attempts + key.attempt)) onFirst(key)
    }
  }

  private positionsOfSeeds(): Map<number, number> {
    const positions = new Map<number, number>()
    this.seeds.forEach((seed, i) => {
      if (!positions.has(seed)) positions.set(seed, i)
    })
    return positions
  }

  /** The next key not done yet, in seed order. */
  next(): PlannedKey | undefined {
    while (this.cursor < this.size && this.done[this.cursor] === 1) this.cursor++
    if (this.cursor >= this.size) return undefined
    const index = this.cursor++
    return { seed: this.seeds[Math.floor(index / this.attempts)]!, attempt: index % this.attempts, index }
  }

  markDone(index: number): boolean {
    if (this.done[index] === 1) return false
    this.done[index] = 1
    this.doneCount++
    return true
  }

  missing(): Array<RolloutKey> {
    const keys: Array<RolloutKey> = []
    for (let i = 0; i < this.size; i++) {
      if (this.done[i] === 0)
        keys.push({ seed: this.seeds[Math.floor(i / this.attempts)]!, attempt: i % this.attempts })
    }
    return keys
  }
}
