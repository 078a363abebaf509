import {
  Interceptor,
  type InterceptorOptions,
  type InterceptorService,
  type ServeInterceptorOptions,
  serveInterceptor,
} from "@proctor/core"
import { Effect, Exit, Scope } from "effect"

export interface StartInterceptorOptions extends InterceptorOptions, ServeInterceptorOptions {
  /** Serve an existing interceptor (its base URL is set to this server's) instead of making one. */
  readonly interceptor?: InterceptorService | undefined
}

export interface RunningInterceptor {
  readonly interceptor: InterceptorService
  /** The server's base URL, e.g. `http://127.0.0.1:41234`; rollouts get `${url}/${cid}/v1`. */
  readonly url: string
  /** Stops the server (in-flight calls end as cancelled) and, if it made the interceptor, shuts it down. */
  readonly close: () => Promise<void>
}

/**
 * `serveInterceptor` for a program outside Effect: an interceptor (made here unless given) on its own server in
 * this thread, as `proctor eval` runs its own.
 */
export const startInterceptor = async (options: StartInterceptorOptions = {}): Promise<RunningInterceptor> => {
  const scope = await Effect.runPromise(Scope.make())
  const close = () => Effect.runPromise(Scope.close(scope, Exit.void))
  try {
    const interceptor = options.interceptor ?? (await Effect.runPromise(Scope.extend(Interceptor.make(options), scope)))
    const url = await Effect.runPromise(Scope.extend(serveInterceptor(interceptor, options), scope))
    return { interceptor, url, close }
  } catch (error) {
    await close()
    throw error
  }
}
