import { Pool } from "undici"

/**
 * A keep-alive undici pool per origin (a run's interceptor, a model's API), not global `fetch`: no web streams per
 * call, about half the client's CPU a call — and a dataset eval makes one a row (two with a judge), at thousands of
 * rows.
 */
const pools = new Map<string, Pool>()
/** Each run serves its interceptor on a port of its own: a long-lived worker's older runs' pools are closed. */
const MAX_POOLS = 8

export const poolOf = (origin: string): Pool => {
  let pool = pools.get(origin)
  if (pool === undefined) {
    for (const [oldest, old] of pools) {
      if (pools.size < MAX_POOLS) break
      pools.delete(oldest)
      void old.close()
    }
    pool = new Pool(origin)
    pools.set(origin, pool)
  }
  return pool
}
