import { type EvalResult, NUMERIC_RESULT_FIELDS, type NumericResultField } from "@proctor/core"
import { errorCell, formatNumber, formatSignificant } from "./format.js"

/**
 * `synth-ai`: every number as synth-ai prints it (4 decimals), for the output files. `human`: the terminal's
 * table, where costs keep three significant digits instead of rounding to 0.0001 or 0.
 */
export type NumberStyle = "synth-ai" | "human"

const NUMERIC_HEADERS = ["score", "reward_mean", "outcome", "events", "latency_ms", "verifier", "tokens", "cost_usd"]

/**
 * Which rows a table holds: a task app's seeds (synth-ai's columns), or an agent run's tasks, where each row is
 * named by its task and says why the agent stopped and after how many turns.
 */
export type RowKind = "seeds" | "tasks"

const AGENT_HEADERS = ["stop_reason", "turns"]

/**
 * synth-ai's results columns, with `attempt` after `seed` when a run makes several attempts per seed; for tasks,
 * `task` instead of `seed`, then `stop_reason` and `turns`.
 */
export const tableHeaders = (withAttempt: boolean, kind: RowKind = "seeds"): ReadonlyArray<string> => [
  kind === "tasks" ? "task" : "seed",
  ...(withAttempt ? ["attempt"] : []),
  ...(kind === "tasks" ? AGENT_HEADERS : []),
  ...NUMERIC_HEADERS,
  "error",
]

/** How many columns come before the numeric ones. */
export const leadingColumns = (withAttempt: boolean, kind: RowKind = "seeds"): number =>
  1 + (withAttempt ? 1 : 0) + (kind === "tasks" ? AGENT_HEADERS.length : 0)

const numberCell = (field: NumericResultField, value: number | null, style: NumberStyle): string =>
  style === "human" && field === "cost_usd" ? formatSignificant(value) : formatNumber(value)

export const resultCells = (
  result: EvalResult,
  withAttempt: boolean,
  style: NumberStyle = "synth-ai",
  kind: RowKind = "seeds",
): ReadonlyArray<string> => {
  const cells = [String(kind === "tasks" ? (result.task_id ?? result.seed) : result.seed)]
  if (withAttempt) cells.push(String(result.attempt))
  if (kind === "tasks") cells.push(result.stop_reason ?? "-", result.turns === undefined ? "-" : String(result.turns))
  for (const field of NUMERIC_RESULT_FIELDS) cells.push(numberCell(field, result[field], style))
  cells.push(errorCell(result.error, result.status === "error" ? result.error_kind : null))
  return cells
}

/**
 * The `avg` row: each numeric column averaged over the rows that have a value, summed in row order like
 * synth-ai's `sum(values) / len(values)`; tokens truncated to an integer as its `int(...)` does.
 */
export class ColumnAverages {
  private readonly sums = new Float64Array(NUMERIC_RESULT_FIELDS.length)
  private readonly counts = new Float64Array(NUMERIC_RESULT_FIELDS.length)

  private turnSum = 0
  private turnCount = 0

  add(result: EvalResult): void {
    if (result.turns !== undefined && Number.isFinite(result.turns)) {
      this.turnSum += result.turns
      this.turnCount++
    }
    for (let i = 0; i < NUMERIC_RESULT_FIELDS.length; i++) {
      const value = result[NUMERIC_RESULT_FIELDS[i]!]
      if (value !== null && Number.isFinite(value)) {
        this.sums[i]! += value
        this.counts[i]!++
      }
    }
  }

  /** Whether the numeric column at `index` (in synth-ai's order, from `score`) has any value. */
  hasValues(index: number): boolean {
    return this.counts[index]! > 0
  }

  cells(withAttempt: boolean, style: NumberStyle = "synth-ai", kind: RowKind = "seeds"): ReadonlyArray<string> {
    const cells = withAttempt ? ["avg", "-"] : ["avg"]
    if (kind === "tasks") {
      cells.push("-", this.turnCount > 0 ? formatNumber(this.turnSum / this.turnCount) : "-")
    }
    NUMERIC_RESULT_FIELDS.forEach((field, i) => {
      const count = this.counts[i]!
      const mean = count > 0 ? this.sums[i]! / count : null
      cells.push(numberCell(field, mean !== null && field === "tokens" ? Math.trunc(mean) : mean, style))
    })
    cells.push("-")
    return cells
  }
}
