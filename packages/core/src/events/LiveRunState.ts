import { type RolloutKey, rolloutKeyId } from "../result/EvalResult.js"
import type { RolloutStep } from "../result/RolloutStep.js"
import type { RunEvent, RunProgress } from "./RunEvents.js"
import { stepSummary } from "./stepSummary.js"

/** What a live view shows of a rollout's last step. */
export interface LastStep {
  readonly kind: RolloutStep["kind"]
  /** The step in one line (`stepSummary`). */
  readonly summary: string
  readonly ago_ms: number
}

/** A rollout in flight as a live view shows it (the viewer's data API answers this shape: snake_case). */
export interface InFlightRollout {
  readonly seed: number
  readonly attempt: number
  readonly state: "running" | "waiting_retry"
  /** How long it has been in this state. */
  readonly since_ms: number
  /** Which retry runs or is waited for; absent on the first try. */
  readonly retry?: number
  /** Waiting to retry: the error that failed the last try, and how long until the next. */
  readonly reason?: string
  readonly retry_in_ms?: number
  /** Model turns of the running try. */
  readonly turns: number
  readonly last_step?: LastStep
  /** Spent so far by the rollout's model calls, failed tries included; null while unknown (no usage, unpriced). */
  readonly tokens: number | null
  readonly cost_usd: number | null
  /** Until the running try's deadline (the run's `timeout`, or the agent's time limit as of its last step). */
  readonly time_left_ms?: number
}

/** A running eval as a live view shows it: progress, spend so far, and every rollout in flight, oldest first. */
export interface LiveRunView {
  readonly progress: RunProgress
  /** Finished rollouts' tokens and cost plus what the rollouts in flight have spent so far. */
  readonly tokens: number
  readonly cost_usd: number
  readonly inflight: ReadonlyArray<InFlightRollout>
}

interface Tracked {
  readonly seed: number
  readonly attempt: number
  state: "running" | "waiting_retry"
  /** When it entered this state (epoch ms). */
  sinceMs: number
  retry: number
  reason: string | null
  retryAtMs: number | null
  turns: number
  lastStep: { readonly kind: RolloutStep["kind"]; readonly summary: string; readonly atMs: number } | null
  /** From the interceptor's calls; `stepTokens` from the model steps, for a run whose calls nobody forwards. */
  callTokens: number | null
  costUsd: number | null
  /** A call with usage but no price: the cost so far is unknown, never understated. */
  unpriced: boolean
  stepTokens: number | null
  deadlineAtMs: number | null
}

const finite = (value: number | null | undefined): value is number =>
  value !== null && value !== undefined && Number.isFinite(value)

const addTo = (total: number | null, value: number | null | undefined) => (finite(value) ? (total ?? 0) + value : total)

