import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"
import { Redacted } from "effect"
import { Pool } from "undici"
import { type PostedAnswer, registerInProcess } from "../../internal/modelPost.js"
import { randomHex } from "../../internal/randomHex.js"
import type { ModelApi, ModelCall, TokenUsage } from "../../result/ModelCall.js"
import { correlationIdOf, inferProvider, upstreamUrl } from "../InferenceUrl.js"
import type { InterceptedRollout, InterceptorOpenOptions } from "../Interceptor.js"
import { InterceptorError } from "../InterceptorError.js"
import type { GatedUpstream, ModelRateGate } from "../ModelRateGate.js"
import type { ApiAdapter } from "./ApiAdapter.js"
import { type ClientResponse, InProcessResponse } from "./ClientResponse.js"
import { chatCompletionsAdapter } from "./chatCompletions.js"
import { sendError } from "./http.js"
import { messagesAdapter } from "./messages.js"
import { ProxyCall } from "./ProxyCall.js"
import { ResponseStore } from "./ResponseStore.js"
import { responsesAdapter } from "./responses.js"
import type { Recorder, Session, Target } from "./Session.js"

/** Deadline for upstream headers and for each gap between body chunks, unless told otherwise. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10 * 60 * 1000

export type PriceCall = (provider: string | null, model: string | null, usage: TokenUsage | null) => number | null

export interface CoreOptions {
  readonly baseUrl: string | null
  readonly priceCall: PriceCall
  readonly publish: (call: ModelCall) => void
  readonly upstreamTimeoutMs: number
  readonly connectionsPerOrigin: number | null
  /** Asked before every call is forwarded; owned by the caller (closed by whoever made it). */
  readonly rateGate: ModelRateGate
  /** The response cache's directory; null: every call goes upstream. */
  readonly cacheDir: string | null
}

const APIS: ReadonlyArray<ModelApi> = ["chat_completions", "responses", "messages"]

const adapterFor = (path: string): ApiAdapter | null => {
  const end = path.length - (path.endsWith("/") ? 1 : 0)
  const trimmed = end === path.length ? path : path.slice(0, end)
  if (trimmed.endsWith("/chat/completions")) return chatCompletionsAdapter
  if (trimmed.endsWith("/responses")) return responsesAdapter
  if (trimmed.endsWith("/messages")) return messagesAdapter
  return null
}

/** The interceptor's own URLs lead with the id (`/cid_…/v1/…`); anything else goes through the general rule. */
const cidOf = (url: string, path: string): string | null => {
  if (path.startsWith("/cid_")) {
    const end = path.indexOf("/", 1)
    return end === -1 ? path.slice(1) : path.slice(1, end)
  }
  return correlationIdOf(url)
}

const unknownId = (cid: string | null) =>
  cid === null
    ? "no correlation id in the inference URL (expected /cid_…/v1/… or ?cid=…)"
    : `correlation id ${cid} is not open: inference URLs are valid only while their rollout runs`

/**
 * The interceptor's state and HTTP handling, free of Effect so the per-call path is plain callbacks:
 * open rollouts by correlation id, one keep-alive pool per upstream origin, and the record of each call.
 */
export class InterceptorCore implements Recorder {
  private readonly sessions = new Map<string, Session>()
  private readonly targets = new Map<string, Target>()
  private readonly pools = new Map<string, Pool>()
  /** Each upstream and key's gate, asked once: naming one hashes the key, a cost per rollout otherwise. */
  private readonly gates = new Map<string, GatedUpstream>()
  private publicBase: string | null = null
  private unregister: (() => void) | null = null
  readonly cache: ResponseStore | null
  private readonly writes = new Set<Promise<void>>()

  constructor(private readonly options: CoreOptions) {
    if (options.baseUrl !== null) this.setBaseUrl(options.baseUrl)
    this.cache = options.cacheDir === null ? null : new ResponseStore(options.cacheDir)
  }

  pending(write: Promise<void>): void {
    const settled = write.then(
      () => undefined,
      () => undefined,
    )
    this.writes.add(settled)
    void settled.then(() => this.writes.delete(settled))
  }

  setBaseUrl(url: string): void {
    this.publicBase = url.trim().replace(/\/+$/, "")
    this.unregister ??= registerInProcess(this)
  }

  baseUrl(): string | null {
    return this.publicBase
  }

  openRollouts(): number {
    return this.sessions.size
  }

  inFlight(): number {
    let count = 0
    for (const session of this.sessions.values()) count += session.inFlight.size
    return count
  }

  open(request: InterceptorOpenOptions): InterceptedRollout | InterceptorError {
    if (this.publicBase === null) {
      return new InterceptorError({
        reason: "NotListening",
        message: "the interceptor has no public URL yet: start its server (or call setBaseUrl) before opening rollouts",
      })
    }
    const target = this.targetFor(request.upstream.baseUrl)
    if (target instanceof InterceptorError) return target
    const cid = `cid_${randomHex(16)}`
    const given = request.upstream.apiKey ? Redacted.value(request.upstream.apiKey) : null
    const key = given === "" ? null : given
    const provider = request.upstream.provider
    this.sessions.set(cid, {
      cid,
      runId: request.runId,
      rolloutId: request.rolloutId,
      seed: request.seed,
      attempt: request.attempt,
      target,
      apiKey: key,
      provider: provider === undefined || provider === null || provider === "" ? target.inferredProvider : provider,
      judgeOf: request.judge?.grader ?? null,
      gate: this.gateFor(request.upstream.baseUrl, key),
      started: 0,
      calls: [],
      inFlight: new Set(),
      open: true,
      budget: request.budget ?? null,
      spentTokens: 0,
      spentUsd: 0,
      limitReached: null,
    })
    return { cid, inferenceUrl: `${this.publicBase}/${cid}/v1` }
  }

