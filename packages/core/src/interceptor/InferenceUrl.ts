import type { ModelApi } from "../result/ModelCall.js"

/**
 * Model URLs, in one place. Where a policy's `inference_url` points: task apps receive a base URL in any of the
 * shapes synth-ai's backends hand out (`…/v1`, a bare host, a full `…/chat/completions`, a correlation id in the
 * path or the query) and must turn it into the chat-completions endpoint without losing the correlation id. And
 * where the interceptor sends each API of an upstream base URL, and which provider that base URL is.
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

const ENDPOINT_SUFFIXES = ["/chat/completions", "/responses", "/messages"] as const

const ENDPOINT_PATH: Record<Exclude<ModelApi, "chat_completions">, string> = {
  responses: "/responses",
  messages: "/messages",
}

/**
 * The upstream URL of one API for an upstream base URL. Chat follows the synth-ai rule
 * (`chatCompletionsUrl`); the Responses and Messages APIs use the same shape: a base ending in `/v1` gets
 * `/responses` | `/messages`, anything else `/v1/…`. A base that already names an endpoint is reduced to its
 * base first, and the base's query string is kept (some gateways carry a version or key there).
 */
export const upstreamUrl = (baseUrl: string, api: ModelApi): string => {
  if (api === "chat_completions") return chatCompletionsUrl(baseUrl)
  const [rawPath, query] = splitQuery(baseUrl.trim())
  let path = rawPath.replace(/\/+$/, "")
  const suffix = ENDPOINT_SUFFIXES.find((candidate) => path.endsWith(candidate))
  if (suffix !== undefined) path = path.slice(0, -suffix.length)
  const endpoint = ENDPOINT_PATH[api]
  const full = path.endsWith("/v1") ? `${path}${endpoint}` : `${path}/v1${endpoint}`
  return query === null ? full : `${full}?${query}`
}

const PROVIDER_BY_HOST: Readonly<Record<string, string>> = {
  "api.openai.com": "openai",
  "api.anthropic.com": "anthropic",
  "api.groq.com": "groq",
  "generativelanguage.googleapis.com": "google",
}

/** The provider behind a well-known API host; null for anything else (a local model, a gateway). */
export const inferProvider = (baseUrl: string): string | null => {
  try {
    return PROVIDER_BY_HOST[new URL(baseUrl).hostname.toLowerCase()] ?? null
  } catch {
    return null
  }
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
