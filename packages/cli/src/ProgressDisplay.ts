import { type InFlightRollout, LiveRunState, type RunEvent, type RunProgress } from "@proctor/core"
import { formatDuration } from "./internal/formatDuration.js"

const BAR_WIDTH = 24
/** A rollout is listed once it has been in flight this long: a fast run's rollouts come and go unlisted. */
const LIST_AFTER_MS = 1_000
/** At most this many in-flight lines in a log (not a terminal), the rest counted on one line. */
const MAX_PLAIN_LINES = 20
/** Lines of the terminal kept free of the in-flight block: the progress line and the prompt's line. */
const RESERVED_ROWS = 2

const grouped = (value: number): string => String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/** One rollout in flight in one line: which, for how long, its turns, spend, time left and last step (or why it waits). */
export const inFlightLine = (item: InFlightRollout): string => {
  const name = item.attempt === 0 ? `seed ${item.seed}` : `seed ${item.seed} attempt ${item.attempt}`
  if (item.state === "waiting_retry") {
    const wait = formatDuration(item.retry_in_ms ?? 0)
    return [name, `retry ${item.retry ?? 1} in ${wait}`, item.reason ?? ""].join(" · ")
  }
  const parts = [
    name,
    `${item.retry === undefined ? "running" : `retry ${item.retry}`} ${formatDuration(item.since_ms)}`,
  ]
  if (item.turns > 0) parts.push(`turn ${item.turns}`)
  if (item.tokens !== null) parts.push(`${grouped(item.tokens)} tokens`)
  if (item.cost_usd !== null) parts.push(`$${item.cost_usd.toFixed(4)}`)
  if (item.time_left_ms !== undefined) parts.push(`${formatDuration(item.time_left_ms)} left`)
  if (item.last_step !== undefined) parts.push(item.last_step.summary)
  return parts.join(" · ")
}

/**
 * Renders run progress: on a terminal, a live line redrawn in place with a line under it per rollout in flight
 * (what it did last, turns, spend, time left, retry wait), as many as the screen holds; otherwise (CI logs) plain
 * periodic lines, the rollouts in flight listed every `inFlightEveryMs`. Rendering is on a timer, never per event,
 * so a fast run is not slowed by its own display.
 */
export class ProgressDisplay {
  private latest: RunProgress | null = null
  private planned = 0
  private timer: NodeJS.Timeout | null = null
  /** Lines of the live block on screen now; the cursor is at the end of its last. */
  private drawnLines = 0
  private readonly inFlight = new LiveRunState()
  private inFlightListedAt = 0

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly live: boolean,
    private readonly plainIntervalMs = 5_000,
    private readonly inFlightEveryMs = 10_000,
  ) {}

  onEvent = (event: RunEvent): void => {
    this.inFlight.onEvent(event)
    switch (event._tag) {
      case "RunStarted":
        this.planned = event.planned
        if (event.alreadyDone > 0) this.println(`resuming: ${event.alreadyDone}/${event.planned} rollouts already done`)
        this.start()
        break
      case "RolloutFinished":
        this.showProgress(event.progress)
        break
      case "StopRequested":
        this.println(
          `stopping: no new rollouts; waiting for ${event.inFlight} in flight (Ctrl-C again to abandon them)`,
        )
        break
      case "RunFinished":
        this.stop()
        break
      default:
        break
    }
  }

  /** Counters to show at the next redraw (also fed directly by a job followed on a server). */
  showProgress = (progress: RunProgress): void => {
    this.latest = progress
  }

  private start() {
    if (this.timer !== null) return
    this.timer = setInterval(() => this.render(), this.live ? 100 : this.plainIntervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer === null) return
    clearInterval(this.timer)
    this.timer = null
    this.render()
    if (this.live && this.drawnLines > 0) this.out.write("\n")
    this.drawnLines = 0
  }

  private println(line: string) {
    this.out.write(`${this.erase()}${line}\n`)
    this.drawnLines = 0
  }

  /** Moves to the start of the live block and clears it and everything under it. */
  private erase(): string {
    if (!this.live || this.drawnLines === 0) return ""
    return `\r${this.drawnLines > 1 ? `\x1b[${this.drawnLines - 1}A` : ""}\x1b[J`
  }

  /** The rollouts in flight long enough to list, within `room` lines (the last one counting those left out). */
  private inFlightLines(room: number): Array<string> {
    const listed = this.inFlight.view().inflight.filter((item) => item.since_ms >= LIST_AFTER_MS)
    if (listed.length <= room) return listed.map(inFlightLine)
    const shown = Math.max(0, room - 1)
    return [...listed.slice(0, shown).map(inFlightLine), `+${listed.length - shown} more in flight`]
  }

  private render() {
    // Before the first finish, a run with rollouts in flight (an agent's take minutes) is shown all the same.
    const p = this.latest ?? this.inFlight.progress()
    if (this.latest === null && p.inFlight === 0 && this.drawnLines === 0) return
    const line = this.format(p)
    if (this.live) {
      const width = Math.max(20, (this.out.columns ?? 80) - 1)
      const room = Math.max(1, (this.out.rows ?? 24) - RESERVED_ROWS)
      const block = [line, ...this.inFlightLines(room).map((item) => `  ${item}`)].map((l) => l.slice(0, width))
      this.out.write(`${this.erase()}${block.join("\n")}`)
      this.drawnLines = block.length
      return
    }
    this.out.write(`${line}\n`)
    const now = Date.now()
    if (now - this.inFlightListedAt < this.inFlightEveryMs) return
    this.inFlightListedAt = now
    for (const item of this.inFlightLines(MAX_PLAIN_LINES)) this.out.write(`in flight: ${item}\n`)
  }

  /**
   * Counts are the whole run's; the rate and ETA are this session's, as only its rollouts ran in its time.
   * After a resume both are labelled, so "240/400 … ok 230" adds up and the rate is not 240 over 10 s.
   */
  private format(p: RunProgress): string {
    const fraction = this.planned === 0 ? 1 : p.done / this.planned
    const filled = Math.round(fraction * BAR_WIDTH)
    const bar = `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}`
    const sessionDone = p.done - p.alreadyDone
    const rate = p.elapsedMs > 0 ? (sessionDone * 1000) / p.elapsedMs : 0
    const eta = rate > 0 ? ((this.planned - p.done) / rate) * 1000 : Number.NaN
    const mean = p.scored > 0 ? (p.scoreSum / p.scored).toFixed(4) : "-"
    const pace = `${rate.toFixed(rate >= 100 ? 0 : 1)}/s`
    const outcomes =
      p.correct === undefined || p.wrong === undefined ? [`ok ${p.ok}`] : [`correct ${p.correct}`, `wrong ${p.wrong}`]
    const counts = [...outcomes, `errors ${p.errored}`, `retries ${p.retries}`, `mean ${mean}`]
    const head = [this.live ? bar : "progress", `${p.done}/${this.planned}`, `${(fraction * 100).toFixed(1)}%`]
    if (p.alreadyDone === 0) return [...head, pace, `ETA ${formatDuration(eta)}`, ...counts].join("  ")
    head[1] = `run ${head[1]}`
    return [...head, ...counts, `· this session ${sessionDone} at ${pace}`, `ETA ${formatDuration(eta)}`].join("  ")
  }
}
