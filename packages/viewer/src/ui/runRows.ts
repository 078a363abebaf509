import { FIRST_ROWS_PAGE, type RolloutRow } from "../ViewerApi.js"
import type { ViewerSource } from "./source.js"

/**
 * The rest come in pages of this many, not the server's 20,000: each page is read on the server's one thread
 * and parsed and appended on the page's, so a rollout opened meanwhile waits for at most a short page.
 */
const LATER_PAGE = 2_000

/**
 * One run's rows as they arrive: pages are appended as soon as each comes in (the table shows the first
 * page while the rest load), and `refresh` asks for what a live run appended since.
 */
export class RunRows {
  readonly rows: Array<RolloutRow> = []
  /** Bumped on every change, so views can memoize on it. */
  version = 0
  complete = false
  error: string | null = null
  private loading: Promise<void> | null = null
  private again = false
  private readonly listeners = new Set<() => void>()
  private readonly held = new Set<Promise<void>>()

  constructor(
    private readonly source: ViewerSource,
    private readonly run: number,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * No next page is asked for until `work` settles: a rollout being opened goes first, rather than queueing
   * behind the rest of the rows on the server and on the page's one thread.
   */
  hold<A>(work: Promise<A>): Promise<A> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    )
    this.held.add(settled)
    void settled.then(() => this.held.delete(settled))
    return work
  }

  /** Loads every page from where it stopped; a call while loading schedules one more pass. */
  refresh(): Promise<void> {
    if (this.loading !== null) {
      this.again = true
      return this.loading
    }
    this.loading = this.load().finally(() => {
      this.loading = null
      if (this.again) {
        this.again = false
        void this.refresh()
      }
    })
    return this.loading
  }

  private async load(): Promise<void> {
    try {
      for (;;) {
        while (this.held.size > 0) await Promise.all(this.held)
        const page = await this.source.rows(
          this.run,
          this.rows.length,
          this.rows.length === 0 ? FIRST_ROWS_PAGE : LATER_PAGE,
        )
        for (const row of page.rows) this.rows.push(row)
        this.complete = page.complete
        this.error = null
        this.changed()
        if (page.complete || page.rows.length === 0) return
      }
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error)
      this.changed()
      throw error
    }
  }

  private changed(): void {
    this.version++
    for (const listener of this.listeners) listener()
  }
}
