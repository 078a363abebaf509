import type { IntervalKind } from "@proctor/core"

/**
 * synth-ai's `_fmt`: `f"{value:.4f}".rstrip("0").rstrip(".")`, and `-` for a missing value. An exact tie at
 * the fifth decimal (x·10⁴ ending in .5, which for a double means x is an odd multiple of 1/32) is rounded
 * to even as Python does, where `toFixed` would round it away from zero. `-0` is shown as `0`.
 */
export const formatNumber = (value: number | null | undefined): string => {
  if (value === null || value === undefined) return "-"
  if (Number.isNaN(value)) return "nan"
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf"
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value)
  const fixed = fixed4(value)
  let end = fixed.length
  while (fixed.charCodeAt(end - 1) === ZERO) end--
  if (fixed.charCodeAt(end - 1) === DOT) end--
  const trimmed = fixed.slice(0, end)
  return trimmed === "-0" ? "0" : trimmed
}

const ZERO = 48
const DOT = 46

const fixed4 = (x: number): string => {
  const scaled = x * 10_000
  const isTie = Number.isInteger(x * 32) && !Number.isInteger(x * 16) && Math.abs(scaled) < 2 ** 52
  if (!isTie) return x.toFixed(4)
  const truncated = Math.trunc(scaled)
  const even = truncated % 2 === 0 ? truncated : truncated + Math.sign(x)
  return (even / 10_000).toFixed(4)
}

/** Three significant digits, so that a cost of $0.0000589 does not read 0.0001 (or 0). */
export const formatSignificant = (value: number | null | undefined): string =>
  value === null || value === undefined || !Number.isFinite(value)
    ? formatNumber(value)
    : String(Number(value.toPrecision(3)))

/**
 * A mean and its 95% half-width, both to the precision the half-width supports: two significant digits of
 * the half-width, and the mean (and the interval's bounds) to as many decimals — `0.870 ± 0.067`, not
 * `0.87 ± 0.0671`.
 */
export const formatEstimate = (
  mean: number,
  half: number,
): { readonly mean: string; readonly half: string; readonly at: (x: number) => string } => {
  if (!(half > 0) || !Number.isFinite(half)) {
    return { mean: formatNumber(mean), half: formatNumber(half), at: formatNumber }
  }
  const rounded = Number(half.toPrecision(2))
  const decimals = Math.min(20, Math.max(0, 1 - Math.floor(Math.log10(rounded))))
  const at = (x: number) => {
    const text = x.toFixed(decimals)
    return /^-0\.?0*$/.test(text) ? text.slice(1) : text
  }
  return { mean: at(mean), half: rounded.toFixed(decimals), at }
}

/**
 * A summary's mean and its 95% interval, to the precision the interval supports: `mean` carries `± half` when the
 * interval is Student's t around it, not when it is Wilson's (pass/fail scores), which is not symmetric.
 */
export const formatMeanInterval = (
  mean: number,
  ci95: readonly [number, number],
  interval: IntervalKind,
): { readonly mean: string; readonly low: string; readonly high: string } => {
  const e = formatEstimate(mean, (ci95[1] - ci95[0]) / 2)
  return { mean: interval === "wilson" ? e.mean : `${e.mean} ± ${e.half}`, low: e.at(ci95[0]), high: e.at(ci95[1]) }
}

/** Width as Python's `len` counts it (code points), so columns line up the same as synth-ai's. */
export const displayWidth = (text: string): number => {
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length
  let width = 0
  for (const _ of text) width++
  return width
}

const MAX_ERROR_WIDTH = 80

/** One line, at most 80 characters: the JSON output keeps the full message. */
export const errorCell = (error: string | null, fallback: string | null): string => {
  const text = (error ?? "").replace(/\s+/g, " ").trim() || fallback || "-"
  if (displayWidth(text) <= MAX_ERROR_WIDTH) return text
  return `${Array.from(text)
    .slice(0, MAX_ERROR_WIDTH - 1)
    .join("")}…`
}

// Thousands separators by hand: the first toLocaleString loads ICU's number data, tens of milliseconds of a
// one-seed eval's start-up (bench/startup).
export const formatInteger = (n: number): string => {
  const digits = String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+$)/g, ",")
  return n <= -0.5 ? `-${digits}` : digits
}

/** Dollars to the cent above $1, else to three significant digits, so that $0.000042 does not read $0. */
export const formatUsd = (n: number): string => {
  const size = Math.abs(n)
  const text = size >= 1 ? size.toFixed(2) : String(Number(size.toPrecision(3)))
  return n < 0 ? `-$${text}` : `$${text}`
}

/** Milliseconds to the unit from 100 ms up, else to three significant digits. */
export const formatMs = (x: number): string => (Math.abs(x) >= 100 ? String(Math.round(x)) : formatSignificant(x))

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`
