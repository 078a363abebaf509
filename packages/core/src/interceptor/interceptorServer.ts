import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { listeningUrl } from "../internal/listeningUrl.js"
import type { InterceptorService } from "./Interceptor.js"

export interface InterceptorServerOptions {
  /** The interceptor whose `handle` serves each POST. */
  readonly interceptor: Pick<InterceptorService, "handle" | "openRollouts" | "inFlight">
  /** Largest request body accepted (long agent transcripts and images); default 20 MiB. */
  readonly bodyLimit?: number | undefined
}

const DEFAULT_BODY_LIMIT = 20 * 1024 * 1024
/** No deadline on a whole request (a stream can last minutes); idle keep-alive connections kept 72 s. */
const SERVER_OPTIONS = { requestTimeout: 0, keepAliveTimeout: 72_000 }

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  })
  res.end(text)
}

const openAiError = (message: string, type: string, code: string) => ({ error: { message, type, param: null, code } })

/** Calls `then` with the raw body, or answers 413 once it grows past `limit`. */
const readBody = (req: IncomingMessage, res: ServerResponse, limit: number, then: (body: Buffer) => void) => {
  const tooLarge = () =>
    sendJson(
      res,
      413,
      openAiError(`Request body is larger than ${limit} bytes`, "invalid_request_error", "request_too_large"),
    )
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    // Answer without reading what was announced; the connection is not reused (the body was not drained).
    res.shouldKeepAlive = false
    return tooLarge()
  }
  const chunks: Array<Buffer> = []
  let size = 0
  req.on("data", (chunk: Buffer) => {
    size += chunk.length
    if (size <= limit) return chunks.push(chunk)
    if (res.headersSent) return
    res.shouldKeepAlive = false
    tooLarge()
    req.resume()
  })
  req.on("end", () => {
    if (size <= limit) then(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
  })
}

/**
 * The one way in to an interceptor over HTTP, as a node request listener: every POST (`/cid_…/v1/chat/completions`,
 * `…/responses`, `…/messages`, or any path with `?cid=`) goes to `interceptor.handle` with its raw body, read here
 * under the body limit; `GET /healthz` reports what is open. Served by its own node:http server
 * (`createInterceptorServer`) or mounted on a framework's routes with the body left unread (the job server's
 * fastify). Bodies stay Buffers: the interceptor forwards them byte for byte unless it must change them.
 */
export const interceptorListener = (
  options: InterceptorServerOptions,
): ((req: IncomingMessage, res: ServerResponse) => void) => {
  const { interceptor } = options
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  return (req, res) => {
    if (req.method === "POST") {
      return readBody(req, res, bodyLimit, (body) => interceptor.handle(req, res, body))
    }
    const path = (req.url ?? "/").split("?", 1)[0]
    if (req.method === "GET" && path === "/healthz") {
      return sendJson(res, 200, {
        status: "ok",
        open_rollouts: interceptor.openRollouts(),
        in_flight: interceptor.inFlight(),
      })
    }
    sendJson(
      res,
      404,
      openAiError(`Unknown request URL: ${req.method} ${path}`, "invalid_request_error", "unknown_url"),
    )
  }
}

/**
 * The interceptor on a node:http server of its own, as `proctor eval` and `evaluate()` serve it. No framework:
 * the proxy's per-call path is node:http and undici and nothing between; the job server mounts the same listener
 * on its fastify routes (`interceptorListener`).
 */
export const createInterceptorServer = (options: InterceptorServerOptions): Server =>
  createServer(SERVER_OPTIONS, interceptorListener(options))

export interface ListeningInterceptor {
  /** The server's base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** Stops listening and cuts open connections: streams can last minutes, and their calls end as cancelled. */
  readonly close: () => Promise<void>
}

/** Serves an interceptor on its own node:http server and sets its public base URL once it listens. */
export const listenInterceptor = async (
  interceptor: Pick<InterceptorService, "handle" | "openRollouts" | "inFlight" | "setBaseUrl">,
  options: {
    readonly host?: string | undefined
    readonly port?: number | undefined
    readonly bodyLimit?: number | undefined
  },
): Promise<ListeningInterceptor> => {
  const server = createInterceptorServer({ interceptor, bodyLimit: options.bodyLimit })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 0 }, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const url = listeningUrl(server.address() as AddressInfo)
  interceptor.setBaseUrl(url)
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { url, close }
}