  /** Ends a rollout: calls still in flight are aborted and recorded as cancelled; the id is refused from now on. */
  close(cid: string): ReadonlyArray<ModelCall> {
    const session = this.sessions.get(cid)
    if (session === undefined) return []
    for (const call of [...session.inFlight]) call.cancel("rollout closed before the call finished", true)
    session.open = false
    this.sessions.delete(cid)
    // Indexed by start order, so sparse when calls were not kept: the holes are skipped.
    return session.calls.filter((call) => call !== undefined)
  }

  handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    this.route(req.url ?? "/", req.method ?? "?", req.headers, res, body)
  }

  /**
   * A call from this process to one of this interceptor's URLs, answered as `handle` answers it over HTTP (the
   * interceptor's tests hold the two alike); null when the URL is not this interceptor's.
   */
  callInProcess(
    url: string,
    headers: IncomingHttpHeaders,
    body: string,
    signal: AbortSignal | undefined,
  ): Promise<PostedAnswer> | null {
    const base = this.publicBase
    if (base === null || !url.startsWith(base) || url.charCodeAt(base.length) !== 47 /* "/" */) return null
    const res = new InProcessResponse(signal)
    const lower: IncomingHttpHeaders = {}
    for (const name in headers) lower[name.toLowerCase()] = headers[name]
    this.route(url.slice(base.length), "POST", lower, res, Buffer.from(body))
    return res.answer
  }

  private route(url: string, method: string, headers: IncomingHttpHeaders, res: ClientResponse, body: Buffer): void {
    try {
      const query = url.indexOf("?")
      const path = query === -1 ? url : url.slice(0, query)
      const cid = cidOf(url, path)
      const session = cid === null ? undefined : this.sessions.get(cid)
      if (session === undefined) {
        sendError(res, 404, unknownId(cid), "invalid_request_error", "unknown_correlation_id")
        return
      }
      const adapter = adapterFor(path)
      if (adapter === null) {
        sendError(
          res,
          404,
          `Unknown request URL: ${method} ${path.startsWith(`/${cid}`) ? path.slice(cid!.length + 1) || "/" : path}`,
          "invalid_request_error",
          "unknown_url",
        )
        return
      }
      if (method !== "POST") {
        sendError(res, 405, `${method} is not allowed here; use POST`, "invalid_request_error", "method_not_allowed")
        return
      }
      new ProxyCall(this, session, adapter, res).start(headers, body)
    } catch (error) {
      // A bug here must cost one request, not the server.
      sendError(
        res,
        500,
        `interceptor failed: ${(error as Error)?.message ?? String(error)}`,
        "server_error",
        "internal_error",
      )
    }
  }

  record(session: Session, slot: number, call: ModelCall): void {
    if (session.open) session.calls[slot] = call
    try {
      this.options.publish(call)
    } catch {
      // An observer's failure must not break the proxy; observers handle their own errors.
    }
  }

  price(provider: string | null, model: string | null, usage: TokenUsage | null): number | null {
    try {
      const cost = this.options.priceCall(provider, model, usage)
      return typeof cost === "number" && Number.isFinite(cost) ? cost : null
    } catch {
      return null
    }
  }

  /** Stops everything: in-flight calls are cancelled (and published), pools destroyed. */
  async shutdown(): Promise<void> {
    this.unregister?.()
    this.unregister = null
    for (const session of this.sessions.values()) {
      for (const call of [...session.inFlight]) call.cancel("interceptor shut down before the call finished", true)
      session.open = false
    }
    this.sessions.clear()
    this.targets.clear()
    this.gates.clear()
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)))
    // Answers already paid for are worth keeping: the cache writes in flight finish before the interceptor is gone.
    await Promise.all(this.writes)
  }

  private targetFor(baseUrl: string): Target | InterceptorError {
    const cached = this.targets.get(baseUrl)
    if (cached !== undefined) return cached
    let urls: Array<URL>
    try {
      urls = APIS.map((api) => new URL(upstreamUrl(baseUrl, api)))
    } catch {
      return new InterceptorError({
        reason: "InvalidUpstream",
        message: "the upstream base URL is not an absolute URL",
      })
    }
    const [chat, responses, messages] = urls as [URL, URL, URL]
    if (chat.protocol !== "http:" && chat.protocol !== "https:") {
      return new InterceptorError({
        reason: "InvalidUpstream",
        message: `the upstream base URL must be http(s), not ${chat.protocol}`,
      })
    }
    const target: Target = {
      origin: chat.origin,
      dispatcher: this.poolFor(chat.origin),
      paths: {
        chat_completions: chat.pathname + chat.search,
        responses: responses.pathname + responses.search,
        messages: messages.pathname + messages.search,
      },
      inferredProvider: inferProvider(baseUrl),
    }
    this.targets.set(baseUrl, target)
    return target
  }

  private gateFor(baseUrl: string, apiKey: string | null): GatedUpstream {
    const id = `${baseUrl}\n${apiKey ?? ""}`
    let gate = this.gates.get(id)
    if (gate === undefined) {
      gate = this.options.rateGate.upstream(baseUrl, apiKey)
      this.gates.set(id, gate)
    }
    return gate
  }

  private poolFor(origin: string): Pool {
    let pool = this.pools.get(origin)
    if (pool === undefined) {
      const timeout = this.options.upstreamTimeoutMs
      pool = new Pool(origin, {
        connections: this.options.connectionsPerOrigin,
        keepAliveTimeout: 30_000,
        // Per-request deadlines live in the transport, not in a timer per call.
        headersTimeout: timeout,
        bodyTimeout: timeout,
      })
      this.pools.set(origin, pool)
    }
    return pool
  }
}
