import { answerOfFinal, type EvalResult, type GridManifest } from "@proctor/core"
import { compareMany, RunTotals } from "@proctor/report"
import type { GridCell, GridTaskRow, GridView } from "./apiShapes.js"

/** A cell's answer is cut here: enough to read on hover; the rollout's page has all of it. */
export const GRID_ANSWER_CHARS = 500

/** A grid run as a viewer or a report is given it: its name, and its variants (variant i is the viewer's run i). */
export interface GridSpec {
  readonly name: string
  readonly variants: GridManifest["variants"]
}

/** One task's rollouts in one variant, counted as they come. */
interface CellTally {
  attempts: number
  errored: number
  /** The lowest attempt seen: the one the cell opens and whose answer it shows. */
  attempt: number
  answer: string | null
  errorKind: string | null
}

const cut = (text: string): string =>
  text.length <= GRID_ANSWER_CHARS ? text : `${text.slice(0, GRID_ANSWER_CHARS - 1)}…`

const isScored = (result: EvalResult): boolean =>
  result.status === "ok" && result.score !== null && Number.isFinite(result.score)

/**
 * A grid's page, folded a result at a time (a variant's journal is streamed through `add`, never held): each
 * variant's per-task totals for @proctor/report's `compareMany` — the one computation of the ranking, the pairs
 * and their flips, `proctor compare GRID`'s — and each task's cell (score, pass, answer) for the matrix.
 */
export class GridViewBuilder {
  private readonly totals: ReadonlyArray<RunTotals>
  private readonly cells: ReadonlyArray<Map<number, CellTally>>
  private readonly taskIds = new Map<number, string | number>()

  constructor(private readonly spec: GridSpec) {
    this.totals = spec.variants.map(() => new RunTotals())
    this.cells = spec.variants.map(() => new Map())
  }

  /** A result of variant `variant` (its index in the spec). */
  add(variant: number, result: EvalResult): void {
    this.totals[variant]!.add(result)
    if (result.task_id !== undefined) this.taskIds.set(result.seed, result.task_id)
    const cells = this.cells[variant]!
    let tally = cells.get(result.seed)
    if (tally === undefined) {
      tally = { attempts: 0, errored: 0, attempt: Number.POSITIVE_INFINITY, answer: null, errorKind: null }
      cells.set(result.seed, tally)
    }
    tally.attempts++
    if (!isScored(result)) tally.errored++
    if (result.attempt < tally.attempt) {
      tally.attempt = result.attempt
      tally.answer = result.status === "ok" ? cut(answerOfFinal(result, [])) : null
      tally.errorKind = result.error_kind
    }
  }

  /** The page: variants ranked (flips pass at `passThreshold`, as `proctor compare` passes at the first run's). */
  view(passThreshold: number): GridView {
    const { variants } = this.spec
    const comparison = compareMany(
      variants.map((variant, index) => ({ label: variant.name, totals: this.totals[index]! })),
      { passThreshold },
    )
    const order = comparison.variants.map((standing) => variants.findIndex((v) => v.name === standing.label))
    const seeds = new Set<number>()
    for (const cells of this.cells) for (const seed of cells.keys()) seeds.add(seed)
    const tasks = [...seeds]
      .sort((x, y) => x - y)
      .map(
        (seed): GridTaskRow => ({
          seed,
          task_id: this.taskIds.get(seed) ?? null,
          cells: order.map((index) => this.cellOf(index, seed, passThreshold)),
        }),
      )
    return {
      name: this.spec.name,
      variants: order.map((index) => ({ ...variants[index]!, run: index })),
      comparison,
      tasks,
    }
  }

  private cellOf(variant: number, seed: number, passThreshold: number): GridCell | null {
    const tally = this.cells[variant]!.get(seed)
    if (tally === undefined) return null
    // The comparison's own per-task mean, so a cell and the ranking never disagree.
    const totals = this.totals[variant]!.seeds.get(seed)
    const score = totals === undefined || totals.scored === 0 ? null : totals.scoreSum / totals.scored
    return {
      score,
      passed: score === null ? null : score >= passThreshold,
      attempts: tally.attempts,
      errored: tally.errored,
      attempt: tally.attempt,
      answer: tally.answer,
      error_kind: tally.errorKind,
    }
  }
}
