/** Holm's step-down procedure over m p-values: what it rejects, and at which level it tests each one. */
export interface HolmResult {
  /** Holm-adjusted p-values, in the order given: max over earlier steps of min(1, (m − k + 1) · p₍ₖ₎). */
  readonly adjusted: ReadonlyArray<number>
  /**
   * The level each hypothesis is tested at, in the order given: α / (m − j + 1) for the j-th smallest p, held at
   * the level of the step where the procedure stops for every later one. An interval at 1 − that level excludes
   * the null exactly when Holm rejects it (for a test whose p-value and interval agree, as the paired t does).
   */
  readonly levels: ReadonlyArray<number>
  readonly rejected: ReadonlyArray<boolean>
}

/**
 * Holm (1979), "A simple sequentially rejective multiple test procedure": sort the p-values, reject while
 * p₍ⱼ₎ < α / (m − j + 1), stop at the first that is not. Controls the family-wise error rate at α under any
 * dependence between the tests, and rejects everything Bonferroni does and more.
 */
export const holm = (pValues: ReadonlyArray<number>, alpha: number): HolmResult => {
  const m = pValues.length
  const order = pValues.map((_, i) => i).sort((x, y) => pValues[x]! - pValues[y]! || x - y)
  const adjusted = new Array<number>(m)
  const levels = new Array<number>(m)
  const rejected = new Array<boolean>(m)
  let running = 0
  let stopped = false
  let stopLevel = alpha
  order.forEach((index, step) => {
    const p = pValues[index]!
    running = Math.max(running, Math.min(1, (m - step) * p))
    adjusted[index] = running
    const level = alpha / (m - step)
    if (!stopped && !(p < level)) {
      stopped = true
      stopLevel = level
    }
    levels[index] = stopped ? stopLevel : level
    rejected[index] = !stopped
  })
  return { adjusted, levels, rejected }
}
