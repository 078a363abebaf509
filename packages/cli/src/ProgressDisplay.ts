import type { RunEvent, RunProgress } from "@proctor/core"
import { formatDuration } from "./internal/formatDuration.js"

const BAR_WIDTH = 24

/**
 * Renders run progress: a live line redrawn in place on a terminal, plain periodic lines otherwise (CI
 * logs). Rendering is on a timer, never per event, so a fast run is not slowed by its own display.
 */
export class ProgressDisplay {
  private latest: RunProgress | null = null
  private planned = 0
  private timer: NodeJS.Timeout | null = null
  private lastLineLength = 0

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly live: boolean,
    private readonly plainIntervalMs = 5_000,
  ) {}

  onEvent = (event: RunEvent): void => {
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
    if (this.live && this.lastLineLength > 0) this.out.write("\n")
    this.lastLineLength = 0
  }

  private println(line: string) {
    if (this.live && this.lastLineLength > 0) this.out.write(`\r${" ".repeat(this.lastLineLength)}\r`)
    this.lastLineLength = 0
    this.out.write(`${line}\n`)
  }

  private render() {
    const p = this.latest
    if (p === null) return
    const line = this.format(p)
    if (this.live) {
      const pad = Math.max(0, this.lastLineLength - line.length)
      this.out.write(`\r${line}${" ".repeat(pad)}`)
      this.lastLineLength = line.length
    } else {
      this.out.write(`${line}\n`)
    }
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
