import { useMemo, useRef } from "preact/hooks"
import type { RolloutRow } from "../apiShapes.js"
import { duration, fixed, grouped, integer, MISSING, usd } from "./format.js"
import { queryRows, type SortKey, type StatusFilter, type TableQuery } from "./tableQuery.js"
import { useVirtualizer } from "./useVirtualizer.js"

const ROW_HEIGHT = 30

interface Column {
  readonly key: SortKey | "error"
  /** Its track in the row's grid. */
  readonly width: string
  readonly label: string
  readonly render: (row: RolloutRow) => string
}

const COLUMNS: ReadonlyArray<Column> = [
  {
    key: "task_id",
    width: "140px",
    label: "task",
    render: (row) => (row.task_id === null ? MISSING : String(row.task_id)),
  },
  { key: "seed", width: "72px", label: "seed", render: (row) => String(row.seed) },
  { key: "attempt", width: "88px", label: "attempt", render: (row) => String(row.attempt) },
  {
    key: "status",
    width: "76px",
    label: "status",
    render: (row) =>
      row.status === "error" ? "error" : row.passed === false ? "wrong" : row.passed === true ? "passed" : "ok",
  },
  { key: "score", width: "70px", label: "score", render: (row) => fixed(row.score, 4) },
  {
    key: "stop_reason",
    width: "100px",
    label: "stopped by",
    render: (row) => row.stop_reason?.replace(/_/g, " ") ?? "",
  },
  { key: "latency_ms", width: "84px", label: "latency", render: (row) => duration(row.latency_ms) },
  { key: "tokens", width: "76px", label: "tokens", render: (row) => integer(row.tokens) },
  { key: "cost_usd", width: "76px", label: "cost", render: (row) => usd(row.cost_usd) },
  { key: "calls", width: "56px", label: "calls", render: (row) => String(row.calls) },
  { key: "turns", width: "60px", label: "turns", render: (row) => (row.turns === null ? MISSING : String(row.turns)) },
  {
    key: "messages",
    width: "84px",
    label: "messages",
    render: (row) => (row.messages === null ? MISSING : String(row.messages)),
  },
  { key: "retries", width: "76px", label: "retries", render: (row) => String(row.retries) },
  { key: "error_kind", width: "110px", label: "error kind", render: (row) => row.error_kind ?? "" },
  { key: "error", width: "minmax(200px, 1fr)", label: "error", render: (row) => row.error ?? "" },
]

/** Columns only some runs fill (a library run's task ids, an agent's stop reasons and messages) show when they do. */
const OPTIONAL: ReadonlyArray<keyof RolloutRow> = ["task_id", "stop_reason", "messages"]

const columnsFor = (rows: ReadonlyArray<RolloutRow>): ReadonlyArray<Column> => {
  const filled = new Set(OPTIONAL.filter((key) => rows.some((row) => row[key] !== null)))
  return COLUMNS.filter((column) => !OPTIONAL.includes(column.key as keyof RolloutRow) || filled.has(column.key))
}

const STATUSES: ReadonlyArray<[StatusFilter, string]> = [
  ["all", "all"],
  ["ok", "ran (ok)"],
  ["passed", "passed"],
  ["wrong", "wrong answers"],
  ["error", "errors"],
]

const numberOrNull = (text: string): number | null =>
  text.trim() === "" || !Number.isFinite(Number(text)) ? null : Number(text)

export interface RolloutTableProps {
  readonly rows: ReadonlyArray<RolloutRow>
  /** Changes whenever `rows` grew, so the query is run again. */
  readonly version: number
  readonly complete: boolean
  readonly query: TableQuery
  readonly onQuery: (query: TableQuery) => void
  readonly rolloutHref: (row: RolloutRow) => string
}

