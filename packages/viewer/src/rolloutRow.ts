import type { EvalResult } from "@proctor/core"
import type { RolloutRow } from "./apiShapes.js"

/** A row carries the start of the error only; the rollout view has all of it. */
export const ROW_ERROR_CHARS = 200

const countOf = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null

/**
 * The task app's own count of turns where it reports one in `metrics.details` (`turns`, or synth-ai's
 * `num_steps`), else one turn per recorded model call, else unknown.
 */
const turnsOf = (details: unknown, calls: number): number | null => {
  const record = typeof details === "object" && details !== null ? (details as Record<string, unknown>) : {}
  return countOf(record.turns) ?? countOf(record.num_steps) ?? (calls > 0 ? calls : null)
}

/**
 * The table's row of a result. `passed` follows the summary's rule (score ≥ the run's pass threshold) and is
 * null for an errored or unscored rollout: an error is neither a right nor a wrong answer.
 */
export const rolloutRow = (result: EvalResult, calls: number, passThreshold: number): RolloutRow => {
  const scored = result.status === "ok" && result.score !== null && Number.isFinite(result.score)
  return {
    seed: result.seed,
    attempt: result.attempt,
    task_id: result.task_id ?? null,
    status: result.status,
    score: result.score,
    passed: scored ? result.score! >= passThreshold : null,
    error_kind: result.error_kind,
    error:
      result.error === null || result.error.length <= ROW_ERROR_CHARS
        ? result.error
        : `${result.error.slice(0, ROW_ERROR_CHARS - 1)}…`,
    latency_ms: result.latency_ms,
    tokens: result.tokens,
    cost_usd: result.cost_usd,
    calls,
    // An agent's result counts its own turns.
    turns: result.turns ?? turnsOf(result.details, calls),
    retries: result.retries,
    stop_reason: result.stop_reason ?? null,
    messages: result.messages ?? null,
  }
}
