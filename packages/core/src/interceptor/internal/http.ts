import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http"
import type { ModelApi } from "../../result/ModelCall.js"
import type { InterceptedLimit } from "../Interceptor.js"
import type { ClientResponse } from "./ClientResponse.js"

/** Client headers that say something about the call itself; everything else stays between client and proxy. */
const FORWARDED = [
  "accept",
  "user-agent",
  "anthropic-version",
  "anthropic-beta",
  "openai-organization",
  "openai-project",
  "openai-beta",
]
const CLIENT_AUTH = ["authorization", "x-api-key", "api-key"]

export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01"

/**
 * Headers for the upstream request. A configured key replaces whatever the task app sent (it may hold a
 * placeholder); without one the task app's own credentials are forwarded untouched. Compression is refused
 * so streams can be read on the side.
 */
export const upstreamHeaders = (
  incoming: IncomingHttpHeaders,
  api: ModelApi,
  apiKey: string | null,
): Record<string, string> => {
  const headers: Record<string, string> = { "content-type": "application/json", "accept-encoding": "identity" }
  for (const name of FORWARDED) {
    const value = incoming[name]
    if (typeof value === "string") headers[name] = value
  }
  if (apiKey === null) {
    for (const name of CLIENT_AUTH) {
      const value = incoming[name]
      if (typeof value === "string") headers[name] = value
    }
  } else if (api === "messages") {
    headers["x-api-key"] = apiKey
    headers["anthropic-version"] ??= DEFAULT_ANTHROPIC_VERSION
  } else {
    headers.authorization = `Bearer ${apiKey}`
  }
  return headers
}

const passesThrough = (name: string): boolean =>
  name === "content-type" ||
  name === "retry-after" ||
  name === "retry-after-ms" ||
  name === "x-request-id" ||
  name === "request-id" ||
  name === "cache-control" ||
  name === "openai-processing-ms" ||
  name.startsWith("x-ratelimit-") ||
  name.startsWith("anthropic-ratelimit-")

/** Headers that describe the body's bytes: true only when those bytes are forwarded unchanged. */
const BODY_AS_IS = new Set(["content-length", "content-encoding"])

/**
 * Upstream response headers the task app may act on: the content type, `retry-after` and rate-limit
 * budgets, request ids for support tickets. Hop-by-hop headers and cookies stay behind.
 */
export const clientHeaders = (upstream: IncomingHttpHeaders, bodyAsIs: boolean): OutgoingHttpHeaders => {
  const headers: OutgoingHttpHeaders = {}
  for (const name in upstream) {
    const value = upstream[name]
    if (value !== undefined && (passesThrough(name) || (bodyAsIs && BODY_AS_IS.has(name)))) {
      headers[name] = value
    }
  }
  return headers
}

/** OpenAI's error shape, which the Anthropic SDK reads as well (both look at `error.message`). */
export const errorBody = (message: string, type: string, code: string): string =>
  JSON.stringify({ error: { message, type, param: null, code } })

export const sendError = (res: ClientResponse, status: number, message: string, type: string, code: string): void => {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const body = errorBody(message, type, code)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

/**
 * The answer to a call over the rollout's budget, in the API's own error shape so the agent's client reads it as an
 * error (OpenAI's for chat completions and responses, Anthropic's for messages), with proctor's type and code.
 */
export const sendLimitError = (res: ClientResponse, api: ModelApi, code: InterceptedLimit, message: string) => {
  const error = { type: "proctor_limit", code, message }
  const body = JSON.stringify(
    api === "messages" ? { type: "error", error } : { error: { message, type: error.type, param: null, code } },
  )
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}
