import { type FlagParser, FlagValueError, oneOfFlag } from "@proctor/core"
import { type Command, CommanderError, Option } from "commander"

/**
 * One flag, declared once: commander's spelling (`--concurrency <n>`, `--json`, `--no-intercept`), its help,
 * the parser of its value, its default (a parsed value) and, for `proctor eval`, the config key it sets. The
 * command's options object is typed from these (`FlagValues`), never written out again.
 */
export interface Flag<A> {
  readonly spec: string
  readonly description: string
  readonly parse?: FlagParser<A> | undefined
  readonly default?: A | undefined
  /** Listed in the help (see `choice`). */
  readonly choices?: ReadonlyArray<string> | undefined
  /** Commander refuses the command without it. */
  readonly required?: boolean | undefined
}

type More<A> = Pick<Flag<A>, "default" | "required"> & {
  /** The config key the flag sets (`proctor eval`'s flags): see `configValues`. */
  readonly configKey?: string
}
type NoMore = Record<never, never>

/** A flag with a word or path for its value. */
export const text = <const M extends More<string> = NoMore>(spec: string, description: string, more?: M) =>
  ({ spec, description, ...more }) as Flag<string> & M

/** A flag without a value (`--json`; `--no-intercept` is false when given). */
export const toggle = <const M extends More<boolean> = NoMore>(spec: string, description: string, more?: M) =>
  ({ spec, description, ...more }) as Flag<boolean> & M

/** A flag whose value one of @proctor/core's flag parsers reads. */
export const parsed = <A, const M extends More<A> = NoMore>(
  spec: string,
  description: string,
  parse: FlagParser<A>,
  more?: M,
) => ({ spec, description, parse, ...more }) as Flag<A> & M

/** A flag whose value is one of a few words, listed in the help. */
export const choice = <const W extends string, const M extends More<W> = NoMore>(
  spec: string,
  description: string,
  choices: ReadonlyArray<W>,
  more?: M,
) => {
  const flag: Flag<W> = { spec, description, parse: oneOfFlag(choices), choices }
  return { ...flag, ...more } as Flag<W> & M
}

// biome-ignore lint/suspicious/noExplicitAny: a table holds flags of every value type
export type FlagTable = Readonly<Record<string, Flag<any> & { readonly configKey?: string | undefined }>>

type ValueOf<F> = F extends Flag<infer A> ? A : never
/** The flags that always have a value: a default, or required. */
type Given<T> = {
  [K in keyof T]: T[K] extends { readonly default: unknown } | { readonly required: true } ? K : never
}[keyof T]

/** The options object commander hands a command's action: keys as commander names them, values parsed. */
export type FlagValues<T extends FlagTable> = { readonly [K in Given<T>]: ValueOf<T[K]> } & {
  readonly [K in Exclude<keyof T, Given<T>>]?: ValueOf<T[K]> | undefined
}

/** The code of a value a parser refused; main.ts says it in one line, with the flag's name. */
export const FLAG_VALUE_ERROR = "proctor.flagValue"

const named =
  <A>(flag: string, parse: FlagParser<A>) =>
  (raw: string, previous: A | undefined): A => {
    try {
      return parse(raw, previous)
    } catch (error) {
      if (!(error instanceof FlagValueError)) throw error
      throw new CommanderError(2, FLAG_VALUE_ERROR, `${flag}: ${error.message}`)
    }
  }

/** Adds the table's flags to a command. A key that is not commander's name of the flag is a mistake here. */
export const addFlags = (command: Command, table: FlagTable): Command => {
  for (const [key, flag] of Object.entries(table)) {
    const option = new Option(flag.spec, flag.description)
    if (flag.choices !== undefined) option.choices(flag.choices)
    if (flag.parse !== undefined) option.argParser(named(option.long ?? flag.spec, flag.parse))
    if (flag.default !== undefined) option.default(flag.default)
    if (flag.required === true) option.makeOptionMandatory()
    if (option.attributeName() !== key) throw new Error(`${flag.spec} is read as ${option.attributeName()}, not ${key}`)
    command.addOption(option)
  }
  return command
}

/** The values given of the flags that set a config key, under that key. */
export const configValues = (table: FlagTable, values: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(table).flatMap(([key, flag]) =>
      flag.configKey === undefined || values[key] === undefined ? [] : [[flag.configKey, values[key]]],
    ),
  )
