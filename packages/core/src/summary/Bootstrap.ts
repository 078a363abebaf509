import { PCGRandom } from "effect/Utils"

export interface BootstrapOptions {
  /** Resamples drawn; default 1000. */
  readonly resamples?: number | undefined
  /** Seeds the resampling, so the same data always give the same interval; default 0. */
  readonly seed?: number | undefined
  /** Coverage of the interval; default 0.95. */
  readonly level?: number | undefined
}

/** Linear interpolation between the closest ranks of an ascending array (numpy's default). */
const quantile = (sorted: Float64Array, q: number): number => {
  const position = (sorted.length - 1) * q
  const below = Math.floor(position)
  const lower = sorted[below]!
  return lower + (sorted[Math.ceil(position)]! - lower) * (position - below)
}

/**
 * A percentile bootstrap interval of a statistic over `n` items: each resample draws `n` item indices with
 * replacement (PCG, seeded, so an interval is reproducible) and computes `statistic` on them; the interval is the
 * resampled values' (1 − level)/2 and (1 + level)/2 quantiles. Resamples on which the statistic is undefined (null:
 * every item alike) are left out; null when fewer than half of them remain, or with under two items.
 */
export const bootstrapCi = (
  n: number,
  statistic: (indices: Int32Array) => number | null,
  options: BootstrapOptions = {},
): readonly [number, number] | null => {
  if (n < 2) return null
  const resamples = options.resamples ?? 1000
  const level = options.level ?? 0.95
  const random = new PCGRandom(options.seed ?? 0)
  const values = new Float64Array(resamples)
  const indices = new Int32Array(n)
  let kept = 0
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) indices[i] = random.integer(n)
    const value = statistic(indices)
    if (value !== null && Number.isFinite(value)) values[kept++] = value
  }
  if (kept < resamples / 2) return null
  const sorted = values.subarray(0, kept).sort()
  return [quantile(sorted, (1 - level) / 2), quantile(sorted, (1 + level) / 2)]
}
