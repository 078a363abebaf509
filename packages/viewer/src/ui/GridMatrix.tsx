import { useMemo, useRef } from "preact/hooks"
import type { GridCell, GridView } from "../apiShapes.js"
import { fixed, grouped, MISSING } from "./format.js"
import { flipOf, flipsBetween, matrixRows } from "./gridMatrix.js"
import type { GridQuery } from "./gridQuery.js"
import { useVirtualizer } from "./useVirtualizer.js"

const ROW_HEIGHT = 30

type CellOutcome = "passed" | "wrong" | "error" | "missing"

const outcomeOf = (cell: GridCell | null): CellOutcome =>
  cell === null ? "missing" : cell.passed === null ? "error" : cell.passed ? "passed" : "wrong"

const MARK: Record<CellOutcome, string> = { passed: "✓", wrong: "✗", error: "!", missing: "" }

/** What hovering a cell shows: the whole answer (as far as the data carries it) and how the score came about. */
const cellTitle = (cell: GridCell): string => {
  const said = cell.answer === null ? `error: ${cell.error_kind ?? "no score"}` : `answer: ${cell.answer}`
  const attempts = cell.attempts === 1 ? "" : ` over ${cell.attempts} attempts`
  const errored = cell.errored === 0 ? "" : `, ${cell.errored} errored`
  return `${said}\nscore ${fixed(cell.score)}${attempts}${errored} · click for the rollout`
}

export interface GridMatrixProps {
  readonly grid: GridView
  readonly query: GridQuery
  readonly onQuery: (query: GridQuery) => void
  readonly rolloutHref: (run: number, seed: number, attempt: number) => string
}

/**
 * The task × variant matrix: a row per task, a column per variant (best first), each cell the task's score, pass
 * or fail, and the answer; sortable by task or by any variant, virtualized (only visible rows are in the DOM). Two
 * variants picked show the tasks that flip between them, marked or alone.
 */
