import { regularizedBeta } from "./internal/regularizedBeta.js"

/** Two-sided 95% Student-t critical values for 1–30 degrees of freedom. */
const T_975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604, 2.1448, 2.1314,
  2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
]
/** The two-sided 95% critical value of the normal distribution. */
export const Z_975 = 1.959963984540054

/**
 * The t value of a two-sided 95% interval with `df` degrees of freedom, as printed t tables give it (four
 * decimals up to 30 df); beyond the table, the Cornish–Fisher expansion of t around z is accurate to 1e-5.
 */
export const tCritical95 = (df: number): number => {
  const tabled = T_975[df - 1]
  if (tabled !== undefined) return tabled
  const z = Z_975
  const z3 = z ** 3
  const z5 = z ** 5
  const z7 = z ** 7
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3)
  )
}

/** P(|T| ≥ |t|) for T ~ Student's t with `df` degrees of freedom: the p-value of a two-sided t-test. */
export const studentTTwoSidedP = (t: number, df: number): number => {
  if (Number.isNaN(t)) return Number.NaN
  if (!Number.isFinite(t)) return 0
  return regularizedBeta(df / (df + t * t), df / 2, 0.5)
}

/** P(T ≤ t) for T ~ Student's t with `df` degrees of freedom. */
export const studentTCdf = (t: number, df: number): number => {
  const tail = studentTTwoSidedP(t, df) / 2
  return t >= 0 ? 1 - tail : tail
}

/** The t with P(T ≤ t) = p (0 < p < 1), found by bisection on the CDF to double precision. */
export const studentTQuantile = (p: number, df: number): number => {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile: p must lie strictly between 0 and 1, got ${p}`)
  if (p === 0.5) return 0
  if (p < 0.5) return -studentTQuantile(1 - p, df)
  let low = 0
  let high = 1
  while (studentTCdf(high, df) < p) high *= 2
  // 200 halvings take any bracket below double precision; stop early once the midpoint stops moving.
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2
    if (mid === low || mid === high) break
    if (studentTCdf(mid, df) < p) low = mid
    else high = mid
  }
  return (low + high) / 2
}
