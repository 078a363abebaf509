import type { InterceptorService } from "@proctor/core"
import { interceptorListener } from "@proctor/core/interceptor-server"
import type { FastifyInstance } from "fastify"

/** Task apps reach the model at `{server}/interceptor/cid_…/v1/chat/completions` (and `/responses`, `/messages`). */
export const INTERCEPTOR_PREFIX = "/interceptor"

/**
 * Mounts the inference interceptor on the job server: its requests go to the interceptor's own listener with
 * their body unread, so it is read (raw, under the interceptor's limit for model calls, not the job API's) in one
 * place for every server. The correlation id in the path is the capability, so these routes take no API key.
 */
export const registerInterceptorRoutes = (
  app: FastifyInstance,
  interceptor: InterceptorService,
  bodyLimit?: number | undefined,
) =>
  app.register(
    async (scope) => {
      const listener = interceptorListener({ interceptor, bodyLimit })
      scope.removeAllContentTypeParsers()
      // Leaves the body in the request stream for the listener.
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null))
      scope.post("/*", (request, reply) => {
        reply.hijack()
        listener(request.raw, reply.raw)
      })
    },
    { prefix: INTERCEPTOR_PREFIX },
  )
