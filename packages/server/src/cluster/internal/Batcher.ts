/**
 * Gathers what many concurrent callers want written and writes it in one call: a worker's rollouts finish in
 * bursts, and one statement (or one Redis message) for a burst costs about what one costs for a single rollout.
 * A batch goes when `maxBatch` items are waiting or `delayMs` after its first item, whichever comes first.
 */
export class Batcher<I, O> {
  private waiting: Array<{ item: I; resolve: (out: O) => void; reject: (error: unknown) => void }> = []
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly write: (items: ReadonlyArray<I>) => Promise<ReadonlyArray<O>>,
    private readonly maxBatch = 64,
    private readonly delayMs = 5,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject })
      if (this.waiting.length >= this.maxBatch) this.flush()
      else this.timer ??= setTimeout(() => this.flush(), this.delayMs)
    })
  }

  private flush(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    const batch = this.waiting
    this.waiting = []
    if (batch.length === 0) return
    this.write(batch.map((entry) => entry.item)).then(
      (outs) => {
        for (const [i, entry] of batch.entries()) entry.resolve(outs[i]!)
      },
      (error: unknown) => {
        for (const entry of batch) entry.reject(error)
      },
    )
  }
}