/** Every rollout of a run, virtualized (TanStack Virtual): 100,000 rows keep ~40 in the DOM. */
export const RolloutTable = ({ rows, version, complete, query, onQuery, rolloutHref }: RolloutTableProps) => {
  const order = useMemo(() => queryRows(rows, query), [rows, version, query])
  const columns = useMemo(() => columnsFor(rows), [rows, version])
  // The rollout's link is its first column: its task id where it has one, else its seed.
  const linked = columns[0]!.key
  const tracks = columns.map((column) => column.width).join(" ")
  const errorKinds = useMemo(() => {
    const kinds = new Set<string>()
    for (const row of rows) if (row.error_kind !== null) kinds.add(row.error_kind)
    return Array.from(kinds).sort()
  }, [rows, version])
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer(order.length, ROW_HEIGHT, scroller)
  const set = (change: Partial<TableQuery>) => onQuery({ ...query, ...change })
  const sortBy = (key: SortKey) => set({ sort: key, descending: query.sort === key ? !query.descending : false })

  return (
    <section class="table-view" aria-label="rollouts">
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select
            data-testid="filter-status"
            value={query.status}
            onChange={(event) => set({ status: event.currentTarget.value as StatusFilter })}
          >
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Error kind
          <select
            data-testid="filter-error-kind"
            value={query.errorKind}
            onChange={(event) => set({ errorKind: event.currentTarget.value })}
          >
            <option value="">any</option>
            {errorKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        </label>
        <label>
          Score ≥
          <input
            data-testid="filter-min-score"
            type="number"
            step="any"
            value={query.minScore ?? ""}
            onInput={(event) => set({ minScore: numberOrNull(event.currentTarget.value) })}
          />
        </label>
        <label>
          Score ≤
          <input
            data-testid="filter-max-score"
            type="number"
            step="any"
            value={query.maxScore ?? ""}
            onInput={(event) => set({ maxScore: numberOrNull(event.currentTarget.value) })}
          />
        </label>
        <label class="search">
          Search
          <input
            data-testid="filter-search"
            type="search"
            placeholder="seed, task, error…"
            value={query.search}
            onInput={(event) => set({ search: event.currentTarget.value })}
          />
        </label>
        <output data-testid="rollout-count" data-count={rows.length}>
          {grouped(order.length)} of {grouped(rows.length)} rollouts
          {complete ? "" : " (loading…)"}
        </output>
      </form>
      <div class="grid-body" ref={scroller} data-testid="rollout-table">
        <table class="grid" aria-label="rollout table" aria-rowcount={order.length + 1}>
          <thead>
            <tr class="grid-row grid-head" style={{ gridTemplateColumns: tracks }}>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  class={`cell col-${column.key}`}
                  aria-sort={query.sort === column.key ? (query.descending ? "descending" : "ascending") : "none"}
                >
                  {column.key === "error" ? (
                    column.label
                  ) : (
                    <button type="button" onClick={() => sortBy(column.key as SortKey)}>
                      {column.label}
                      {query.sort === column.key ? (query.descending ? " ▼" : " ▲") : ""}
                    </button>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody style={{ height: `${virtualizer.getTotalSize()}px` }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[order[item.index]!]!
              const open = () => {
                location.hash = rolloutHref(row)
              }
              return (
                <tr
                  key={item.key}
                  onClick={open}
                  onKeyDown={(event) => event.key === "Enter" && open()}
                  class={`grid-row status-${row.status}${row.passed === false ? " wrong" : ""}`}
                  data-testid="rollout-row"
                  data-seed={row.seed}
                  data-task={row.task_id ?? undefined}
                  data-attempt={row.attempt}
                  data-status={row.status}
                  aria-rowindex={item.index + 2}
                  style={{
                    transform: `translateY(${item.start}px)`,
                    height: `${ROW_HEIGHT}px`,
                    gridTemplateColumns: tracks,
                  }}
                >
                  {columns.map((column) => (
                    <td
                      key={column.key}
                      class={`cell col-${column.key}`}
                      title={column.key === "error" ? (row.error ?? undefined) : undefined}
                    >
                      {/* The first cell is a link: the keyboard's way in, and "open in a new tab". */}
                      {column.key === linked ? <a href={rolloutHref(row)}>{column.render(row)}</a> : column.render(row)}
                    </td>
                  ))}
                </tr>
              )
            })}
          </tbody>
        </table>
        {order.length === 0 ? (
          <p class="empty">
            {rows.length === 0 ? (complete ? "No rollouts yet." : "Loading…") : "No rollout matches these filters."}
          </p>
        ) : null}
      </div>
    </section>
  )
}
