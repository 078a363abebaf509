import { useEffect, useState } from "preact/hooks"

export type View = "runs" | "summary" | "rollouts" | "rollout" | "compare" | "grid" | "jobs"

/**
 * Where the page is, from the URL fragment: `#/` summary (of several runs: their list; of a grid run: its grid),
 * `#/runs` the list of runs, `#/rollouts`, `#/rollouts/{seed}/{attempt}`, `#/compare`, `#/grid`, `#/jobs`; `?run=I`
 * (for compare `a`, `b`, `seed`; for the grid `a`, `b`, `sort`, `desc`, `flips`) after the path. On the job server a job's
 * views sit under `#/jobs/{id}`: `#/jobs/{id}/rollouts/{seed}/{attempt}`.
 */
export interface Route {
  readonly view: View
  readonly job: string | null
  readonly seed: number | null
  readonly attempt: number | null
  readonly params: URLSearchParams
}

const integerOrNull = (text: string | undefined): number | null =>
  text !== undefined && /^-?\d+$/.test(text) ? Number(text) : null

export const parseRoute = (hash: string): Route => {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?", 2)
  let parts = path.split("/").filter((part) => part !== "")
  let job: string | null = null
  if (parts[0] === "jobs") {
    if (parts.length === 1)
      return { view: "jobs", job: null, seed: null, attempt: null, params: new URLSearchParams(query) }
    job = decodeURIComponent(parts[1]!)
    parts = parts.slice(2)
  }
  const params = new URLSearchParams(query)
  const [first, seed, attempt] = parts
  if (first === "rollouts" && seed !== undefined) {
    return { view: "rollout", job, seed: integerOrNull(seed), attempt: integerOrNull(attempt) ?? 0, params }
  }
  const view: View =
    first === "rollouts" || first === "compare" || first === "runs" || first === "grid" ? first : "summary"
  return { view, job, seed: null, attempt: null, params }
}

/** The fragment of a view, kept under the open job when there is one. */
export const href = (
  route: { readonly job: string | null },
  path: string,
  params?: Record<string, string | number>,
): string => {
  const query =
    params === undefined ? "" : `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`
  const prefix = route.job === null ? "#" : `#/jobs/${encodeURIComponent(route.job)}`
  return `${prefix}${path}${query}`
}

export const useRoute = (): Route => {
  const [hash, setHash] = useState(location.hash)
  useEffect(() => {
    const onChange = () => setHash(location.hash)
    addEventListener("hashchange", onChange)
    return () => removeEventListener("hashchange", onChange)
  }, [])
  return parseRoute(hash)
}
