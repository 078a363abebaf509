import { Deferred, Effect, Exit, type Scope } from "effect"

/**
 * Takes Ctrl-C and SIGTERM from now until the scope closes (they then no longer stop the process by themselves) and
 * gives back the wait for the first. Installed before a command prints its ready line, so a signal sent on seeing
 * that line is the command's to handle.
 */
export const signalListener: Effect.Effect<Effect.Effect<NodeJS.Signals>, never, Scope.Scope> = Effect.gen(
  function* () {
    const received = yield* Deferred.make<NodeJS.Signals>()
    const handlers = (["SIGINT", "SIGTERM"] as const).map(
      (signal) => [signal, () => Deferred.unsafeDone(received, Exit.succeed(signal))] as const,
    )
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        for (const [signal, handler] of handlers) process.on(signal, handler)
      }),
      () =>
        Effect.sync(() => {
          for (const [signal, handler] of handlers) process.off(signal, handler)
        }),
    )
    return Deferred.await(received)
  },
)
