import { MAX_RETRY_ERROR_CHARS, type RolloutKey, type RunEvent, rolloutKeyId, summarisedStep } from "@proctor/core"
import type { LiveRolloutEvent, WorkerLiveMessage } from "./LiveMessage.js"

/**
 * How often a worker tells the replicas about its rollouts in flight: a dashboard redraws a run at most every 250 ms
 * (the viewer's `UPDATE_EVERY_MS`), so news sent more often would not be seen sooner.
 */
export const LIVE_FLUSH_MS = 250

/** One rollout's news since the last flush. */
interface Pending {
  readonly key: RolloutKey
  /** Some of this delivery's news went out: the replicas show it in flight, so its end must go out too. */
  sent: boolean
  events: Array<LiveRolloutEvent>
  /** What its model calls spent since the last flush, as one `ModelCallFinished`. */
  spend: { tokens: number | null; costUsd: number | null; unpriced: boolean } | null
  left: boolean
}

const finite = (value: number | null): value is number => value !== null && Number.isFinite(value)
const sum = (total: number | null, value: number | null) => (finite(value) ? (total ?? 0) + value : total)

/**
 * What a worker tells the replicas about the rollouts it runs, gathered between flushes into one `WorkerLiveMessage`
 * per job: a rollout that starts and leaves between two flushes is never mentioned, its model calls' spend goes as
 * one sum per flush, its steps as one-line summaries. A message thus holds at most the worker's rollouts in flight
 * times the steps and tries each began within `LIVE_FLUSH_MS`.
 */
export class LiveRunFeed {
  private readonly jobs = new Map<string, Map<string, Pending>>()

  constructor(
    private readonly worker: string,
    private readonly send: (message: WorkerLiveMessage) => void,
  ) {}

  /** A job's run events, in the order its runner published them; a `RolloutLeft` after each rollout's last. */
  add(jobId: string, events: Iterable<RunEvent>): void {
    let rollouts = this.jobs.get(jobId)
    if (rollouts === undefined) {
      rollouts = new Map()
      this.jobs.set(jobId, rollouts)
    }
    for (const event of events) this.addTo(rollouts, event)
  }

  /**
   * The job's rollouts were stopped here at once (it ended, or this worker closes): the replicas learn it from the
   * job's end or from this worker's beat going missing, not from each rollout.
   */
  forgetJob(jobId: string): void {
    this.jobs.delete(jobId)
  }

  flush(): void {
    for (const [jobId, rollouts] of this.jobs) {
      const events: Array<LiveRolloutEvent> = []
      for (const [id, pending] of rollouts) {
        events.push(...pending.events)
        if (pending.spend !== null) {
          const { tokens, costUsd, unpriced } = pending.spend
          events.push({ _tag: "ModelCallFinished", key: pending.key, tokens, costUsd: unpriced ? null : costUsd })
        }
        pending.sent ||= pending.events.length > 0 || pending.spend !== null
        pending.events = []
        pending.spend = null
        if (pending.left) rollouts.delete(id)
      }
      if (rollouts.size === 0) this.jobs.delete(jobId)
      if (events.length > 0) this.send({ job_id: jobId, worker: this.worker, events })
    }
  }

  private addTo(rollouts: Map<string, Pending>, event: RunEvent): void {
    switch (event._tag) {
      case "RolloutStarted": {
        const pending = this.pendingOf(rollouts, event.key)
        // A new delivery of the rollout: what was still unsent of an earlier one is moot.
        if (event.retry === 0) Object.assign(pending, { events: [], spend: null, left: false })
        pending.events.push(event)
        break
      }
      case "RolloutStep": {
        const step = summarisedStep(event.step)
        const { agentTimeLeftMs } = event
        this.pendingOf(rollouts, step).events.push(
          agentTimeLeftMs === undefined
            ? { _tag: "RolloutStep", step }
            : { _tag: "RolloutStep", step, agentTimeLeftMs },
        )
        break
      }
      case "RolloutRetried":
        this.pendingOf(rollouts, event.key).events.push({
          ...event,
          error: event.error.slice(0, MAX_RETRY_ERROR_CHARS),
        })
        break
      case "ModelCallFinished": {
        // A call forwarded after its rollout left is in the rollout's result.
        const pending = rollouts.get(rolloutKeyId(event.key))
        if (pending === undefined || pending.left) break
        pending.spend ??= { tokens: null, costUsd: null, unpriced: false }
        const { spend } = pending
        spend.tokens = sum(spend.tokens, event.tokens)
        spend.costUsd = sum(spend.costUsd, event.costUsd)
        spend.unpriced ||= finite(event.tokens) && !finite(event.costUsd)
        break
      }
      case "RolloutLeft": {
        const id = rolloutKeyId(event.key)
        const pending = rollouts.get(id)
        if (pending === undefined) break
        if (pending.sent) Object.assign(pending, { events: [event], spend: null, left: true })
        else rollouts.delete(id)
        break
      }
      default:
        break
    }
  }

  private pendingOf(rollouts: Map<string, Pending>, key: RolloutKey): Pending {
    const id = rolloutKeyId(key)
    const known = rollouts.get(id)
    if (known !== undefined) return known
    const pending: Pending = {
      key: { seed: key.seed, attempt: key.attempt },
      sent: false,
      events: [],
      spend: null,
      left: false,
    }
    rollouts.set(id, pending)
    return pending
  }
}
