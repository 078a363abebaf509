import { isRecord } from "../internal/isRecord.js"
import type { RolloutMetrics, RolloutResponse } from "./TaskAppWire.js"

/** The numbers proctor reads out of one rollout response, following synth-ai's precedence rules. */
export interface RolloutOutcome {
  readonly score: number | null
  readonly reward_mean: number | null
  readonly outcome_score: number | null
  readonly events_score: number | null
  readonly verifier_score: number | null
  readonly tokens: number | null
  readonly cost_usd: number | null
}

const finite = (u: unknown): number | null => (typeof u === "number" && Number.isFinite(u) ? u : null)

const firstNumber = (...candidates: ReadonlyArray<unknown>): number | null => {
  for (const c of candidates) {
    const n = finite(c)
    if (n !== null) return n
  }
  return null
}

/** `metrics` or its alias `reward_info`, whichever the task app sent. */
export const metricsOf = (response: RolloutResponse): RolloutMetrics | undefined =>
  response.metrics ?? response.reward_info ?? undefined

const SCORE_FIELDS = ["outcome_objectives.reward", "outcome_reward", "outcome_score", "reward_mean", "mean_return"]

/** The score fields' values, in synth-ai's order of precedence (`SCORE_FIELDS`). */
const scoreCandidates = (metrics: RolloutMetrics): ReadonlyArray<unknown> => {
  const objectives = metrics.outcome_objectives
  return [
    isRecord(objectives) ? objectives.reward : undefined,
    metrics.outcome_reward,
    metrics.outcome_score,
    metrics.reward_mean,
    metrics.mean_return,
  ]
}

/**
 * The score is the first score field that holds a number. A non-finite one (`1e999`, Python's `NaN`) is no
 * score: it does not fall through to a later field, which would report a number the task app did not mean.
 */
export const scoreOf = (metrics: RolloutMetrics | undefined): number | null => {
  if (metrics === undefined) return null
  const score = scoreCandidates(metrics).find((candidate) => typeof candidate === "number") as number | undefined
  return score !== undefined && Number.isFinite(score) ? score : null
}

const quote = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)

/** An error a task app reported beside its answer: a top-level `error`, or `metrics.details.error`. */
const reportedError = (response: RolloutResponse): string | null => {
  for (const error of [(response as Record<string, unknown>).error, metricsOf(response)?.details?.error]) {
    if (typeof error === "string" && error !== "") return error
    if (isRecord(error) && typeof error.message === "string") return error.message
  }
  return null
}

/** Why `scoreOf` finds no score in a response, for the result's error message (never on the hot path). */
export const missingScoreReason = (response: RolloutResponse): string => {
  const metrics = metricsOf(response)
  const present = metrics === undefined ? -1 : scoreCandidates(metrics).findIndex((c) => typeof c === "number")
  const why =
    metrics === undefined
      ? "it has no metrics"
      : present >= 0
        ? `metrics.${SCORE_FIELDS[present]} is ${scoreCandidates(metrics)[present]}, not a finite number`
        : `its metrics have none of ${SCORE_FIELDS.join(", ")}`
  const error = reportedError(response)
  return error === null ? why : `${why}; the task app reported the error ${quote(error)}`
}

const sumTotals = (items: ReadonlyArray<unknown>, pick: (item: Record<string, unknown>) => number | null) => {
  let total = 0
  let found = false
  for (const item of items) {
    if (!isRecord(item)) continue
    const n = pick(item)
    if (n !== null) {
      total += n
      found = true
    }
  }
  return found ? total : null
}

const usageTotal = (u: unknown): number | null => (isRecord(u) ? finite(u.total_tokens) : null)

/**
 * Tokens, when the metrics do not carry them: `trace.usage.total_tokens`, else the trace's event history
 * (`usage` and `response.usage`), else the trajectory steps' `info.tokens` / `info.usage.total_tokens`.
 */
export const tokensFromTrace = (response: RolloutResponse): number | null => {
  const trace = response.trace
  if (isRecord(trace)) {
    const direct = usageTotal(trace.usage)
    if (direct !== null) return direct
    if (Array.isArray(trace.event_history)) {
      const fromEvents = sumTotals(trace.event_history, (event) => {
        const own = usageTotal(event.usage)
        const nested = isRecord(event.response) ? usageTotal(event.response.usage) : null
        return own === null && nested === null ? null : (own ?? 0) + (nested ?? 0)
      })
      if (fromEvents !== null) return fromEvents
    }
  }
  const steps = (response.trajectories ?? []).flatMap((t) => t.steps ?? [])
  return sumTotals(steps, (step) => {
    const info = step.info
    if (!isRecord(info)) return null
    return finite(info.tokens) ?? usageTotal(info.usage)
  })
}

/**
 * The rollout's value of a `cluster_by` key, from `metrics.details` (numbers and booleans as strings); undefined
 * when the run names no key or the task app sent no usable value, and the rollout then counts as its own seed's.
 */
export const clusterOf = (response: RolloutResponse, key: string | undefined): string | undefined => {
  if (key === undefined) return undefined
  const details = metricsOf(response)?.details
  return isRecord(details) ? clusterValue(details[key]) : undefined
}

/** A field's value as a cluster name: non-empty strings, finite numbers and booleans (as strings); else none. */
export const clusterValue = (value: unknown): string | undefined => {
  if (typeof value === "string") return value === "" ? undefined : value
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean") return String(value)
  return undefined
}

/**
 * `reward_mean`, `outcome_score` and `events_score` are the task app's own fields as sent, as synth-ai's
 * runner reports them: one is never filled in from another (`null` stays null). Absent is null too, where
 * synth-ai's pydantic model would report `reward_mean` 0.0: a default proctor does not invent.
 */
export const outcomeOf = (response: RolloutResponse): RolloutOutcome => {
  const metrics = metricsOf(response)
  const details = metrics?.details ?? undefined
  return {
    score: scoreOf(metrics),
    reward_mean: firstNumber(metrics?.reward_mean),
    outcome_score: firstNumber(metrics?.outcome_score),
    events_score: firstNumber(metrics?.events_score),
    verifier_score: firstNumber(details?.verifier_score),
    tokens: firstNumber(details?.tokens) ?? tokensFromTrace(response),
    cost_usd: firstNumber(details?.cost_usd),
  }
}

/** What a task app said about a rollout besides its numbers; kept on the result (bounded by the runner). */
export interface RolloutReport {
  readonly details: unknown
  readonly final: unknown
  readonly info: unknown
}

const lastOf = <A>(items: ReadonlyArray<A> | null | undefined, has: (item: A) => boolean): A | undefined => {
  if (items === null || items === undefined) return undefined
  for (let i = items.length - 1; i >= 0; i--) if (has(items[i]!)) return items[i]
  return undefined
}

/**
 * `metrics.details` (or `reward_info.details`), the `final` of the last trajectory that has one, and the `info`
 * of the last step that has one; `undefined` for what was not sent.
 */
export const reportOf = (response: RolloutResponse): RolloutReport => {
  const trajectories = response.trajectories
  const withSteps = lastOf(trajectories, (t) => (t.steps?.length ?? 0) > 0)
  return {
    details: response.metrics?.details ?? response.reward_info?.details ?? undefined,
    final: lastOf(trajectories, (t) => t.final !== undefined && t.final !== null)?.final,
    info: lastOf(withSteps?.steps, (step) => step.info !== undefined && step.info !== null)?.info ?? undefined,
  }
}
