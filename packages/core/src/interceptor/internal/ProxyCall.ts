import type { IncomingHttpHeaders } from "node:http"
import type { Dispatcher } from "undici"
import { headerValue } from "../../internal/headerValue.js"
import { isRecord } from "../../internal/isRecord.js"
import { randomHex } from "../../internal/randomHex.js"
import { parseRetryAfter } from "../../internal/retryAfter.js"
import type { ModelCall } from "../../result/ModelCall.js"
import { type ApiAdapter, type CallSummary, DROP, EMPTY_SUMMARY, type StreamAssembler, TOKEN } from "./ApiAdapter.js"
import { describeLimit, reachLimit, refusingLimit, refusingTurn, spend } from "./budget.js"
import type { ClientResponse } from "./ClientResponse.js"
import { cacheKeyOf } from "./cacheKey.js"
import { clientHeaders, sendError, sendLimitError, upstreamHeaders } from "./http.js"
import { withIncludeUsage } from "./includeUsage.js"
import { errorMessageOf, parseJson, stringOrNull } from "./json.js"
import type { StoredAnswer } from "./ResponseStore.js"
import type { Cancellable, Recorder, Session } from "./Session.js"
import { SseParser } from "./SseParser.js"

const PENDING = 0
const JSON_BODY = 1
const SSE = 2
const ERROR_BODY = 3

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"])

/** `,"usage":null` that every chunk carries once `include_usage` is on; a client that did not ask never saw it. */
const NULL_USAGE = /,\s*"usage"\s*:\s*null/g

const round = (ms: number) => Math.round(ms * 1000) / 1000

/** How long a 429 asks to wait: OpenAI's `retry-after-ms`, else `retry-after` (seconds or a date). */
const retryAfterOf = (headers: IncomingHttpHeaders): number | null => {
  const ms = Number(headerValue(headers["retry-after-ms"]))
  if (Number.isFinite(ms) && ms >= 0) return ms
  return parseRetryAfter(headerValue(headers["retry-after"]), Date.now()) ?? null
}

const tokensOf = (usage: CallSummary["usage"]): number =>
  usage === null ? 0 : (usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0))

const errorSnippet = (text: string): string => {
  const body = parseJson(text)
  if (isRecord(body) && (body.error !== undefined || body.message !== undefined)) {
    return errorMessageOf(body.error ?? body)
  }
  if (isRecord(body) && typeof body.detail === "string") return body.detail
  const trimmed = text.trim()
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed
}

class Cancelled extends Error {
  override readonly name = "Cancelled"
}

/** What a cached answer is replayed under: nothing upstream to pause or abort. */
const replayController = (): Dispatcher.DispatchController => ({
  aborted: false,
  paused: false,
  reason: null,
  abort: () => undefined,
  pause: () => undefined,
  resume: () => undefined,
})

/**
 * One model call: forwards the task app's request upstream on undici's dispatcher API (the handler gets the
 * response as it arrives, with pause/resume/abort and no stream objects in between) and writes every byte or
 * event to the task app as soon as it comes, reading usage and the answer on the side. Ends exactly once:
 * upstream finished, upstream failed, client left, or rollout closed.
 */
export class ProxyCall implements Dispatcher.DispatchHandler, Cancellable {
  private controller: Dispatcher.DispatchController | null = null
  private done = false
  private mode = PENDING
  private status: number | null = null
  private errorHeaders: IncomingHttpHeaders = {}
  private chunks: Buffer[] = []
  private sse: SseParser | null = null
  private assembler: StreamAssembler | null = null
  private outgoing = ""
  private ttftMs: number | null = null
  private paused = false
  private request: unknown = null
  private stream = false
  private model: string | null = null
  /** The interceptor added `include_usage`, so the usage chunk is read here and kept from the client. */
  private filter = false
  private readonly slot: number
  private upstreamRequest: Dispatcher.DispatchOptions | null = null
  /** When the rate gate admitted the request now upstream, on the gate's clock. */
  private admittedAt = 0
  /** The response cache's key for this request; null when the interceptor has no cache. */
  private cacheKey: string | null = null
  /** Answered from the cache: no upstream call was made. */
  private cached = false
  /** A fresh 2xx answer's bytes as the upstream sent them, kept to be stored in the cache when the call is ok. */
  private answerChunks: Buffer[] | null = null
  private answerContentType = ""
  private readonly startedAt = Date.now()
  private readonly t0 = performance.now()

