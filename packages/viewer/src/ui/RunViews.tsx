import { useEffect, useMemo, useReducer, useState } from "preact/hooks"
import type { RolloutRow, RunHead } from "../apiShapes.js"
import { CompareView } from "./CompareView.js"
import { grouped } from "./format.js"
import { GridPage } from "./GridPage.js"
import { gridQueryOf, gridQueryParams } from "./gridQuery.js"
import { LivePanel } from "./LivePanel.js"
import { RolloutTable } from "./RolloutTable.js"
import { type RolloutNeighbours, RolloutView } from "./RolloutView.js"
import { RunList } from "./RunList.js"
import { href, type Route } from "./router.js"
import { RunRows } from "./runRows.js"
import { SummaryView } from "./SummaryView.js"
import { NotFound, SignInRequired, type ViewerSource } from "./source.js"
import { initialQuery, queryRows, type StatusFilter, type TableQuery } from "./tableQuery.js"

const STATUS_FILTERS = new Set<string>(["all", "ok", "error", "passed", "wrong"])

/** The summary's threshold where there is one, else the config's, else the config default (1). */
const passThresholdOf = (head: RunHead | undefined): number =>
  head?.summary?.pass_threshold ?? head?.config?.pass_threshold ?? 1

/** A rollout's neighbours in the table's order (its filters and sort), for previous/next. */
const neighboursIn = (
  rows: ReadonlyArray<RolloutRow>,
  order: ReadonlyArray<number>,
  seed: number | null,
  attempt: number,
  rolloutHref: (row: RolloutRow) => string,
): RolloutNeighbours => {
  const at = order.findIndex((i) => rows[i]!.seed === seed && rows[i]!.attempt === attempt)
  const link = (i: number | undefined) => (i === undefined ? null : rolloutHref(rows[i]!))
  if (at < 0) return { previous: null, next: link(order[0]), position: null, of: order.length }
  return { previous: link(order[at - 1]), next: link(order[at + 1]), position: at + 1, of: order.length }
}

/** Runs' task ids by seed, where their rollouts have them (a library run's): what a reader calls them. */
const taskIdsOf = (...runs: ReadonlyArray<ReadonlyArray<RolloutRow>>): ReadonlyMap<number, string | number> => {
  const ids = new Map<number, string | number>()
  for (const rows of runs) for (const row of rows) if (row.task_id !== null) ids.set(row.seed, row.task_id)
  return ids
}

const runParam = (params: URLSearchParams, name: string, fallback: number): number => {
  const value = params.get(name)
  return value !== null && /^\d+$/.test(value) ? Number(value) : fallback
}

/** The query a link asks for (`#/rollouts?status=error&kind=timeout`), over the one the table had. */
const queryFromParams = (query: TableQuery, params: URLSearchParams): TableQuery => {
  const status = params.get("status")
  const kind = params.get("kind")
  if (status === null && kind === null) return query
  return {
    ...query,
    ...(status !== null && STATUS_FILTERS.has(status) ? { status: status as StatusFilter } : {}),
    ...(kind === null ? {} : { errorKind: kind }),
  }
}

export interface RunViewsProps {
  readonly source: ViewerSource
  readonly route: Route
  /** The job server's sign-in expired or was refused. */
  readonly onSignInRequired?: () => void
}

/**
 * The views of one data source's runs: summary, table, rollout, compare, a grid run's grid, and a live panel while a
 * run is written.
 */
