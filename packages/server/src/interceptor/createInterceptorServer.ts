import type { InterceptorService } from "@proctor/core"
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from "fastify"

export interface InterceptorServerOptions {
  readonly interceptor: InterceptorService
  /** Largest request body accepted (long agent transcripts and images); default 20 MiB. */
  readonly bodyLimit?: number | undefined
  readonly logger?: FastifyServerOptions["logger"] | undefined
}

const DEFAULT_BODY_LIMIT = 20 * 1024 * 1024
const EMPTY = Buffer.alloc(0)

const openAiError = (message: string, type: string, code: string) => ({ error: { message, type, param: null, code } })

/**
 * The interceptor over HTTP: every POST (`/cid_…/v1/chat/completions`, `…/responses`, `…/messages`, or any
 * path with `?cid=`) goes to `interceptor.handle` with its raw body; `GET /healthz` reports what is open.
 * Bodies stay Buffers: the interceptor forwards them byte for byte unless it must change them.
 */
export const createInterceptorServer = (options: InterceptorServerOptions): FastifyInstance => {
  const { interceptor } = options
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    // Streams can last minutes; closing the server must not wait for them (their calls end as cancelled).
    forceCloseConnections: true,
  })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (_request, body, done) => done(null, body))

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        openAiError(
          `Unknown request URL: ${request.method} ${request.url.split("?", 1)[0]}`,
          "invalid_request_error",
          "unknown_url",
        ),
      ),
  )
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500
    const code = error.code?.toLowerCase() ?? "internal_error"
    return reply
      .code(status)
      .send(openAiError(error.message, status < 500 ? "invalid_request_error" : "server_error", code))
  })

  app.get("/healthz", async () => ({
    status: "ok",
    open_rollouts: interceptor.openRollouts(),
    in_flight: interceptor.inFlight(),
  }))

  app.post("/*", (request, reply) => {
    reply.hijack()
    interceptor.handle(request.raw, reply.raw, Buffer.isBuffer(request.body) ? request.body : EMPTY)
  })

  return app
}
