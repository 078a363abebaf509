import { chatCompletionsUrl } from "./InferenceUrl.js"
import type { ModelApi } from "./ModelCall.js"

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
  const trimmed = baseUrl.trim()
  const at = trimmed.indexOf("?")
  const query = at === -1 ? null : trimmed.slice(at + 1)
  let path = (at === -1 ? trimmed : trimmed.slice(0, at)).replace(/\/+$/, "")
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
