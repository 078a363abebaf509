import { Cause } from "effect"

/** An error as the server logs it: its tag, reason, message and stack, never the errors beneath it. */
const withoutCause = (error: unknown): unknown => {
  if (typeof error !== "object" || error === null || !("cause" in error) || error.cause === undefined) return error
  const { _tag, reason, message, stack } = error as {
    readonly _tag?: unknown
    readonly reason?: unknown
    readonly message?: unknown
    readonly stack?: unknown
  }
  const shown = new Error(typeof message === "string" ? message : "")
  const name = typeof _tag === "string" ? _tag : error instanceof Error ? error.name : "Error"
  shown.name = typeof reason === "string" ? `${name} (${reason})` : name
  if (typeof stack === "string") shown.stack = stack
  return shown
}

/**
 * A cause fit for the server's log. Effect's loggers render every error's `cause` chain, and a database driver's
 * error (the cause of an `SqlError`, itself the cause of a `JobStoreError`) can quote a statement's values,
 * sealed secrets among them; so each failure and defect is logged by its own message only.
 */
export const loggableCause = <E>(cause: Cause.Cause<E>): Cause.Cause<unknown> =>
  Cause.match<Cause.Cause<unknown>, E>(cause, {
    onEmpty: Cause.empty,
    onFail: (error) => Cause.fail(withoutCause(error)),
    onDie: (defect) => Cause.die(withoutCause(defect)),
    onInterrupt: Cause.interrupt,
    onSequential: Cause.sequential,
    onParallel: Cause.parallel,
  })
