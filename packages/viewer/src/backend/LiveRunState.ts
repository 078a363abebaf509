import { type RunEvent, type RunProgress, rolloutKeyId } from "@proctor/core"
import type { InFlight, LiveState } from "../apiShapes.js"

interface Tracked {
  readonly seed: number
  readonly attempt: number
  readonly state: "running" | "waiting_retry"
  /** When it entered this state (epoch ms). */
  readonly sinceMs: number
  readonly retry: number
  readonly reason?: string
  readonly retryAtMs?: number
}

/**
 * What a running eval is doing, folded from its run events: progress, every rollout in flight (running, or
 * waiting to retry and why), tokens and cost so far. Watchers are told of every change; they coalesce.
 */
export class LiveRunState {
  runId: string | null = null
  /** The run directory, once the run has started (null for a run stored elsewhere, e.g. a server job). */
  runDir: string | null = null
  /** True once the run has finished (or was interrupted): nothing is in flight any more. */
  finished = false
  private planned = 0
  private alreadyDone = 0
  private startedAtMs: number | null = null
  private latest: RunProgress | null = null
  private tokens = 0
  private costUsd = 0
  private readonly inflight = new Map<string, Tracked>()
  private readonly watchers = new Set<() => void>()

  constructor(private readonly now: () => number = Date.now) {}

  onEvent = (event: RunEvent): void => {
    switch (event._tag) {
      case "RunStarted":
        this.runId = event.runId
        this.runDir = event.runDir
        this.planned = event.planned
        this.alreadyDone = event.alreadyDone
        this.startedAtMs = this.now()
        this.finished = false
        break
      case "RolloutStarted": {
        const { seed, attempt } = event.key
        this.inflight.set(rolloutKeyId(event.key), {
          seed,
          attempt,
          state: "running",
          sinceMs: this.now(),
          retry: event.retry,
        })
        break
      }
      case "RolloutRetried": {
        const now = this.now()
        this.inflight.set(rolloutKeyId(event.key), {
          seed: event.key.seed,
          attempt: event.key.attempt,
          state: "waiting_retry",
          sinceMs: now,
          retry: event.retry,
          reason: `${event.errorKind}: ${event.error}`,
          retryAtMs: now + event.delayMs,
        })
        break
      }
      case "RolloutFinished":
        this.inflight.delete(rolloutKeyId(event.result))
        this.latest = event.progress
        if (event.result.tokens !== null && Number.isFinite(event.result.tokens)) this.tokens += event.result.tokens
        if (event.result.cost_usd !== null && Number.isFinite(event.result.cost_usd)) {
          this.costUsd += event.result.cost_usd
        }
        break
      case "StopRequested":
        // A stopping run abandons every wait for a retry at once (the runner races the wait with the stop).
        for (const [id, tracked] of this.inflight) if (tracked.state === "waiting_retry") this.inflight.delete(id)
        break
      case "RunFinished":
        this.inflight.clear()
        this.finished = true
        break
    }
    for (const watcher of this.watchers) watcher()
  }

  /** Calls `onChange` after every event; returns the function that stops it. */
  watch(onChange: () => void): () => void {
    this.watchers.add(onChange)
    return () => this.watchers.delete(onChange)
  }

  /** The progress counters as of now: in flight and elapsed time are current, the rest as of the last finish. */
  progress(): RunProgress {
    const now = this.now()
    const elapsedMs = this.startedAtMs === null ? 0 : now - this.startedAtMs
    const counts = this.latest ?? {
      planned: this.planned,
      done: this.alreadyDone,
      ok: 0,
      errored: 0,
      retries: 0,
      inFlight: 0,
      scoreSum: 0,
      scored: 0,
      elapsedMs: 0,
      alreadyDone: this.alreadyDone,
    }
    return { ...counts, planned: this.planned, inFlight: this.inflight.size, elapsedMs }
  }

  view(): LiveState {
    const now = this.now()
    const inflight = Array.from(this.inflight.values(), (t): InFlight => {
      const since = { seed: t.seed, attempt: t.attempt, state: t.state, since_ms: now - t.sinceMs }
      const retried = t.retry > 0 ? { ...since, retry: t.retry } : since
      return t.state === "running"
        ? retried
        : { ...retried, reason: t.reason ?? "", retry_in_ms: Math.max(0, (t.retryAtMs ?? now) - now) }
    })
    return { progress: this.progress(), tokens: this.tokens, cost_usd: this.costUsd, inflight }
  }
}
