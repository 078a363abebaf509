import { type EvalResult, LiveRunState, type RolloutKey, type RunProgress, rolloutKeyId } from "@proctor/core"
import { type ResultTally, tallyRow, tallyRowOf } from "../jobs/ResultTally.js"
import type { LiveRolloutEvent } from "./LiveMessage.js"

/**
 * A cluster job as an API replica sees it live: the `LiveRunState` an embedded job has, folded from what the job's
 * workers publish, its dispatcher's redeliveries and its committed results. A rollout in flight is shown as its latest
 * delivery tells it; it leaves when that delivery's worker says so, when its result is committed, when a dispatcher
 * queues it again, or when that worker's beat lapses (killed). No I/O here.
 */
export class JobLiveFold {
  readonly state = new LiveRunState()
  /** The worker each rollout in flight is heard from, by `rolloutKeyId`. */
  private readonly owners = new Map<string, { readonly worker: string; readonly key: RolloutKey }>()
  /** The job's stored results when the fold started, moved by each commit heard since; null until then. */
  private tally: ResultTally | null = null
  private planned = 0
  private alreadyDone = 0
  private retries = 0

  constructor(readonly jobId: string) {}

  get ended(): boolean {
    return this.state.finished
  }

  /**
   * From here on progress is counted: `tally` is the job's results as stored now. (A commit heard while it was read
   * may be counted in it or not at all: progress is a view, PostgreSQL holds the truth.)
   */
  start(planned: number, tally: ResultTally): void {
    this.planned = planned
    this.alreadyDone = tally.completed
    this.tally = tally
    this.state.onEvent({ _tag: "RunStarted", runId: this.jobId, runDir: null, planned, alreadyDone: tally.completed })
  }

  /** A flush of one worker's news, in the order it was sent. */
  onWorker(worker: string, events: ReadonlyArray<LiveRolloutEvent>): void {
    for (const event of events) {
      const key = event._tag === "RolloutStep" ? event.step : event.key
      const id = rolloutKeyId(key)
      const owner = this.owners.get(id)?.worker
      // A first try is a new delivery and takes the rollout over; news of an earlier one running on elsewhere is stale.
      const takesOver = event._tag === "RolloutStarted" && event.retry === 0
      if (owner !== undefined && owner !== worker && !takesOver) continue
      if (event._tag === "RolloutLeft") this.owners.delete(id)
      else if (event._tag !== "ModelCallFinished") {
        this.owners.set(id, { worker, key: { seed: key.seed, attempt: key.attempt } })
      }
      if (event._tag === "RolloutRetried") this.retries++
      this.state.onEvent(event)
    }
  }

  /** A committed result: counted (once the fold has started), and no longer in flight. */
  onCommitted(result: EvalResult): void {
    if (this.tally === null) {
      this.leave(rolloutKeyId(result), result)
      return
    }
    this.owners.delete(rolloutKeyId(result))
    tallyRow(this.tally, tallyRowOf(result), 1)
    this.state.onEvent({ _tag: "RolloutFinished", result, progress: this.progressOf(this.tally) })
  }

  /** A dispatcher queued these rollouts again: whoever had them is no longer heard about them. */
  onRedispatched(keys: ReadonlyArray<RolloutKey>): void {
    for (const key of keys) this.leave(rolloutKeyId(key), key)
  }

  /** Rollouts of workers whose beat has lapsed (killed, cut off) are not in flight any more. */
  forgetWorkersBut(live: ReadonlySet<string>): void {
    for (const [id, { worker, key }] of this.owners) if (!live.has(worker)) this.leave(id, key)
  }

  end(): void {
    this.owners.clear()
    this.state.end()
  }

  private leave(id: string, key: RolloutKey): void {
    this.owners.delete(id)
    this.state.onEvent({ _tag: "RolloutLeft", key })
  }

  /** Counts as the live view reads them (it keeps planned, in flight and elapsed time itself). */
  private progressOf(tally: ResultTally): RunProgress {
    return {
      planned: this.planned,
      done: tally.completed,
      ok: tally.ok,
      errored: tally.completed - tally.ok,
      retries: this.retries,
      inFlight: 0,
      scoreSum: tally.scoreSum,
      scored: tally.scored,
      elapsedMs: 0,
      alreadyDone: this.alreadyDone,
    }
  }
}
