/**
 * The parsers of values typed on a command line, shared by every command of the CLI and by the server's bare
 * entry (serveMain.ts). Each takes the raw string and returns the value, or throws a `FlagValueError` saying
 * what was expected; the caller names the flag. Plain functions without Effect, so that declaring the CLI's
 * commands loads nothing more (packages/cli/test/bundle.test.ts).
 */

/** What a flag's value should have been: `expected a positive integer, got "abc"`. The caller adds the flag. */
export class FlagValueError extends Error {
  override readonly name = "FlagValueError"
}

export type FlagParser<A> = (raw: string, previous?: A) => A

const refuse = (expected: string, raw: string, hint = ""): never => {
  throw new FlagValueError(`expected ${expected}, got ${JSON.stringify(raw)}${hint}`)
}

/** `Number(" ")` is 0: a blank value is no number. */
const numberOf = (raw: string): number => (raw.trim() === "" ? Number.NaN : Number(raw))

/** An integer in a range; without `max`, `min` alone bounds it (1: "a positive integer"). */
export const integerFlag =
  (bounds: { readonly min?: number; readonly max?: number } = {}): FlagParser<number> =>
  (raw) => {
    const { min, max } = bounds
    const n = numberOf(raw)
    if (Number.isSafeInteger(n) && n >= (min ?? -Infinity) && n <= (max ?? Infinity)) return n
    const expected =
      min === undefined
        ? "an integer"
        : max !== undefined
          ? `an integer from ${min} to ${max}`
          : min === 1
            ? "a positive integer"
            : `an integer ≥ ${min}`
    return refuse(expected, raw)
  }

/** A TCP port; 0 asks for any free one. */
export const portFlag: FlagParser<number> = integerFlag({ min: 0, max: 65_535 })

/**
 * A finite number, optionally of a unit (`seconds`, `USD`, `megabytes`): above 0 when `positive`, else within
 * `min` and `max` where given.
 */
export const numberFlag =
  (bounds: {
    readonly unit?: string
    readonly positive?: boolean
    readonly min?: number
    readonly max?: number
  }): FlagParser<number> =>
  (raw) => {
    const { unit, positive = false, min, max } = bounds
    const n = numberOf(raw)
    const inRange = positive ? n > 0 : n >= (min ?? -Infinity) && n <= (max ?? Infinity)
    if (Number.isFinite(n) && inRange) return n
    const what = unit === undefined ? "a number" : `a number of ${unit}`
    const expected = positive
      ? `a positive ${what.slice(2)}`
      : min !== undefined && max !== undefined
        ? `${what} from ${min} to ${max}`
        : min !== undefined
          ? `${what} ≥ ${min}`
          : what
    return refuse(expected, raw)
  }

/** Seconds above 0: a timeout. */
export const secondsFlag: FlagParser<number> = numberFlag({ unit: "seconds", positive: true })

/** Scores run from 0 to 1; a percentage is the likely slip, so the hint offers its fraction. */
export const scoreFlag: FlagParser<number> = (raw) => {
  const n = numberOf(raw)
  if (n >= 0 && n <= 1) return n
  return refuse("a score from 0 to 1", raw, n > 1 && n <= 100 ? ` (scores run 0–1; did you mean ${n / 100}?)` : "")
}

/** One of a fixed list of words. */
export const oneOfFlag =
  <const W extends string>(words: ReadonlyArray<W>): FlagParser<W> =>
  (raw) =>
    (words as ReadonlyArray<string>).includes(raw) ? (raw as W) : refuse(`one of ${words.join(", ")}`, raw)

/** A flag given again adds to the list (`--model-rate-limit A --model-rate-limit B`). */
export const repeatableFlag: FlagParser<ReadonlyArray<string>> = (raw, previous = []) => [...previous, raw]