/**
 * What a running eval is doing, folded from its run events: progress, every rollout in flight (running — its turns,
 * last step, spend so far and time left — or waiting to retry, why and for how long), tokens and cost so far. One
 * fold for every live view: the terminal's in-flight lines, `proctor eval --view` and the job server's dashboard.
 * Watchers are told of every change; they coalesce.
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
        const now = this.now()
        const tracked = this.startTry(this.track(event.key, now), event.retry, now)
        tracked.deadlineAtMs = event.timeoutMs === undefined ? null : now + event.timeoutMs
        break
      }
      case "RolloutStep":
        this.onStep(event.step, event.agentTimeLeftMs)
        break
      case "ModelCallFinished": {
        // A call forwarded after its rollout finished is in the result's totals already.
        const tracked = this.inflight.get(rolloutKeyId(event.key))
        if (tracked === undefined) break
        tracked.callTokens = addTo(tracked.callTokens, event.tokens)
        tracked.costUsd = addTo(tracked.costUsd, event.costUsd)
        if (finite(event.tokens) && !finite(event.costUsd)) tracked.unpriced = true
        break
      }
      case "RolloutRetried": {
        const now = this.now()
        const tracked = this.track(event.key, now)
        tracked.state = "waiting_retry"
        tracked.sinceMs = now
        tracked.retry = event.retry
        tracked.reason = `${event.errorKind}: ${event.error}`
        tracked.retryAtMs = now + event.delayMs
        tracked.deadlineAtMs = null
        break
      }
      case "RolloutLeft":
        this.inflight.delete(rolloutKeyId(event.key))
        break
      case "RolloutFinished":
        this.inflight.delete(rolloutKeyId(event.result))
        this.latest = event.progress
        if (finite(event.result.tokens)) this.tokens += event.result.tokens
        if (finite(event.result.cost_usd)) this.costUsd += event.result.cost_usd
        break
      case "StopRequested":
        // A stopping run abandons every wait for a retry at once (the runner races the wait with the stop).
        for (const [id, tracked] of this.inflight) if (tracked.state === "waiting_retry") this.inflight.delete(id)
        break
      case "RunFinished":
        // `end` tells the watchers itself.
        this.end()
        return
    }
    for (const watcher of this.watchers) watcher()
  }

  /** Nothing is in flight any more: the run finished, or (a job other processes run) it is known to have ended. */
  end(): void {
    this.inflight.clear()
    this.finished = true
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

  view(): LiveRunView {
    const now = this.now()
    let tokens = this.tokens
    let costUsd = this.costUsd
    const inflight = Array.from(this.inflight.values(), (t) => {
      const item = this.inFlightOf(t, now)
      tokens += item.tokens ?? 0
      costUsd += item.cost_usd ?? 0
      return item
    })
    return { progress: this.progress(), tokens, cost_usd: costUsd, inflight }
  }

  private track(key: RolloutKey, now: number): Tracked {
    const id = rolloutKeyId(key)
    const known = this.inflight.get(id)
    if (known !== undefined) return known
    const tracked: Tracked = {
      seed: key.seed,
      attempt: key.attempt,
      state: "running",
      sinceMs: now,
      retry: 0,
      reason: null,
      retryAtMs: null,
      turns: 0,
      lastStep: null,
      callTokens: null,
      costUsd: null,
      unpriced: false,
      stepTokens: null,
      deadlineAtMs: null,
    }
    this.inflight.set(id, tracked)
    return tracked
  }

  private startTry(tracked: Tracked, retry: number, now: number): Tracked {
    tracked.state = "running"
    tracked.sinceMs = now
    tracked.retry = retry
    tracked.reason = null
    tracked.retryAtMs = null
    tracked.turns = 0
    tracked.lastStep = null
    tracked.deadlineAtMs = null
    return tracked
  }

  private onStep(step: RolloutStep, agentTimeLeftMs: number | undefined) {
    const now = this.now()
    // A step is published before its rollout's result, so an unknown key (or a later try) is a try whose start this
    // fold missed: it began following mid-run, or replays a run directory's steps.
    const tracked = this.track(step, now)
    if (step.retry < tracked.retry) return
    if (step.retry > tracked.retry) this.startTry(tracked, step.retry, now)
    if (step.kind === "model") {
      tracked.turns++
      tracked.stepTokens = addTo(tracked.stepTokens, step.tokens)
    }
    tracked.lastStep = { kind: step.kind, summary: stepSummary(step), atMs: now }
    if (agentTimeLeftMs !== undefined) tracked.deadlineAtMs = now + agentTimeLeftMs
  }

  private inFlightOf(t: Tracked, now: number): InFlightRollout {
    const metered = t.callTokens !== null
    const spend = {
      tokens: metered ? t.callTokens : t.stepTokens,
      cost_usd: metered && !t.unpriced ? t.costUsd : null,
    }
    const base = { seed: t.seed, attempt: t.attempt, state: t.state, since_ms: now - t.sinceMs, turns: t.turns }
    const retried = t.retry > 0 ? { ...base, retry: t.retry } : base
    const last = t.lastStep === null ? retried : { ...retried, last_step: this.lastStepOf(t.lastStep, now) }
    if (t.state === "waiting_retry") {
      return { ...last, reason: t.reason ?? "", retry_in_ms: Math.max(0, (t.retryAtMs ?? now) - now), ...spend }
    }
    return t.deadlineAtMs === null
      ? { ...last, ...spend }
      : { ...last, ...spend, time_left_ms: Math.max(0, t.deadlineAtMs - now) }
  }

  private lastStepOf(step: NonNullable<Tracked["lastStep"]>, now: number): LastStep {
    return { kind: step.kind, summary: step.summary, ago_ms: now - step.atMs }
  }
}
