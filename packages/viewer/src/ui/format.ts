/** How the page writes numbers: missing values as an en dash, never as 0. */

export const MISSING = "–"

const isNumber = (value: number | null | undefined): value is number =>
  value !== null && value !== undefined && Number.isFinite(value)

export const fixed = (value: number | null | undefined, digits = 3): string =>
  isNumber(value) ? String(Number(value.toFixed(digits))) : MISSING

export const percent = (value: number | null | undefined, digits = 1): string =>
  isNumber(value) ? `${(value * 100).toFixed(digits)}%` : MISSING

/**
 * A whole number with its thousands grouped as en-US writes them (12,345), without Intl: a page's first Intl
 * formatter sets up ICU, ~50 ms before the page can show anything.
 */
export const grouped = (value: number): string => String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

export const integer = (value: number | null | undefined): string => (isNumber(value) ? grouped(value) : MISSING)

export const usd = (value: number | null | undefined): string => {
  if (!isNumber(value)) return MISSING
  if (value === 0) return "$0"
  return Math.abs(value) >= 0.01 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`
}

export const duration = (ms: number | null | undefined): string => {
  if (!isNumber(ms)) return MISSING
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const minutes = Math.floor(ms / 60_000)
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`
}

/** Pretty JSON for a `<pre>`, or null when there is nothing to show. */
export const prettyJson = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value, null, 2)

/** How a summary's error bar was computed, in words (the summary's `estimator`). */
export const estimatorName = (estimator: string): string => {
  if (estimator === "clt") return "standard error (CLT)"
  if (estimator === "clustered_by_seed") return "standard error clustered by seed"
  if (estimator.startsWith("clustered_by:")) {
    return `standard error clustered by ${estimator.slice("clustered_by:".length)}`
  }
  return estimator.replace(/_/g, " ")
}

/** A comparison's significance test, in words (`compare --json`'s `test`). */
export const testName = (test: string): string =>
  test === "paired_t" ? "paired t-test" : test === "mcnemar_exact" ? "McNemar's exact test" : test.replace(/_/g, " ")

/** A cost, or "unpriced" where the model has no known price. */
export const costOrUnpriced = (value: number | null | undefined): string => (isNumber(value) ? usd(value) : "unpriced")

/** A rollout as a reader knows it: a library run's task by its id, a task app's by its seed. */
export const rolloutName = (rollout: {
  readonly seed: number
  readonly task_id?: string | number | null | undefined
}): string =>
  rollout.task_id === null || rollout.task_id === undefined ? `seed ${rollout.seed}` : `task ${rollout.task_id}`

export type Outcome = "passed" | "wrong" | "ok" | "error"

/**
 * One word for how a rollout ended, the table's and the rollout page's alike: an error; else passed or wrong by the
 * run's pass threshold (score ≥ threshold passes); "ok" for one that ran without a score.
 */
export const outcomeOf = (
  rollout: { readonly status: "ok" | "error"; readonly score: number | null },
  passThreshold: number,
): Outcome => {
  if (rollout.status === "error") return "error"
  if (!isNumber(rollout.score)) return "ok"
  return rollout.score >= passThreshold ? "passed" : "wrong"
}
