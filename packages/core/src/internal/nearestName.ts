/** Edits (insert, delete, substitute, swap two neighbours) between two words: optimal string alignment. */
const editDistance = (a: string, b: string): number => {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  }
  return rows[a.length]![b.length]!
}

/**
 * The candidate a mistyped name most likely meant, or undefined when none is close: at most a third of the
 * name's letters changed (at least one, at most three), case and `-`/`_` ignored.
 */
export const nearestName = (name: string, candidates: Iterable<string>): string | undefined => {
  const normal = (s: string) => s.toLowerCase().replaceAll("-", "_")
  const wanted = normal(name)
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)))
  let best: { name: string; distance: number } | undefined
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normal(candidate))
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name: candidate, distance }
  }
  return best?.name
}
