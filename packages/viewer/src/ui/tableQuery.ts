import type { RolloutRow } from "../apiShapes.js"

export type StatusFilter = "all" | "ok" | "error" | "passed" | "wrong"

export type SortKey =
  | "task_id"
  | "seed"
  | "attempt"
  | "status"
  | "score"
  | "error_kind"
  | "latency_ms"
  | "tokens"
  | "cost_usd"
  | "calls"
  | "turns"
  | "messages"
  | "stop_reason"
  | "retries"

export interface TableQuery {
  readonly status: StatusFilter
  /** "" for any kind. */
  readonly errorKind: string
  readonly minScore: number | null
  readonly maxScore: number | null
  readonly search: string
  readonly sort: SortKey
  readonly descending: boolean
}

export const initialQuery: TableQuery = {
  status: "all",
  errorKind: "",
  minScore: null,
  maxScore: null,
  search: "",
  sort: "seed",
  descending: false,
}

const keep = (query: TableQuery) => {
  const needle = query.search.trim().toLowerCase()
  const seedNeedle = /^\d+$/.test(needle) ? Number(needle) : null
  return (row: RolloutRow): boolean => {
    switch (query.status) {
      case "ok":
      case "error":
        if (row.status !== query.status) return false
        break
      case "passed":
        if (row.passed !== true) return false
        break
      case "wrong":
        // A wrong answer: the rollout ran and scored below the threshold. Errors are not wrong answers.
        if (row.passed !== false) return false
        break
    }
    if (query.errorKind !== "" && row.error_kind !== query.errorKind) return false
    if (query.minScore !== null && !(row.score !== null && row.score >= query.minScore)) return false
    if (query.maxScore !== null && !(row.score !== null && row.score <= query.maxScore)) return false
    if (needle !== "") {
      const found =
        row.seed === seedNeedle ||
        (row.task_id !== null && String(row.task_id).toLowerCase().includes(needle)) ||
        (row.error_kind?.includes(needle) ?? false) ||
        (row.error?.toLowerCase().includes(needle) ?? false)
      if (!found) return false
    }
    return true
  }
}

/** Missing values sort last whichever the direction: a table sorted by cost starts with priced rollouts. */
const compareBy = (key: SortKey, descending: boolean) => {
  const sign = descending ? -1 : 1
  return (a: RolloutRow, b: RolloutRow): number => {
    const x = a[key]
    const y = b[key]
    if (x === y) return a.seed - b.seed || a.attempt - b.attempt
    if (x === null) return 1
    if (y === null) return -1
    return (x < y ? -1 : 1) * sign
  }
}

/** The indexes of the rows the query keeps, in its order (rows themselves are never copied). */
export const queryRows = (rows: ReadonlyArray<RolloutRow>, query: TableQuery): Array<number> => {
  const kept = keep(query)
  const out: Array<number> = []
  for (let i = 0; i < rows.length; i++) if (kept(rows[i]!)) out.push(i)
  const compare = compareBy(query.sort, query.descending)
  // Journal order is seed order for most runs; skip the sort when nothing would move.
  if (!(query.sort === "seed" && !query.descending && isSeedOrdered(rows))) {
    out.sort((i, j) => compare(rows[i]!, rows[j]!))
  }
  return out
}

const isSeedOrdered = (rows: ReadonlyArray<RolloutRow>): boolean => {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!
    const b = rows[i]!
    if (a.seed > b.seed || (a.seed === b.seed && a.attempt > b.attempt)) return false
  }
  return true
}
