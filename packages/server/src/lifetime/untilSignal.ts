import { Deferred, Effect, Exit, type Scope } from "effect"

export interface UntilSignalOptions<A> {
  /** Default SIGTERM and SIGINT. */
  readonly signals?: ReadonlyArray<NodeJS.Signals> | undefined
  /** Runs once the service is up; by then the signal handlers are in, so a signal sent on its word drains. */
  readonly onReady?: ((service: A) => Effect.Effect<void>) | undefined
  /** Runs on the first signal, before the service's scope closes. */
  readonly onDrain?: Effect.Effect<void> | undefined
}

/**
 * Runs a scoped service (`proctor serve`, `proctor worker`) until the process gets a signal: the first closes the
 * service's scope, whose release drains it; a second completes `hurry`, which the service's release races its drain
 * against to stop at once. The handlers are in from before the service starts until after its release ends, so no
 * signal meanwhile reaches Node's default (which kills the process without draining).
 */
export const untilSignal = <A, E>(
  service: (hurry: Effect.Effect<void>) => Effect.Effect<A, E, Scope.Scope>,
  options: UntilSignalOptions<A> = {},
): Effect.Effect<void, E> =>
  Effect.scoped(
    Effect.gen(function* () {
      const signals = options.signals ?? ["SIGTERM", "SIGINT"]
      const stop = yield* Deferred.make<void>()
      const hurry = yield* Deferred.make<void>()
      let signalled = false
      const onSignal = () => {
        Deferred.unsafeDone(signalled ? hurry : stop, Exit.void)
        signalled = true
      }
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          for (const signal of signals) process.on(signal, onSignal)
        }),
        () =>
          Effect.sync(() => {
            for (const signal of signals) process.off(signal, onSignal)
          }),
      )
      const running = yield* service(Deferred.await(hurry))
      if (options.onReady !== undefined) yield* options.onReady(running)
      yield* Deferred.await(stop)
      if (options.onDrain !== undefined) yield* options.onDrain
    }),
  )