  constructor(
    private readonly recorder: Recorder,
    private readonly session: Session,
    private readonly adapter: ApiAdapter,
    private readonly res: ClientResponse,
  ) {
    this.slot = session.started++
    session.inFlight.add(this)
    res.once("close", this.onClientClose)
  }

  start(headers: IncomingHttpHeaders, body: Buffer): void {
    const parsed = body.length === 0 ? undefined : parseJson(body.toString("utf8"))
    if (!isRecord(parsed)) {
      sendError(this.res, 400, "request body must be a JSON object", "invalid_request_error", "invalid_json")
      this.finish("error", 400, "request body is not a JSON object", EMPTY_SUMMARY)
      return
    }
    // The recorded request is what the model was asked, not how the answer was delivered.
    const { stream, stream_options: streamOptions, ...request } = parsed
    this.request = request
    this.stream = stream === true
    this.model = stringOrNull(parsed.model)
    let upstreamBody: Buffer | string = body
    if (
      this.stream &&
      this.adapter.api === "chat_completions" &&
      !(isRecord(streamOptions) && streamOptions.include_usage === true)
    ) {
      this.filter = true
      upstreamBody = withIncludeUsage(body, parsed)
    }
    // A call refused for its budget is no turn: the turn is counted only for a call that would be forwarded.
    const limit = refusingLimit(this.session) ?? refusingTurn(this.session)
    if (limit !== null) {
      // Over budget: the agent sees an error answer it can read, and the rollout ends with the limit as its reason.
      const message = describeLimit(this.session, limit)
      reachLimit(this.session, limit)
      sendLimitError(this.res, this.adapter.api, limit, message)
      this.finish("error", 400, `proctor_limit ${limit}: ${message}`, EMPTY_SUMMARY)
      return
    }
    if (this.res.destroyed) {
      // The client left while its body was read: nobody would receive the answer, so none is asked for.
      this.finish("cancelled", null, "client disconnected before the call started", EMPTY_SUMMARY)
      return
    }
    const { target, apiKey } = this.session
    const path = target.paths[this.adapter.api]
    this.upstreamRequest = {
      method: "POST",
      path,
      headers: upstreamHeaders(headers, this.adapter.api, apiKey),
      body: upstreamBody,
    }
    const cache = this.recorder.cache
    if (cache === null) {
      this.session.gate.admit(this.send)
      return
    }
    // The query is left out of the key: some providers take their key there.
    const query = path.indexOf("?")
    this.cacheKey = cacheKeyOf({
      api: this.adapter.api,
      upstream: target.origin + (query === -1 ? path : path.slice(0, query)),
      attempt: this.session.attempt,
      request: parsed,
      stream: this.stream,
    })
    cache.get(this.cacheKey).then(
      (hit) => (hit === null ? this.session.gate.admit(this.send) : this.replay(hit)),
      () => this.session.gate.admit(this.send),
    )
  }

  /**
   * Answers from the cache through the same handler an upstream answer goes through, so the client gets the bytes
   * (or events, filtered alike) it would have got, and usage and the answer are read the same way. The rate gate
   * is not asked: nothing goes upstream.
   */
  private replay(answer: StoredAnswer): void {
    if (this.done) return
    this.cached = true
    const controller = replayController()
    this.onRequestStart(controller)
    this.onResponseStart(controller, answer.status, { "content-type": answer.contentType })
    if (answer.body.length > 0) this.onResponseData(controller, answer.body)
    this.onResponseEnd()
  }

  /** Sends the request once the rate gate lets it go, unless the call ended while it waited. */
  private readonly send = (admittedAt: number): void => {
    if (this.done) return
    this.admittedAt = admittedAt
    this.session.target.dispatcher.dispatch(this.upstreamRequest!, this)
  }

