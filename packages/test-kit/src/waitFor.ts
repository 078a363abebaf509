import { Duration, Effect, Schedule } from "effect"

export interface WaitOptions {
  /** Give up after this long (default 20 s). */
  readonly timeoutMs?: number
  /** Ask again after this long (default 20 ms; slower where asking costs, such as aggregate queries). */
  readonly everyMs?: number
  /** A check that throws counts as "not yet" (a server still starting) instead of failing the wait. */
  readonly ignoreErrors?: boolean
  /** Says why waiting longer is pointless (the process under test exited), or undefined to go on. */
  readonly abortIf?: () => string | undefined
}

/** What a check returns while the condition does not hold yet. */
type NotYet = undefined | null | false

/**
 * Asks `check` until it returns something (not undefined, null or false) and returns that; throws naming
 * `what` when `timeoutMs` passes. The one way tests wait for a condition — never a fixed sleep.
 */
export const waitFor = async <A>(
  what: string,
  check: () => A | Promise<A>,
  options: WaitOptions | number = {},
): Promise<Exclude<A, NotYet>> => {
  const {
    timeoutMs = 20_000,
    everyMs = 20,
    ignoreErrors = false,
    abortIf,
  } = typeof options === "number" ? { timeoutMs: options } : options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = ignoreErrors
      ? await Promise.resolve()
          .then(check)
          .catch(() => undefined)
      : await check()
    if (value !== undefined && value !== null && value !== false) return value as Exclude<A, NotYet>
    const aborted = abortIf?.()
    if (aborted !== undefined) throw new Error(`gave up waiting for ${what}: ${aborted}`)
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** `waitFor` for Effect tests: repeats `check` until it holds; fails naming `what` after `timeoutMs`. */
export const waitForEffect = <E, R>(
  what: string,
  check: Effect.Effect<boolean, E, R>,
  options: { readonly timeoutMs?: number; readonly everyMs?: number } = {},
) =>
  Effect.repeat(check, {
    until: (holds) => holds,
    schedule: Schedule.spaced(Duration.millis(options.everyMs ?? 20)),
  }).pipe(
    Effect.asVoid,
    Effect.timeoutFail({
      duration: Duration.millis(options.timeoutMs ?? 20_000),
      onTimeout: () => new Error(`timed out waiting for ${what}`),
    }),
  )
