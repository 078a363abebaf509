import type { GridTaskRow, GridView } from "../apiShapes.js"

/** The tasks passed by `a` only and by `b` only (seeds): a pair's flips as the comparison counted them. */
export interface Flips {
  readonly aOnly: ReadonlySet<number>
  readonly bOnly: ReadonlySet<number>
}

/**
 * The flips between two variants, read from the comparison's pair of the two (which lists the better-ranked first,
 * so it is turned round when `a` ranks below `b`); null for a variant the comparison does not know, or `a` = `b`.
 */
export const flipsBetween = (comparison: GridView["comparison"], a: string, b: string): Flips | null => {
  const pair = comparison.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))
  if (pair === undefined) return null
  const [aOnly, bOnly] = pair.a === a ? [pair.flips.a_only, pair.flips.b_only] : [pair.flips.b_only, pair.flips.a_only]
  return { aOnly: new Set(aOnly), bOnly: new Set(bOnly) }
}

/** Which of the two passed a task the other did not, if either. */
export const flipOf = (flips: Flips, seed: number): "a" | "b" | null =>
  flips.aOnly.has(seed) ? "a" : flips.bOnly.has(seed) ? "b" : null

/** By task id (numbers as numbers), else by seed. */
const byTaskId = (x: GridTaskRow, y: GridTaskRow): number => {
  const a = x.task_id
  const b = y.task_id
  if (a === b) return x.seed - y.seed
  if (typeof a === "number" && typeof b === "number") return a - b
  return String(a) < String(b) ? -1 : 1
}

export interface MatrixOrder {
  /** The column (position in `GridView.variants`) whose scores order the rows; null: by task. */
  readonly column: number | null
  readonly descending: boolean
  /** Keep only the tasks that flip (with `flips`). */
  readonly flips: Flips | null
  readonly flipsOnly: boolean
}

/**
 * The matrix's rows (indexes into `tasks`) in the order asked for. A variant's column sorts by its scores, tasks it
 * has no score for last whichever the direction, ties by seed; with `flipsOnly`, only the tasks that flip.
 */
export const matrixRows = (tasks: ReadonlyArray<GridTaskRow>, order: MatrixOrder): Array<number> => {
  const { column, descending, flips, flipsOnly } = order
  const rows: Array<number> = []
  for (let i = 0; i < tasks.length; i++) {
    if (!flipsOnly || flips === null || flipOf(flips, tasks[i]!.seed) !== null) rows.push(i)
  }
  const sign = descending ? -1 : 1
  // Task ids order the tasks where every task has one (a dataset's rows), else seeds do.
  const byTask = tasks.every((task) => task.task_id !== null)
    ? byTaskId
    : (x: GridTaskRow, y: GridTaskRow) => x.seed - y.seed
  const scoreOf = (task: GridTaskRow) => (column === null ? null : (task.cells[column]?.score ?? null))
  rows.sort((i, j) => {
    const x = tasks[i]!
    const y = tasks[j]!
    if (column === null) return sign * byTask(x, y)
    const a = scoreOf(x)
    const b = scoreOf(y)
    if (a === b) return x.seed - y.seed
    if (a === null) return 1
    if (b === null) return -1
    return sign * (a - b)
  })
  return rows
}
