import { regularizedBeta } from "./internal/regularizedBeta.js"

/**
 * P(X ≤ k) for X ~ Binomial(n, p), as I_{1−p}(n − k, k + 1): no sum of n terms, and a small tail keeps its
 * relative accuracy.
 */
export const binomialCdf = (k: number, n: number, p: number): number => {
  if (k < 0) return 0
  if (k >= n) return 1
  return regularizedBeta(1 - p, n - k, k + 1)
}
