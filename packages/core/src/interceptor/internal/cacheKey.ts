import { createHash } from "node:crypto"
import type { ModelApi } from "../../result/ModelCall.js"
import type { JsonRecord } from "./json.js"

/**
 * Request members that say how an answer is delivered or who asked, never what the model answers: left out of
 * a cached answer's key. `stream` is left out too, but a streamed answer is stored as the stream's bytes, so the
 * key names the delivery apart (see `cacheKeyOf`).
 */
export const IGNORED_MEMBERS: ReadonlySet<string> = new Set([
  "stream",
  "stream_options",
  "user",
  "metadata",
  "safety_identifier",
  "prompt_cache_key",
])

/** The version of the key's derivation: bumping it makes every stored answer a miss. */
const KEY_VERSION = "proctor-response-cache-1"

/** JSON with every object's keys sorted, so two requests that differ only in key order write the same text. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const record = value as JsonRecord
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    return `{${members.join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

export interface CacheKeyParts {
  readonly api: ModelApi
  /** The upstream's origin and path for this API: the same request to another server is another answer. */
  readonly upstream: string
  /** A rollout's attempt: attempts of one seed stay independent samples, each replayed as it was first answered. */
  readonly attempt: number
  /** The request body as the client sent it, parsed. */
  readonly request: JsonRecord
  /** True for a streamed answer (stored as its events), false for a JSON one. */
  readonly stream: boolean
}

/**
 * The key of a cached answer: SHA-256 of the normalised request (key order, `IGNORED_MEMBERS`) with the API, the
 * upstream URL, the attempt and the delivery. The upstream's key is not part of it: a key changes who pays, not
 * what the model answers, and the store must hold nothing derived from one.
 */
export const cacheKeyOf = (parts: CacheKeyParts): string => {
  const kept: JsonRecord = {}
  for (const key of Object.keys(parts.request)) if (!IGNORED_MEMBERS.has(key)) kept[key] = parts.request[key]
  return createHash("sha256")
    .update(KEY_VERSION)
    .update("\n")
    .update(canonical({ api: parts.api, upstream: parts.upstream, attempt: parts.attempt, stream: parts.stream }))
    .update("\n")
    .update(canonical(kept))
    .digest("hex")
}
