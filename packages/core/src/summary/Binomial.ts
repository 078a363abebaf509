import { regularizedBeta } from "./internal/regularizedBeta.js"
import { tCritical95, Z_975 } from "./StudentT.js"

/**
 * P(X ≤ k) for X ~ Binomial(n, p), as I_{1−p}(n − k, k + 1): no sum of n terms, and a small tail keeps its
 * relative accuracy.
 */
export const binomialCdf = (k: number, n: number, p: number): number => {
  if (k < 0) return 0
  if (k >= n) return 1
  return regularizedBeta(1 - p, n - k, k + 1)
}

/**
 * Wilson's score interval for a proportion `p` observed over `n` trials, with `critical` the two-sided critical value
 * (1.96 for 95%): inside [0, 1] always, and not of zero width when `p` is 0 or 1, where the normal interval is.
 * `n` may be an effective sample size (a clustered design's, p(1 − p) / stderr²), as for survey proportions.
 */
export const wilsonInterval = (p: number, n: number, critical: number): readonly [number, number] => {
  const c2n = (critical * critical) / n
  const centre = (p + c2n / 2) / (1 + c2n)
  const half = (critical * Math.sqrt((p * (1 - p)) / n + c2n / (4 * n))) / (1 + c2n)
  return [Math.max(0, centre - half), Math.min(1, centre + half)]
}

/**
 * The 95% interval of a pass rate `p` over `trials` scores of 0 or 1, estimated with standard error `stderr` on `df`
 * degrees of freedom. Independent scores (`clusters` null) get the textbook Wilson interval over the trials, with z.
 * Scores in clusters (a seed's attempts, a task's) get Wilson's over the effective sample size p(1 − p) / stderr²,
 * at most `trials` and the clusters' count when every cluster scored alike (stderr 0), with t on df.
 */
export const passRateInterval95 = (
  p: number,
  stderr: number,
  df: number,
  trials: number,
  clusters: number | null,
): readonly [number, number] => {
  if (clusters === null) return wilsonInterval(p, trials, Z_975)
  const effective = stderr > 0 ? Math.min(trials, (p * (1 - p)) / stderr ** 2) : clusters
  return wilsonInterval(p, effective, tCritical95(df))
}
