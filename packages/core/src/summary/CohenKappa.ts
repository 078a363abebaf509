/** A confusion matrix of two raters' labels: `counts[i][j]` items rated `labels[i]` by the first, `labels[j]` by the second. */
export interface ConfusionMatrix {
  readonly labels: ReadonlyArray<string>
  readonly counts: ReadonlyArray<ReadonlyArray<number>>
}

/** The labels of pairs of ratings, sorted, with every label either rater used. */
const labelsOf = (pairs: ReadonlyArray<readonly [string, string]>): Array<string> => [...new Set(pairs.flat())].sort()

/** The confusion matrix of `pairs` (first rater's label, second rater's label) over `labels` (default: all used). */
export const confusionMatrix = (
  pairs: ReadonlyArray<readonly [string, string]>,
  labels: ReadonlyArray<string> = labelsOf(pairs),
): ConfusionMatrix => {
  const index = new Map(labels.map((label, i) => [label, i]))
  const counts = labels.map(() => labels.map(() => 0))
  for (const [a, b] of pairs) {
    const i = index.get(a)
    const j = index.get(b)
    if (i !== undefined && j !== undefined) counts[i]![j]!++
  }
  return { labels, counts }
}

/**
 * Cohen's kappa of two raters over the same items: κ = (p_o − p_e) / (1 − p_e), p_o the share of items they agree
 * on, p_e the agreement expected by chance from each rater's own label shares. Null with no items, or when both
 * raters give one and the same label to every item (p_e = 1: agreement by chance alone is certain).
 */
export const cohenKappa = (pairs: ReadonlyArray<readonly [string, string]>): number | null => {
  const n = pairs.length
  if (n === 0) return null
  const first = new Map<string, number>()
  const second = new Map<string, number>()
  let agreed = 0
  for (const [a, b] of pairs) {
    if (a === b) agreed++
    first.set(a, (first.get(a) ?? 0) + 1)
    second.set(b, (second.get(b) ?? 0) + 1)
  }
  let expected = 0
  for (const [label, count] of first) expected += (count / n) * ((second.get(label) ?? 0) / n)
  if (expected === 1) return null
  return (agreed / n - expected) / (1 - expected)
}
