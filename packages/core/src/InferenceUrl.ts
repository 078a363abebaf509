/**
 * Where a policy's `inference_url` points. Task apps receive a base URL in any of the shapes synth-ai's
 * backends hand out (`…/v1`, a bare host, a full `…/chat/completions`, a correlation id in the path or the
 * query) and must turn it into the chat-completions endpoint without losing the correlation id.
 */

const CORRELATION_PREFIXES = ["trace_", "cid_", "eval_"] as const
const CORRELATION_QUERY_KEYS = ["cid", "trace_correlation_id"] as const

const splitQuery = (url: string): readonly [path: string, query: string | null] => {
  const at = url.indexOf("?")
  return at === -1 ? [url, null] : [url.slice(0, at), url.slice(at + 1)]
}

/** `…/chat/completions` as is; `…/v1` + `/chat/completions`; anything else + `/v1/chat/completions`. */
export const chatCompletionsUrl = (inferenceUrl: string): string => {
  const [rawPath, query] = splitQuery(inferenceUrl.trim())
  const path = rawPath.replace(/\/+$/, "")
  const chatPath = path.endsWith("/chat/completions")
    ? path
    : path.endsWith("/v1")
      ? `${path}/chat/completions`
      : `${path}/v1/chat/completions`
  return query === null ? chatPath : `${chatPath}?${query}`
}

const hasCorrelationPrefix = (segment: string) => CORRELATION_PREFIXES.some((prefix) => segment.startsWith(prefix))

/** Path segments after the origin; a relative URL (`/v1/…`) is all path. */
const pathSegments = (path: string): ReadonlyArray<string> =>
  path
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
    .split("/")
    .filter((segment) => segment !== "")

/**
 * The correlation id an inference URL carries, read the way synth-ai's interceptor does: the path wins (the
 * last segment with a `trace_`/`cid_`/`eval_` prefix, normally the one before `chat/completions`), then the
 * `cid` or `trace_correlation_id` query parameter.
 */
export const correlationIdOf = (url: string): string | null => {
  const [rawPath, query] = splitQuery(url.trim())
  const segments = pathSegments(rawPath.split("#")[0] ?? "")
  const fromPath = segments.findLast(hasCorrelationPrefix)
  if (fromPath !== undefined) return fromPath
  if (query === null) return null
  const params = new URLSearchParams(query.split("#")[0])
  for (const key of CORRELATION_QUERY_KEYS) {
    const value = params.get(key)?.trim()
    if (value) return value
  }
  return null
}
