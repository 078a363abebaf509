/**
 * The grid page's state, kept in its URL (`#/grid?a=1&b=3&sort=2&desc=1&flips=only`) so that the back button from
 * a rollout returns to the matrix as it was left, and a link shows what its sender saw. Variants are named by their
 * run index.
 */
export interface GridQuery {
  /** The two variants picked to see the tasks that flip between them; null until picked. */
  readonly a: number | null
  readonly b: number | null
  /** Sorted by this variant's scores, or (null) by task. */
  readonly sort: number | null
  readonly descending: boolean
  /** Only the tasks that flip between `a` and `b`. */
  readonly flipsOnly: boolean
}

const runOrNull = (value: string | null): number | null =>
  value !== null && /^\d{1,6}$/.test(value) ? Number(value) : null

export const gridQueryOf = (params: URLSearchParams): GridQuery => ({
  a: runOrNull(params.get("a")),
  b: runOrNull(params.get("b")),
  sort: runOrNull(params.get("sort")),
  descending: params.get("desc") === "1",
  flipsOnly: params.get("flips") === "only",
})

/** The URL's parameters of a query, leaving out what is at its default. */
export const gridQueryParams = (query: GridQuery): Record<string, string | number> => ({
  ...(query.a === null ? {} : { a: query.a }),
  ...(query.b === null ? {} : { b: query.b }),
  ...(query.sort === null ? {} : { sort: query.sort }),
  ...(query.descending ? { desc: 1 } : {}),
  ...(query.flipsOnly ? { flips: "only" } : {}),
})