  /**
   * A 429 tells the rate gate (so every call to this upstream slows down), then goes back through the gate
   * when its budget allows: the caller sees the later answer, not the 429. True when it was sent again.
   */
  private retryRateLimited(): boolean {
    const gate = this.session.gate
    const retryAfterMs = retryAfterOf(this.errorHeaders)
    gate.rateLimited(this.admittedAt, retryAfterMs)
    if (this.res.destroyed || Date.now() - this.startedAt + (retryAfterMs ?? 0) >= gate.retryWithinMs) return false
    this.mode = PENDING
    this.status = null
    this.errorHeaders = {}
    this.chunks = []
    this.answerChunks = null
    this.controller = null
    gate.admit(this.send)
    return true
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller
    // The client left (or the rollout closed) while the request waited for a connection.
    if (this.done) controller.abort(new Cancelled("cancelled before the upstream answered"))
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (this.done || statusCode < 200) return
    this.status = statusCode
    if (statusCode >= 300) {
      // Error bodies are small: held whole so a key echoed by the upstream can be scrubbed before it is sent.
      this.mode = ERROR_BODY
      this.errorHeaders = headers
      return
    }
    const contentType = headerValue(headers["content-type"]) ?? ""
    if (this.cacheKey !== null && !this.cached) {
      this.answerChunks = []
      this.answerContentType = contentType
    }
    if (contentType.toLowerCase().startsWith("text/event-stream")) {
      this.mode = SSE
      this.sse = new SseParser()
      this.assembler = this.adapter.assembler(this.filter)
      this.res.writeHead(statusCode, clientHeaders(headers, false))
      // The headers leave now, but with the first events when those come in the same read (as they usually
      // do): an empty write holds them in the socket's cork until the end of this tick, where `flushHeaders`
      // would spend a syscall on them alone.
      this.res.write("")
    } else {
      this.mode = JSON_BODY
      this.res.writeHead(statusCode, clientHeaders(headers, true))
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return
    this.answerChunks?.push(chunk)
    switch (this.mode) {
      case SSE:
        if (!this.filter) this.write(chunk)
        this.sse!.push(chunk, this.onEvent)
        this.flushOutgoing()
        return
      case JSON_BODY:
        this.write(chunk)
        this.chunks.push(chunk)
        return
      case ERROR_BODY:
        this.chunks.push(chunk)
        return
    }
  }

  onResponseEnd(): void {
    if (this.done) return
    switch (this.mode) {
      case SSE: {
        this.sse!.end(this.onEvent)
        this.flushOutgoing()
        this.res.end()
        const summary = this.assembler!.summary()
        this.finish(summary.error === null ? "ok" : "error", this.status, summary.error, summary)
        return
      }
      case JSON_BODY: {
        this.res.end()
        const chunks = this.chunks
        const body = parseJson((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8"))
        this.chunks = []
        if (body === undefined) {
          this.finish("error", this.status, "upstream answered with a body that is not JSON", EMPTY_SUMMARY)
          return
        }
        const summary = this.adapter.fromJson(body)
        this.finish(summary.error === null ? "ok" : "error", this.status, summary.error, summary)
        return
      }
      case ERROR_BODY: {
        if (this.status === 429 && this.retryRateLimited()) return
        const raw = Buffer.concat(this.chunks)
        this.chunks = []
        let text = raw.toString("utf8")
        const key = this.session.apiKey
        const scrub = key !== null && key !== "" && text.includes(key)
        if (scrub) text = text.replaceAll(key, "[redacted]")
        const status = this.status ?? 502
        this.res.writeHead(status, clientHeaders(this.errorHeaders, false))
        this.res.end(scrub ? text : raw)
        this.finish("error", status, `upstream answered ${status}: ${errorSnippet(text)}`, EMPTY_SUMMARY)
        return
      }
      default:
        this.onResponseError(null, new Error("upstream ended without a response"))
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    if (this.done) return
    const code = (error as { code?: unknown }).code
    const detail = typeof code === "string" ? code : error.message
    const origin = this.session.target.origin
    if (!this.res.headersSent) {
      const timeout = typeof code === "string" && TIMEOUT_CODES.has(code)
      const status = timeout ? 504 : 502
      const message = timeout
        ? `upstream ${origin} did not answer in time (${detail})`
        : `upstream ${origin} unreachable (${detail})`
      sendError(this.res, status, message, "upstream_error", timeout ? "upstream_timeout" : "upstream_unreachable")
      this.finish("error", status, message, EMPTY_SUMMARY)
      return
    }
    // Headers are out: the only honest signal left is to cut the connection, so the client sees a truncation.
    this.res.destroy()
    this.finish(
      "error",
      this.status,
      `upstream ${origin} failed mid-response (${detail})`,
      this.assembler?.summary() ?? EMPTY_SUMMARY,
    )
  }

  cancel(reason: string, cutClient: boolean): void {
    if (this.done) return
    this.finish("cancelled", this.status, reason, this.assembler?.summary() ?? EMPTY_SUMMARY)
    // Destroys the upstream request (its socket for HTTP/1): the model stops generating for nobody.
    this.controller?.abort(new Cancelled(reason))
    if (cutClient && !this.res.writableEnded) this.res.destroy()
  }

  private readonly onClientClose = (): void => {
    if (!this.done) this.cancel("client disconnected before the call finished", false)
  }

  private readonly onDrain = (): void => {
    this.paused = false
    if (!this.done) this.controller?.resume()
  }

  private readonly onEvent = (raw: string, name: string | null, data: string | null): void => {
    const flags = data === null ? 0 : this.assembler!.event(name, data)
    if ((flags & TOKEN) !== 0 && this.ttftMs === null) this.ttftMs = performance.now() - this.t0
    if (this.filter && (flags & DROP) === 0) this.outgoing += `${raw.replace(NULL_USAGE, "")}\n\n`
  }

  private flushOutgoing(): void {
    if (this.outgoing === "") return
    const out = this.outgoing
    this.outgoing = ""
    this.write(out)
  }

  private write(data: Buffer | string): void {
    if (!this.res.write(data) && !this.paused) {
      this.paused = true
      this.controller?.pause()
      this.res.once("drain", this.onDrain)
    }
  }

  private finish(outcome: ModelCall["outcome"], status: number | null, error: string | null, summary: CallSummary) {
    this.done = true
    const session = this.session
    session.inFlight.delete(this)
    const model = this.model ?? summary.model
    const provider = session.provider
    const usage = summary.usage
    const tokens = tokensOf(usage)
    if (tokens > 0 && !this.cached) session.gate.spent(tokens)
    const price = this.recorder.price(provider, model, usage)
    const cost = this.cached ? 0 : price
    const call: ModelCall = {
      call_id: `call_${randomHex(8)}`,
      run_id: session.runId,
      rollout_id: session.rolloutId,
      seed: session.seed,
      attempt: session.attempt,
      api: this.adapter.api,
      provider,
      model,
      stream: this.stream,
      request: this.request,
      response_message: summary.message ?? null,
      status,
      outcome,
      error,
      started_at: new Date(this.startedAt).toISOString(),
      completed_at: new Date().toISOString(),
      latency_ms: round(performance.now() - this.t0),
      ttft_ms: this.mode === SSE && this.ttftMs !== null ? round(this.ttftMs) : null,
      usage,
      finish_reason: summary.finishReason,
      cost_usd: cost,
      ...(session.judgeOf === null ? {} : { role: "judge", grader: session.judgeOf }),
      ...(this.cached ? { cached: true, avoided_cost_usd: price } : {}),
    }
    this.recorder.record(session, this.slot, call)
    // A rollout's own limits count a cached answer as if it were paid for: replayed, a rollout stops where it did.
    spend(session, tokens, price)
    this.storeAnswer(outcome, status)
  }

  /** A fresh answer that ended well goes into the cache; one that failed, was cut, or was itself cached does not. */
  private storeAnswer(outcome: ModelCall["outcome"], status: number | null): void {
    const chunks = this.answerChunks
    this.answerChunks = null
    const cache = this.recorder.cache
    if (chunks === null || cache === null || this.cacheKey === null || outcome !== "ok" || status === null) return
    if (status < 200 || status >= 300) return
    this.recorder.pending(
      cache.put(this.cacheKey, { status, contentType: this.answerContentType, body: Buffer.concat(chunks) }),
    )
  }
}
