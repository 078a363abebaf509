import type { EvalResult } from "@proctor/core"

/** The columns of `proctor export --format csv`: one flat row per rollout, for a spreadsheet or pandas. */
export const CSV_COLUMNS = [
  "seed",
  "attempt",
  "task_id",
  "status",
  "passed",
  "score",
  "reward_mean",
  "outcome_score",
  "events_score",
  "verifier_score",
  "latency_ms",
  "tokens",
  "cost_usd",
  "retries",
  "error_kind",
  "error",
  "started_at",
  "finished_at",
  "run_id",
  "cluster",
] as const

/**
 * Text a spreadsheet would run as a formula (OWASP's CSV injection list): error messages and task ids come from
 * task apps and models, so a cell such as `=HYPERLINK(…)` is kept as text by a leading `'`. Numbers are left as
 * they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
const field = (value: string | number | boolean | null | undefined): string => {
  if (value === null || value === undefined) return ""
  const text = typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** RFC 4180 ends every record, the last included, with CRLF. */
const record = (fields: ReadonlyArray<string>): string => `${fields.join(",")}\r\n`

export const csvHeader = (): string => record(CSV_COLUMNS.map(field))

/** `passed`: the score reaches the run's pass threshold; empty for a rollout that has no score. */
export const csvRow = (result: EvalResult, passThreshold: number): string => {
  const scored = result.status === "ok" && result.score !== null
  const values: Partial<Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null | undefined>> = {
    ...result,
    passed: scored ? result.score! >= passThreshold : null,
  }
  return record(CSV_COLUMNS.map((column) => field(values[column])))
}
