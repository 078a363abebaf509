import { EventEmitter } from "node:events"
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http"
import type { PostedAnswer } from "../../internal/modelPost.js"

/**
 * What the interceptor writes an answer to: the part of node's `ServerResponse` it uses, so that a caller in the
 * same process can be answered without an HTTP hop (`InProcessResponse`).
 */
export interface ClientResponse {
  readonly destroyed: boolean
  readonly headersSent: boolean
  readonly writableEnded: boolean
  writeHead(status: number, headers: OutgoingHttpHeaders): unknown
  /** False when the caller wants no more until "drain". */
  write(chunk: Buffer | string): boolean
  end(chunk?: Buffer | string): unknown
  /** Cuts the answer short: the caller sees a truncation, as a client sees a closed socket. */
  destroy(): unknown
  /** "close": the caller left (or the answer was cut); "drain": it takes more again. */
  once(event: "close" | "drain", listener: () => void): unknown
}

const headersOf = (headers: OutgoingHttpHeaders): IncomingHttpHeaders => {
  const received: IncomingHttpHeaders = {}
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined) received[name] = Array.isArray(value) ? value.join(", ") : String(value)
  }
  return received
}

/**
 * The interceptor's answer to a caller in this process, held in memory: it resolves when the answer ends, rejects
 * when it is cut (as a socket would close on an HTTP client) or when the caller's signal aborts (then the
 * interceptor sees the caller leave, as on a closed connection).
 */
export class InProcessResponse extends EventEmitter implements ClientResponse {
  destroyed = false
  headersSent = false
  writableEnded = false
  readonly answer: Promise<PostedAnswer>
  private status = 200
  private headers: IncomingHttpHeaders = {}
  private readonly chunks: Array<Buffer> = []
  private settle!: (answer: PostedAnswer) => void
  private fail!: (error: Error) => void

  constructor(signal: AbortSignal | undefined) {
    super()
    this.answer = new Promise((resolve, reject) => {
      this.settle = resolve
      this.fail = reject
    })
    if (signal === undefined) return
    if (signal.aborted) this.cut(signal.reason)
    else signal.addEventListener("abort", () => this.cut(signal.reason), { once: true })
  }

  writeHead(status: number, headers: OutgoingHttpHeaders): this {
    this.status = status
    this.headers = headersOf(headers)
    this.headersSent = true
    return this
  }

  write(chunk: Buffer | string): boolean {
    if (!this.destroyed && chunk.length > 0) this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)
    return true
  }

  end(chunk?: Buffer | string): this {
    if (this.destroyed || this.writableEnded) return this
    if (chunk !== undefined) this.write(chunk)
    this.writableEnded = true
    this.settle({ status: this.status, headers: this.headers, text: Buffer.concat(this.chunks).toString("utf8") })
    return this
  }

  destroy(): this {
    this.cut(new Error("the interceptor cut the answer short"))
    return this
  }

  private cut(reason: unknown): void {
    if (this.destroyed || this.writableEnded) return
    this.destroyed = true
    this.fail(reason instanceof Error ? reason : new Error(String(reason)))
    this.emit("close")
  }
}
