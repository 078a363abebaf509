import type { IncomingHttpHeaders } from "node:http"
import { Pool } from "undici"

/** An answer to a POST, read whole. */
export interface PostedAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
}

/** An interceptor running in this process, answering its own URLs' calls without an HTTP hop. */
export interface InProcessInterceptor {
  /** Null when `url` is not one of this interceptor's. */
  readonly callInProcess: (
    url: string,
    headers: IncomingHttpHeaders,
    body: string,
    signal: AbortSignal | undefined,
  ) => Promise<PostedAnswer> | null
}

const interceptors = new Set<InProcessInterceptor>()

/** From when an interceptor has its URL until it shuts down, calls in this process to that URL skip the socket. */
export const registerInProcess = (interceptor: InProcessInterceptor): (() => void) => {
  interceptors.add(interceptor)
  return () => interceptors.delete(interceptor)
}

/**
 * A keep-alive undici pool per origin (a model's API, another process's interceptor), not global `fetch`: no web
 * streams per call, about half the client's CPU a call — and a dataset eval makes one a row (two with a judge), at
 * thousands of rows.
 */
const pools = new Map<string, Pool>()
/** Each run serves its interceptor on a port of its own: a long-lived worker's older runs' pools are closed. */
const MAX_POOLS = 8

const poolOf = (origin: string): Pool => {
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

/**
 * POSTs a JSON body to a model URL and reads the answer whole. proctor's own callers (its prompt runner, built-in
 * agent and judges) call their rollout's interceptor, which usually runs in this same process: then the call goes
 * straight into it — the same proxying, limits and record, without a loopback socket, two HTTP parsers and the
 * bytes copied through the kernel twice a call. Any other URL goes over HTTP.
 */
export const postModel = async (
  url: string,
  headers: Record<string, string>,
  body: string,
  signal?: AbortSignal,
): Promise<PostedAnswer> => {
  for (const interceptor of interceptors) {
    const answer = interceptor.callInProcess(url, headers, body, signal)
    if (answer !== null) return answer
  }
  const target = new URL(url)
  const response = await poolOf(target.origin).request({
    path: `${target.pathname}${target.search}`,
    method: "POST",
    headers,
    body,
    signal,
  })
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() }
}
