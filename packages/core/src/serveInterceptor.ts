import { Effect, type Scope } from "effect"
import type { InterceptorService } from "./Interceptor.js"
import { listenInterceptor } from "./interceptor/internal/interceptorServer.js"

/**
 * Serves an interceptor on loopback for the life of the scope, and sets its base URL. For in-process evals,
 * whose solver runs in this process, and for CLI runs with one rollout in flight at a time: the same node:http
 * server as the CLI's interceptor thread, without the thread (which keeps the proxy clear of the runner's work,
 * and matters less when the solver shares the event loop anyway, or the runner only waits). The interceptor
 * itself answers unknown ids, paths and methods.
 */
export const serveInterceptor = (
  interceptor: InterceptorService,
  options: { readonly bodyLimit?: number | undefined } = {},
): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() => listenInterceptor(interceptor, { host: "127.0.0.1", port: 0, bodyLimit: options.bodyLimit })),
    (listening) => Effect.promise(listening.close),
  ).pipe(Effect.map((listening) => listening.url))
