import { Effect, type Scope } from "effect"
import type { InterceptorService } from "./Interceptor.js"
import { listenInterceptor } from "./interceptorServer.js"

export interface ServeInterceptorOptions {
  /** Default 127.0.0.1: the interceptor hands out capabilities to a model key, so it stays local unless told. */
  readonly host?: string | undefined
  /** Default 0 (any free port). */
  readonly port?: number | undefined
  /** Largest request body accepted (long agent transcripts and images); default 20 MiB. */
  readonly bodyLimit?: number | undefined
}

/**
 * Serves an interceptor on a node:http server of its own for the life of the scope, and sets its
 * base URL (the server's, returned): `proctor eval`'s interceptor and `evaluate()`'s. The interceptor itself
 * answers unknown ids, paths and methods.
 */
export const serveInterceptor = (
  interceptor: InterceptorService,
  options: ServeInterceptorOptions = {},
): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() => listenInterceptor(interceptor, options)),
    (listening) => Effect.promise(listening.close),
  ).pipe(Effect.map((listening) => listening.url))
