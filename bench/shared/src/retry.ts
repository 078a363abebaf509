import { log } from "./cli.js"
import { cores } from "./format.js"
import { QUIET_CORES } from "./machine.js"

/** An attempt that was run again because other processes took more than QUIET_CORES during it. */
export interface DiscardedAttempt {
  readonly label: string
  readonly figure: string
  readonly otherCores: number
}

export interface RetryOptions {
  /** How many times a disturbed measurement is run again. */
  readonly retries: number
  /** Runs before every attempt (a quiet-wait). */
  readonly before?: () => Promise<unknown>
  /** Every discarded attempt lands here, to be reported. */
  readonly discarded: Array<DiscardedAttempt>
}

/**
 * Runs one measurement; when other processes took more than QUIET_CORES during it, runs it again (up to
 * `retries` times) and keeps the least disturbed attempt.
 */
export const measureUndisturbed = async <T extends { readonly otherCores: number }>(
  label: string,
  run: () => Promise<T>,
  describe: (r: T) => string,
  options: RetryOptions,
): Promise<T> => {
  const attempts: Array<T> = []
  for (;;) {
    await options.before?.()
    const r = await run()
    attempts.push(r)
    log(`${label.padEnd(28)} ${describe(r)} (others ${cores(r.otherCores)} cores)`)
    if (r.otherCores <= QUIET_CORES || attempts.length > options.retries) break
    log(`${"".padEnd(28)} disturbed: measuring again`)
  }
  const kept = attempts.reduce((a, b) => (b.otherCores < a.otherCores ? b : a))
  for (const a of attempts) {
    if (a !== kept) options.discarded.push({ label, figure: describe(a), otherCores: a.otherCores })
  }
  return kept
}
