/** How far apart two values are for Krippendorff's alpha: labels (`nominal`), ranks (`ordinal`), numbers (`interval`). */
export type AlphaLevel = "nominal" | "ordinal" | "interval"

/** A unit's ratings, one per rater; null where a rater gave none. */
export type AlphaUnit = ReadonlyArray<string | number | null>

/**
 * Krippendorff's alpha, α = 1 − D_o / D_e, over units rated by any number of raters with ratings missing
 * (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"): from the coincidence matrix o_ck (each unit's
 * ordered pairs of ratings, weighted 1 / (m_u − 1)), its marginals n_c and total n, α = 1 − (n − 1) Σ o_ck δ²_ck /
 * Σ n_c n_k δ²_ck. δ² is 1 for different labels (nominal), (c − k)² for numbers (interval), and for ranks
 * (ordinal) the squared count of values between c and k, halving the end points': (Σ_{g=c..k} n_g − (n_c + n_k)/2)².
 * Units with fewer than two ratings are not pairable and left out. Null when nothing is pairable or every rating is
 * the same value (no expected disagreement).
 */
export const krippendorffAlpha = (units: ReadonlyArray<AlphaUnit>, level: AlphaLevel): number | null => {
  const rated = units
    .map((unit) => unit.filter((value): value is string | number => value !== null))
    .filter((unit) => unit.length >= 2)
  if (rated.length === 0) return null
  const values = [...new Set(rated.flat())].sort((a, b) =>
    typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
  )
  const index = new Map(values.map((value, i) => [value, i]))
  const v = values.length
  const coincidences = new Float64Array(v * v)
  for (const unit of rated) {
    const weight = 1 / (unit.length - 1)
    for (let i = 0; i < unit.length; i++) {
      for (let j = 0; j < unit.length; j++) {
        if (i !== j) coincidences[index.get(unit[i]!)! * v + index.get(unit[j]!)!]! += weight
      }
    }
  }
  const marginals = new Float64Array(v)
  for (let c = 0; c < v; c++) for (let k = 0; k < v; k++) marginals[c]! += coincidences[c * v + k]!
  const n = marginals.reduce((a, b) => a + b, 0)
  const delta = (c: number, k: number): number => {
    if (c === k) return 0
    if (level === "nominal") return 1
    if (level === "interval") return (Number(values[c]) - Number(values[k])) ** 2
    const [low, high] = c < k ? [c, k] : [k, c]
    let between = 0
    for (let g = low; g <= high; g++) between += marginals[g]!
    return (between - (marginals[c]! + marginals[k]!) / 2) ** 2
  }
  let observed = 0
  let expected = 0
  for (let c = 0; c < v; c++) {
    for (let k = 0; k < v; k++) {
      const d = delta(c, k)
      observed += coincidences[c * v + k]! * d
      expected += marginals[c]! * marginals[k]! * d
    }
  }
  if (expected === 0) return null
  return 1 - ((n - 1) * observed) / expected
}
