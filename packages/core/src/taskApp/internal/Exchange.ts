import type { IncomingHttpHeaders } from "node:http"
import type { Dispatcher } from "undici"
import { headerValue } from "../../internal/headerValue.js"
import type { RawResponse } from "../TaskAppClient.js"
import type { DeadlineSweep } from "./DeadlineSweep.js"

export interface ExchangeLimits {
  /** Longer answers fail with `UND_ERR_RES_EXCEEDED_MAX_SIZE`: a declared length at once, else as it streams in. */
  readonly maxBytes: number
  /** Epoch ms by which the whole answer must be in; later, it fails with `UND_ERR_BODY_TIMEOUT`. */
  readonly deadline: number
  readonly deadlines: DeadlineSweep
}

/** undici's code when a body passes the pool's `maxResponseSize`; the declared-length check reuses it. */
export const TOO_LARGE_CODE = "UND_ERR_RES_EXCEEDED_MAX_SIZE"

const BYTE_ORDER_MARK = 0xfeff

const transportFailure = (message: string, code: string) => Object.assign(new Error(message), { code })

/**
 * One request on undici's dispatcher API, its answer gathered as it arrives: the rollout call is proctor's hot path,
 * and `Pool.request` spends a readable stream, an async resource and promises on every answer (measured: ~5 µs of
 * the ~45 a zero-work rollout's request takes). Rejects with undici's error (or one with the same `code`), which the
 * caller maps to its own. A promise, not `Effect.async`: resuming a fiber from the handler cost ~10 µs more.
 */
export const exchange = (
  dispatcher: Dispatcher,
  request: Dispatcher.DispatchOptions,
  limits: ExchangeLimits,
): Promise<RawResponse> =>
  new Promise<RawResponse>((resolve, reject) => {
    dispatcher.dispatch(request, new ResponseCollector(limits, resolve, reject))
  })

class ResponseCollector implements Dispatcher.DispatchHandler {
  private status = 0
  private headers: IncomingHttpHeaders = {}
  private readonly chunks: Array<Buffer> = []
  private cancelDeadline: (() => void) | null = null
  private settled = false

  constructor(
    private readonly limits: ExchangeLimits,
    private readonly resolve: (response: RawResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  /** undici takes a handler with this method for one of its current API (headers as an object, a controller). */
  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return
    this.status = statusCode
    this.headers = headers
    // An answer that declares its length is refused before a byte of its body is read.
    if (Number(headerValue(headers["content-length"])) > this.limits.maxBytes) {
      controller.abort(transportFailure("declared length over the limit", TOO_LARGE_CODE))
      return
    }
    // undici's timeouts are idle timeouts (a body trickling a byte at a time never trips them); the sweep
    // makes the deadline one for the whole exchange.
    this.cancelDeadline = this.limits.deadlines.add(this.limits.deadline, () =>
      controller.abort(transportFailure("rollout deadline passed", "UND_ERR_BODY_TIMEOUT")),
    )
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk)
  }

  onResponseEnd(): void {
    const chunks = this.chunks
    const decoded = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8")
    // As `body.text()` did: a byte-order mark is no part of the text.
    const text = decoded.charCodeAt(0) === BYTE_ORDER_MARK ? decoded.slice(1) : decoded
    if (this.settle()) this.resolve({ status: this.status, headers: this.headers, text })
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settle()) this.reject(error)
  }

  /** True the first time: the exchange is over, its deadline no longer watched. */
  private settle(): boolean {
    if (this.settled) return false
    this.settled = true
    this.cancelDeadline?.()
    return true
  }
}
