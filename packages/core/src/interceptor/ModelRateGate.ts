import { createHash } from "node:crypto"
import {
  admit,
  charge,
  emptyRateState,
  type ModelRateLimit,
  NO_LIMIT,
  type RateState,
  rateLimited,
} from "./internal/rateArithmetic.js"

export type { ModelRateLimit } from "./internal/rateArithmetic.js"

/**
 * The gate the interceptor asks before it forwards a model call, and tells of every 429. Plain callbacks, no
 * Effect: it sits on the proxy's per-call path. `localRateGate` keeps its state in this process;
 * `@proctor/server`'s `redisRateGate` shares it between every process that calls the upstream.
 */
export interface ModelRateGate {
  /** The gate of one upstream base URL called with one key: every call made with both shares its state. */
  readonly upstream: (baseUrl: string, apiKey: string | null) => GatedUpstream
  /** Lets go of what the gate holds (a Redis connection); calls still waiting are sent. */
  readonly close: () => Promise<void>
}

export interface GatedUpstream {
  /**
   * Calls `go` once the call may be sent (synchronously when nothing holds it back) with the time it was
   * admitted on the gate's clock, to give back with a 429. Never drops a call: a gate whose shared state is
   * out of reach admits by this process's state alone.
   */
  readonly admit: (go: (admittedAt: number) => void) => void
  /** The call admitted at `admittedAt` was answered 429, asking to wait `retryAfterMs` (null: it did not say). */
  readonly rateLimited: (admittedAt: number, retryAfterMs: number | null) => void
  /** A finished call used this many tokens (counted against a configured tokens/min). */
  readonly spent: (tokens: number) => void
  /**
   * How long after its start a call answered 429 is retried by the interceptor itself (admitted again, so it
   * waits out `Retry-After`) before a 429 reaches the caller; 0: every 429 is passed on at once.
   */
  readonly retryWithinMs: number
}

/** Configured limits of one upstream, by its base URL (`https://api.openai.com/v1`). */
export interface ModelRateLimitRule extends ModelRateLimit {
  readonly baseUrl: string
}

/** A 429 is retried by the interceptor for up to 5 minutes, where rate limiting is on (see `retryWithinMs`). */
export const RATE_LIMIT_RETRY_MS = 5 * 60_000

export const isLimited = (limit: ModelRateLimit): boolean =>
  limit.requestsPerMinute !== null || limit.tokensPerMinute !== null

const normalBaseUrl = (baseUrl: string) => baseUrl.trim().replace(/\/+$/, "")

/** The configured limit of an upstream base URL; trailing slashes do not count. */
export const limitFor = (rules: ReadonlyArray<ModelRateLimitRule>, baseUrl: string): ModelRateLimit => {
  const wanted = normalBaseUrl(baseUrl)
  return rules.find((rule) => normalBaseUrl(rule.baseUrl) === wanted) ?? NO_LIMIT
}

/**
 * Names the state of an upstream and key: a hash, so a key never reaches a shared store (Redis) in clear, and
 * two keys (two accounts, two budgets) are limited apart.
 */
export const upstreamId = (baseUrl: string, apiKey: string | null): string =>
  createHash("sha256")
    .update(normalBaseUrl(baseUrl))
    .update("\n")
    .update(apiKey ?? "")
    .digest("hex")
    .slice(0, 32)

const SPEC_FORM = "expected <base URL>=<N>rpm[,<N>tpm], e.g. https://api.openai.com/v1=500rpm,200000tpm"

/**
 * One configured limit as written in `--model-rate-limit` and `PROCTOR_MODEL_RATE_LIMITS`:
 * `<base URL>=<N>rpm`, `<base URL>=<N>tpm` or both, comma-separated. A string on error, saying what is wrong.
 */
export const parseModelRateLimit = (spec: string): ModelRateLimitRule | string => {
  const at = spec.lastIndexOf("=")
  if (at === -1) return `model rate limit ${JSON.stringify(spec)}: ${SPEC_FORM}`
  const baseUrl = spec.slice(0, at).trim()
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    return `model rate limit ${JSON.stringify(spec)}: ${JSON.stringify(baseUrl)} is not an http(s) URL; ${SPEC_FORM}`
  }
  let requestsPerMinute: number | null = null
  let tokensPerMinute: number | null = null
  for (const part of spec.slice(at + 1).split(",")) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(rpm|tpm)\s*$/i.exec(part)
    const value = match === null ? 0 : Number(match[1])
    if (match === null || !(value > 0)) {
      return `model rate limit ${JSON.stringify(spec)}: ${JSON.stringify(part)} is not a positive <N>rpm or <N>tpm; ${SPEC_FORM}`
    }
    if (match[2]!.toLowerCase() === "rpm") requestsPerMinute = value
    else tokensPerMinute = value
  }
  return { baseUrl, requestsPerMinute, tokensPerMinute }
}

/** The limits of `PROCTOR_MODEL_RATE_LIMITS`: specs separated by whitespace (URLs hold none). */
export const parseModelRateLimits = (text: string): ReadonlyArray<ModelRateLimitRule> | string => {
  const rules: Array<ModelRateLimitRule> = []
  for (const spec of text.split(/\s+/).filter((s) => s !== "")) {
    const rule = parseModelRateLimit(spec)
    if (typeof rule === "string") return rule
    rules.push(rule)
  }
  return rules
}

export interface LocalRateGateOptions {
  readonly limits?: ReadonlyArray<ModelRateLimitRule> | undefined
  /** The gate's clock and timer; tests give their own. */
  readonly now?: (() => number) | undefined
  readonly schedule?: ((go: () => void, ms: number) => void) | undefined
}

const scheduleTimer = (go: () => void, ms: number) => void setTimeout(go, ms)

/**
 * The in-process gate: holds this process's calls to an upstream after a 429 until its `Retry-After` has
 * passed, adapts to 429s and spaces calls by configured limits (`rateArithmetic`). An upstream without a
 * configured limit passes its 429s on to the caller, as the interceptor always did.
 */
export const localRateGate = (options: LocalRateGateOptions = {}): ModelRateGate => {
  const limits = options.limits ?? []
  const now = options.now ?? Date.now
  const schedule = options.schedule ?? scheduleTimer
  const states = new Map<string, RateState>()
  return {
    upstream: (baseUrl, apiKey) => {
      const id = upstreamId(baseUrl, apiKey)
      let state = states.get(id)
      if (state === undefined) {
        state = emptyRateState()
        states.set(id, state)
      }
      const own = state
      const limit = limitFor(limits, baseUrl)
      return {
        admit: (go) => {
          const at = now()
          const slot = admit(own, at, limit)
          if (slot <= at) go(at)
          else schedule(() => go(at), slot - at)
        },
        rateLimited: (admittedAt, retryAfterMs) => rateLimited(own, now(), admittedAt, retryAfterMs),
        spent: (tokens) => charge(own, now(), limit, tokens),
        retryWithinMs: isLimited(limit) ? RATE_LIMIT_RETRY_MS : 0,
      }
    },
    close: async () => {},
  }
}
