import { Cause, Effect, Exit } from "effect"

/**
 * An effect run to a Promise for Promise-writing callers (`evaluate()`, its solvers' `ctx`): it resolves to the value
 * or rejects with the error itself (a `ConfigError`, a `SandboxError`, a `GraderError`), not Effect's wrapper, so
 * `instanceof` and the error's own fields work on it.
 */
export const promiseOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}
