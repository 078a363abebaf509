import { useEffect, useState } from "preact/hooks"
import type { GridView } from "../apiShapes.js"
import { GridMatrix } from "./GridMatrix.js"
import { GridRanking } from "./GridRanking.js"
import type { GridQuery } from "./gridQuery.js"

export interface GridPageProps {
  readonly load: () => Promise<GridView>
  /** Changes whenever a variant has new rows: the grid is asked for again. */
  readonly updates: number
  readonly query: GridQuery
  readonly gridHref: (query: GridQuery) => string
  readonly rolloutHref: (run: number, seed: number, attempt: number) => string
}

/** A grid run: its variants ranked, every pair compared, and the task × variant matrix. */
export const GridPage = ({ load, updates, query, gridHref, rolloutHref }: GridPageProps) => {
  const [grid, setGrid] = useState<GridView | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    // An answer to an older request (a variant updated again meanwhile) is dropped.
    let current = true
    load().then(
      (loaded) => {
        if (current) setGrid(loaded)
      },
      (error: unknown) => {
        if (current) setProblem(error instanceof Error ? error.message : String(error))
      },
    )
    return () => {
      current = false
    }
  }, [load, updates])
  if (grid === null) {
    return problem === null ? (
      <p class="muted">Loading…</p>
    ) : (
      <p class="bad" role="alert">
        {problem}
      </p>
    )
  }
  return (
    <section class="grid-page" aria-label="grid" data-testid="grid-page">
      <h2>
        {grid.name}{" "}
        <small>
          grid of {grid.variants.length} variants × {grid.tasks.length} tasks
        </small>
      </h2>
      <GridRanking grid={grid} flipsHref={(a, b) => gridHref({ ...query, a, b })} />
      <GridMatrix
        grid={grid}
        query={query}
        onQuery={(next) => {
          location.hash = gridHref(next)
        }}
        rolloutHref={rolloutHref}
      />
    </section>
  )
}
