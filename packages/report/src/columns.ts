import type { EvalResult } from "@proctor/core"
import { errorCell, formatNumber } from "./format.js"

type NumericField =
  | "score"
  | "reward_mean"
  | "outcome_score"
  | "events_score"
  | "latency_ms"
  | "verifier_score"
  | "tokens"
  | "cost_usd"

const NUMERIC_FIELDS: ReadonlyArray<NumericField> = [
  "score",
  "reward_mean",
  "outcome_score",
  "events_score",
  "latency_ms",
  "verifier_score",
  "tokens",
  "cost_usd",
]

const NUMERIC_HEADERS = ["score", "reward_mean", "outcome", "events", "latency_ms", "verifier", "tokens", "cost_usd"]

/** synth-ai's results columns, with `attempt` after `seed` when a run makes several attempts per seed. */
export const tableHeaders = (withAttempt: boolean): ReadonlyArray<string> =>
  withAttempt ? ["seed", "attempt", ...NUMERIC_HEADERS, "error"] : ["seed", ...NUMERIC_HEADERS, "error"]

export const resultCells = (result: EvalResult, withAttempt: boolean): ReadonlyArray<string> => {
  const cells = [String(result.seed)]
  if (withAttempt) cells.push(String(result.attempt))
  for (const field of NUMERIC_FIELDS) cells.push(formatNumber(result[field]))
  cells.push(errorCell(result.error, result.status === "error" ? result.error_kind : null))
  return cells
}

/**
 * The `avg` row: each numeric column averaged over the rows that have a value, summed in row order like
 * synth-ai's `sum(values) / len(values)`; tokens truncated to an integer as its `int(...)` does.
 */
export class ColumnAverages {
  private readonly sums = new Float64Array(NUMERIC_FIELDS.length)
  private readonly counts = new Float64Array(NUMERIC_FIELDS.length)

  add(result: EvalResult): void {
    for (let i = 0; i < NUMERIC_FIELDS.length; i++) {
      const value = result[NUMERIC_FIELDS[i]!]
      if (value !== null && Number.isFinite(value)) {
        this.sums[i]! += value
        this.counts[i]!++
      }
    }
  }

  cells(withAttempt: boolean): ReadonlyArray<string> {
    const cells = withAttempt ? ["avg", "-"] : ["avg"]
    NUMERIC_FIELDS.forEach((field, i) => {
      const count = this.counts[i]!
      const mean = count > 0 ? this.sums[i]! / count : null
      cells.push(formatNumber(mean !== null && field === "tokens" ? Math.trunc(mean) : mean))
    })
    cells.push("-")
    return cells
  }
}
