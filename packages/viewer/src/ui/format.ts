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
