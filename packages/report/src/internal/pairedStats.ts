import { binomialCdf, studentTQuantile, studentTTwoSidedP, tCritical95 } from "@proctor/core"

/** The paired t-test of the differences d_i = b_i − a_i, with what its power can resolve. */
export interface PairedT {
  readonly n: number
  readonly meanDiff: number
  /** Sample standard deviation of the differences; null below two pairs. */
  readonly sd: number | null
  readonly se: number | null
  readonly df: number | null
  readonly ci95: readonly [number, number] | null
  readonly pValue: number | null
  readonly mde80: number | null
}

const POWER = 0.8

/**
 * The smallest true difference a two-sided test at α = 0.05 detects with 80% power over n pairs whose
 * differences spread like `sd`: (t_{0.975, n−1} + t_{0.8, n−1}) · sd / √n, the t form of the usual
 * (1.96 + 0.84) · sd / √n, which it approaches as n grows and which it exceeds for few pairs. Null when the
 * differences do not vary: nothing then says how much they would.
 */
export const minimumDetectableDifference = (sd: number, n: number): number | null => {
  if (n < 2 || !(sd > 0)) return null
  const df = n - 1
  return ((tCritical95(df) + studentTQuantile(POWER, df)) * sd) / Math.sqrt(n)
}

/**
 * Paired t over `diffs`: mean d̄, SE = sd(d)/√n, t = d̄/SE with n − 1 df, and a 95% CI d̄ ± t_{0.975} · SE with
 * the same critical values as the run summary's intervals. Differences that are all equal have SE 0: the
 * p-value is then 1 when they are all 0 and 0 otherwise.
 */
export const pairedT = (diffs: ArrayLike<number>): PairedT => {
  const n = diffs.length
  let sum = 0
  for (let i = 0; i < n; i++) sum += diffs[i]!
  const meanDiff = n > 0 ? sum / n : Number.NaN
  if (n < 2) return { n, meanDiff, sd: null, se: null, df: null, ci95: null, pValue: null, mde80: null }
  let squares = 0
  for (let i = 0; i < n; i++) squares += (diffs[i]! - meanDiff) ** 2
  const sd = Math.sqrt(squares / (n - 1))
  const se = sd / Math.sqrt(n)
  const df = n - 1
  const half = tCritical95(df) * se
  const pValue = se > 0 ? studentTTwoSidedP(meanDiff / se, df) : meanDiff === 0 ? 1 : 0
  return {
    n,
    meanDiff,
    sd,
    se,
    df,
    ci95: [meanDiff - half, meanDiff + half],
    pValue,
    mde80: minimumDetectableDifference(sd, n),
  }
}

/**
 * McNemar's exact test: of the `onlyA + onlyB` discordant pairs, under no difference each is equally likely
 * to go either way, so the two-sided p-value is 2 · P(X ≤ min(onlyA, onlyB)) for X ~ Bin(onlyA + onlyB, ½),
 * capped at 1.
 */
export const mcnemarExactP = (onlyA: number, onlyB: number): number => {
  const discordant = onlyA + onlyB
  if (discordant === 0) return 1
  return Math.min(1, 2 * binomialCdf(Math.min(onlyA, onlyB), discordant, 0.5))
}

/** Pearson's correlation of two equally long samples; null below two pairs or when either does not vary. */
export const correlation = (x: ArrayLike<number>, y: ArrayLike<number>): number | null => {
  const n = x.length
  if (n < 2) return null
  let sumX = 0
  let sumY = 0
  for (let i = 0; i < n; i++) {
    sumX += x[i]!
    sumY += y[i]!
  }
  const meanX = sumX / n
  const meanY = sumY / n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - meanX
    const dy = y[i]! - meanY
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  if (sxx === 0 || syy === 0) return null
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)))
}
