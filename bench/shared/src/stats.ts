/** Small statistics helpers for latency samples (milliseconds) and memory series. */

export interface Percentiles {
  readonly n: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
  readonly mean: number
}

/**
 * The one percentile definition of every bench: linear interpolation between closest ranks on sorted values
 * (R's type 7, numpy's default). The median is its p50.
 */
export const percentileOfSorted = (sorted: Float64Array, p: number): number => {
  if (sorted.length === 0) return Number.NaN
  const rank = (p / 100) * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo)
}

export const percentiles = (values: ArrayLike<number>): Percentiles => {
  const sorted = Float64Array.from(values).sort()
  let sum = 0
  for (const v of sorted) sum += v
  return {
    n: sorted.length,
    p50: percentileOfSorted(sorted, 50),
    p90: percentileOfSorted(sorted, 90),
    p99: percentileOfSorted(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
  }
}

/** Least-squares slope and intercept of y on x. */
export const linearFit = (xs: ReadonlyArray<number>, ys: ReadonlyArray<number>) => {
  const n = xs.length
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my)
    sxx += (xs[i]! - mx) ** 2
  }
  const slope = sxx === 0 ? 0 : sxy / sxx
  return { slope, intercept: my - slope * mx }
}

export const median = (xs: ArrayLike<number>): number => percentileOfSorted(Float64Array.from(xs).sort(), 50)