export const GridMatrix = ({ grid, query, onQuery, rolloutHref }: GridMatrixProps) => {
  const { variants, tasks } = grid
  const columnOf = (run: number | null) => (run === null ? -1 : variants.findIndex((v) => v.run === run))
  const [a, b, sorted] = [columnOf(query.a), columnOf(query.b), columnOf(query.sort)]
  const picked = a >= 0 && b >= 0 && a !== b
  const flips = useMemo(
    () => (picked ? flipsBetween(grid.comparison, variants[a]!.name, variants[b]!.name) : null),
    [grid, a, b],
  )
  const order = useMemo(
    () =>
      matrixRows(tasks, {
        column: sorted < 0 ? null : sorted,
        descending: query.descending,
        flips,
        flipsOnly: query.flipsOnly,
      }),
    [tasks, sorted, query.descending, flips, query.flipsOnly],
  )
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer(order.length, ROW_HEIGHT, scroller)
  const tracks = ["160px", ...(flips === null ? [] : ["90px"]), ...variants.map(() => "minmax(150px, 1fr)")].join(" ")
  const set = (change: Partial<GridQuery>) => onQuery({ ...query, ...change })
  const sortBy = (run: number | null) =>
    set({ sort: run, descending: query.sort === run ? !query.descending : run !== null })
  const arrow = (run: number | null) => (query.sort === run ? (query.descending ? " ▼" : " ▲") : "")
  const ariaSort = (run: number | null) =>
    query.sort === run ? (query.descending ? "descending" : "ascending") : "none"
  const letter = (column: number) => (!picked ? "" : column === a ? "A " : column === b ? "B " : "")

  return (
    <section class="grid-matrix" aria-label="task × variant matrix">
      <h3>Every task in every variant</h3>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        {(["a", "b"] as const).map((which) => (
          <label key={which}>
            Flips: variant {which.toUpperCase()}
            <select
              data-testid={`grid-flip-${which}`}
              value={query[which] ?? ""}
              onChange={(event) => {
                const value = event.currentTarget.value
                set({ [which]: value === "" ? null : Number(value) })
              }}
            >
              <option value="">pick a variant</option>
              {variants.map((variant) => (
                <option key={variant.run} value={variant.run}>
                  {variant.name}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label class="checkbox">
          <span>
            <input
              type="checkbox"
              data-testid="grid-flips-only"
              checked={query.flipsOnly}
              disabled={flips === null}
              onChange={(event) => set({ flipsOnly: event.currentTarget.checked })}
            />{" "}
            only tasks that flip
          </span>
        </label>
        <output data-testid="grid-flip-count">
          {flips === null
            ? `${grouped(order.length)} tasks · pick two variants to see the tasks that flip between them`
            : `${grouped(order.length)} of ${grouped(tasks.length)} tasks · ${flips.aOnly.size} passed by A only, ${flips.bOnly.size} by B only`}
        </output>
      </form>
      <div class="grid-body matrix-body" ref={scroller} data-testid="grid-matrix">
        <table class="grid" aria-label="task × variant matrix" aria-rowcount={order.length + 1}>
          <thead>
            <tr class="grid-row grid-head" style={{ gridTemplateColumns: tracks }}>
              <th scope="col" class="cell" aria-sort={ariaSort(null)}>
                <button type="button" data-testid="grid-sort-task" onClick={() => sortBy(null)}>
                  task{arrow(null)}
                </button>
              </th>
              {flips === null ? null : (
                <th scope="col" class="cell">
                  flip
                </th>
              )}
              {variants.map((variant, column) => (
                <th key={variant.run} scope="col" class="cell" aria-sort={ariaSort(variant.run)} title={variant.name}>
                  <button
                    type="button"
                    data-testid="grid-sort"
                    data-variant={variant.name}
                    onClick={() => sortBy(variant.run)}
                  >
                    {letter(column)}
                    {variant.name}
                    {arrow(variant.run)}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody style={{ height: `${virtualizer.getTotalSize()}px` }}>
            {virtualizer.getVirtualItems().map((item) => {
              const task = tasks[order[item.index]!]!
              const flip = flips === null ? null : flipOf(flips, task.seed)
              return (
                <tr
                  key={item.key}
                  class={`grid-row${flip === null ? "" : ` flip-${flip}`}`}
                  data-testid="grid-task-row"
                  data-seed={task.seed}
                  data-task={task.task_id ?? undefined}
                  data-flip={flip ?? undefined}
                  aria-rowindex={item.index + 2}
                  style={{
                    transform: `translateY(${item.start}px)`,
                    height: `${ROW_HEIGHT}px`,
                    gridTemplateColumns: tracks,
                  }}
                >
                  <td class="cell" data-testid="grid-task">
                    {task.task_id === null ? `seed ${task.seed}` : String(task.task_id)}
                  </td>
                  {flips === null ? null : (
                    <td class="cell flip" data-testid="grid-flip">
                      {flip === null ? "" : `${flip.toUpperCase()} only`}
                    </td>
                  )}
                  {task.cells.map((cell, column) => {
                    const outcome = outcomeOf(cell)
                    const variant = variants[column]!
                    return (
                      <td
                        key={variant.run}
                        class={`cell gcell ${outcome}`}
                        data-testid="grid-cell"
                        data-variant={variant.name}
                        data-outcome={outcome}
                        title={cell === null ? "no rollout yet" : cellTitle(cell)}
                      >
                        {cell === null ? (
                          MISSING
                        ) : (
                          <a href={rolloutHref(variant.run, task.seed, cell.attempt)}>
                            <span class="gscore" data-testid="grid-cell-score">
                              {fixed(cell.score)}
                            </span>{" "}
                            <span class="gmark">{MARK[outcome]}</span>{" "}
                            <span class="ganswer" data-testid="grid-cell-answer">
                              {cell.answer ?? cell.error_kind ?? "error"}
                            </span>
                          </a>
                        )}
                      </td>
                    )
                  })}
                </tr>
              )
            })}
          </tbody>
        </table>
        {order.length === 0 ? (
          <p class="empty">{tasks.length === 0 ? "No rollouts yet." : "No task flips between these two."}</p>
        ) : null}
      </div>
    </section>
  )
}
