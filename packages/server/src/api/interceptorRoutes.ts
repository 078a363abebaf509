import type { InterceptorService } from "@proctor/core"
import type { FastifyInstance } from "fastify"

/** Task apps reach the model at `{server}/interceptor/cid_…/v1/chat/completions` (and `/responses`, `/messages`). */
export const INTERCEPTOR_PREFIX = "/interceptor"

/** Agent transcripts with images are large; the job API's 1 MB limit is for job bodies, not model calls. */
export const DEFAULT_INTERCEPTOR_BODY_LIMIT = 20 * 1024 * 1024

const EMPTY = Buffer.alloc(0)

/**
 * Mounts the inference interceptor on the job server. Bodies stay raw Buffers (the interceptor forwards them
 * byte for byte); the correlation id in the path is the capability, so these routes take no API key.
 */
export const registerInterceptorRoutes = (
  app: FastifyInstance,
  interceptor: InterceptorService,
  bodyLimit = DEFAULT_INTERCEPTOR_BODY_LIMIT,
) =>
  app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (_request, body, done) => done(null, body))
      scope.post("/*", { bodyLimit }, (request, reply) => {
        reply.hijack()
        interceptor.handle(request.raw, reply.raw, Buffer.isBuffer(request.body) ? request.body : EMPTY)
      })
    },
    { prefix: INTERCEPTOR_PREFIX },
  )