export const RunViews = ({ source, route, onSignInRequired }: RunViewsProps) => {
  const run = runParam(route.params, "run", 0)
  const [runs, setRuns] = useState<ReadonlyArray<RunHead> | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [notFound, setNotFound] = useState(false)
  const [updates, bump] = useReducer((n: number) => n + 1, 0)
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  const rowsByRun = useMemo(() => new Map<number, RunRows>(), [source])
  const rowsOf = (index: number): RunRows => {
    let rows = rowsByRun.get(index)
    if (rows === undefined) {
      rows = new RunRows(source, index)
      rowsByRun.set(index, rows)
      rows.subscribe(() => rerender(0))
      rows.refresh().catch(fail)
    }
    return rows
  }
  const fail = (error: unknown) => {
    if (error instanceof SignInRequired) onSignInRequired?.()
    else if (error instanceof NotFound) setNotFound(true)
    else setProblem(error instanceof Error ? error.message : String(error))
  }
  const loadRuns = () => source.runs().then(setRuns, fail)
  // A rollout opened holds back the run's next rows page until it has arrived.
  const rolloutSource = useMemo(
    (): ViewerSource => ({
      ...source,
      rollout: (index, seed, attempt) => rowsOf(index).hold(source.rollout(index, seed, attempt)),
    }),
    [source],
  )

  // Rows are asked for at once, beside the run heads: the table's first page must not wait for the summary.
  const current = rowsOf(run)
  useEffect(() => {
    void loadRuns()
    return source.subscribe((updated) => {
      void loadRuns()
      rowsByRun.get(updated)?.refresh().catch(fail)
      bump(0)
    })
  }, [source])

  // A rollout's view shows none of the rows: the rest of them load once it is closed.
  useEffect(() => (route.view === "rollout" ? current.pause() : undefined), [route.view, current])

  const [query, setQuery] = useState<TableQuery>(() => queryFromParams(initialQuery, route.params))
  useEffect(() => {
    if (route.view === "rollouts") setQuery((q) => queryFromParams(q, route.params))
  }, [route.view, route.params.toString()])

  const head = runs?.[run]
  const several = (runs?.length ?? 0) > 1
  // A grid run's `#/` is its grid; of several other runs, `#/` lists them. A run's summary is `#/?run=I`.
  const landing = route.view === "summary" && !route.params.has("run")
  const view =
    landing && source.grid !== null ? "grid" : route.view === "runs" || (landing && several) ? "runs" : route.view
  // A grid's `#/` is its grid: a summary there always names its run.
  const runQuery = run === 0 && !several && source.grid === null ? {} : { run }
  const rolloutHref = (row: Pick<RolloutRow, "seed" | "attempt">) =>
    href(route, `/rollouts/${row.seed}/${row.attempt}`, runQuery)
  const tabs: Array<[string, string, boolean]> = [
    ["Summary", href(route, "/", runQuery), view === "summary"],
    ["Rollouts", href(route, "/rollouts", runQuery), view === "rollouts" || view === "rollout"],
  ]
  if (several) {
    tabs.unshift(["Runs", href(route, "/runs"), view === "runs"])
    tabs.push(["Compare", href(route, "/compare"), view === "compare"])
  }
  if (source.grid !== null) tabs.unshift(["Grid", href(route, "/grid"), view === "grid"])
  // Previous/next follow the table as it was left: its filters and its sort.
  const order = useMemo(
    () => (view === "rollout" ? queryRows(current.rows, query) : []),
    [view, current, current.version, query],
  )

  if (notFound) {
    return (
      <p class="bad" role="alert" data-testid="job-not-found">
        {source.mode === "server"
          ? "No such job (or it is not yours)."
          : "Nothing here: the viewer's data API does not know this run."}
      </p>
    )
  }
  return (
    <>
      <nav class="tabs" aria-label="views">
        {tabs.map(([label, link, active]) => (
          <a
            key={label}
            href={link}
            aria-current={active ? "page" : undefined}
            data-testid={`tab-${label.toLowerCase()}`}
          >
            {label}
          </a>
        ))}
        {runs !== null && several && view !== "compare" && view !== "runs" && view !== "grid" ? (
          <label class="run-picker">
            Run
            <select
              value={run}
              onChange={(event) => {
                const next = Number(event.currentTarget.value)
                location.hash = href(route, view === "rollouts" ? "/rollouts" : "/", { run: next })
              }}
            >
              {runs.map((r) => (
                <option key={r.index} value={r.index}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </nav>
      {problem === null ? null : (
        <p class="bad" role="alert">
          {problem}
        </p>
      )}
      {source.omitted > 0 ? (
        <p class="notice" data-testid="omitted-notice">
          This report keeps every row but only some transcripts: {grouped(source.omitted)} rollouts' transcripts were
          left out to stay within the file's size budget (failures were kept first).
        </p>
      ) : null}
      {head?.live ? (
        <LivePanel
          source={source}
          run={head}
          updates={updates}
          rolloutHref={(seed, attempt) => rolloutHref({ seed, attempt })}
        />
      ) : null}
      {view === "grid" ? (
        source.grid === null ? (
          <p class="muted">These runs are no grid run.</p>
        ) : (
          <GridPage
            load={source.grid}
            updates={updates}
            query={gridQueryOf(route.params)}
            gridHref={(query) => href(route, "/grid", gridQueryParams(query))}
            rolloutHref={(index, seed, attempt) => href(route, `/rollouts/${seed}/${attempt}`, { run: index })}
          />
        )
      ) : null}
      {view === "runs" && runs !== null ? (
        <RunList
          runs={runs}
          runHref={(index) => href(route, "/", { run: index })}
          compareHref={(a, b) => href(route, "/compare", { a, b })}
        />
      ) : null}
      {view === "rollouts" ? (
        <RolloutTable
          rows={current.rows}
          version={current.version}
          complete={current.complete}
          query={query}
          onQuery={setQuery}
          rolloutHref={rolloutHref}
        />
      ) : null}
      {view === "rollout" && route.seed !== null ? (
        <RolloutView
          source={rolloutSource}
          run={run}
          seed={route.seed}
          attempt={route.attempt ?? 0}
          row={current.rows.find((row) => row.seed === route.seed && row.attempt === (route.attempt ?? 0))}
          backHref={href(route, "/rollouts", runQuery)}
          passThreshold={passThresholdOf(head)}
          updates={updates}
          neighbours={neighboursIn(current.rows, order, route.seed, route.attempt ?? 0, rolloutHref)}
        />
      ) : null}
      {view === "summary" ? (
        head === undefined ? (
          <p class="muted">{runs === null ? "Loading…" : "No such run."}</p>
        ) : (
          <SummaryView
            run={head}
            rows={current.rows}
            version={current.version}
            errorsHref={href(route, "/rollouts", { ...runQuery, status: "error" })}
          />
        )
      ) : null}
      {view === "compare" && runs !== null ? (
        <CompareView
          source={source}
          runs={runs}
          a={runParam(route.params, "a", 0)}
          b={runParam(route.params, "b", 1)}
          seed={route.params.has("seed") ? runParam(route.params, "seed", 0) : null}
          attempt={runParam(route.params, "attempt", 0)}
          compareHref={(params) => href(route, "/compare", params)}
          passThresholdOf={(index) => passThresholdOf(runs[index])}
          taskIds={taskIdsOf(rowsOf(runParam(route.params, "a", 0)).rows, rowsOf(runParam(route.params, "b", 1)).rows)}
        />
      ) : null}
    </>
  )
}
