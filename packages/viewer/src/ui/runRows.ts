import { FIRST_ROWS_PAGE, type RolloutRow } from "../apiShapes.js"
import type { ViewerSource } from "./source.js"

/**
 * The rest come in pages of this many, not the server's 20,000: each page is read on the server's one thread
 * and parsed and appended on the page's, so a rollout opened meanwhile waits for at most a short page.
 */
const LATER_PAGE = 1_000

/** Resolves once the browser has painted what the page changed so far (a frame, then a task after it). */
const afterNextPaint = (): Promise<void> =>
  new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))

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
   * No page is asked for or taken in until `work` has settled and what it changed is painted: a rollout being
   * opened goes first, rather than queueing behind the rest of the rows on the server and on the page's one thread.
   */
  hold<A>(work: Promise<A>): Promise<A> {
    const settled = work.then(afterNextPaint, afterNextPaint)
    this.held.add(settled)
    void settled.then(() => this.held.delete(settled))
    return work
  }

  /** Holds the loading until the returned function is called: while a view that shows no rows is open. */
  pause(): () => void {
    let resume = () => {}
    void this.hold(new Promise<void>((resolve) => (resume = resolve)))
    return resume
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
        await this.unheld()
        const page = await this.source.rows(
          this.run,
          this.rows.length,
          this.rows.length === 0 ? FIRST_ROWS_PAGE : LATER_PAGE,
        )
        // A page that arrives while a rollout is opened is taken in after it.
        await this.unheld()
        const first = this.rows.length === 0
        for (const row of page.rows) this.rows.push(row)
        this.complete = page.complete
        this.error = null
        this.changed()
        if (page.complete || page.rows.length === 0) return
        // The first rows go on screen before the next page is asked for, parsed and laid out.
        if (first) await afterNextPaint()
      }
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error)
      this.changed()
      throw error
    }
  }

  private async unheld(): Promise<void> {
    while (this.held.size > 0) await Promise.all(this.held)
  }

  private changed(): void {
    this.version++
    for (const listener of this.listeners) listener()
  }
}
