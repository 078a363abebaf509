import { Effect } from "effect"

/** Waits for Ctrl-C or SIGTERM (which then no longer stop the process by themselves); resolves with its name. */
export const untilSignal: Effect.Effect<NodeJS.Signals> = Effect.async<NodeJS.Signals>((resume) => {
  const signals: ReadonlyArray<NodeJS.Signals> = ["SIGINT", "SIGTERM"]
  const handlers = signals.map((signal) => {
    const handler = () => {
      uninstall()
      resume(Effect.succeed(signal))
    }
    process.on(signal, handler)
    return [signal, handler] as const
  })
  const uninstall = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler)
  }
  return Effect.sync(uninstall)
})
