import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { homedir } from "node:os"
import { dirname, join } from "node:path"
import { Effect, Schema } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import { isRecord } from "../internal/isRecord.js"
import { loadGenaiPrices } from "./internal/genaiPrices.js"
import { PriceTableError } from "./PriceTableError.js"

/**
 * Which price table is in force: the data bundled with `@pydantic/genai-prices`, or a copy fetched by
 * `proctor pricing update`. `as_of` is a date (YYYY-MM-DD) the summary shows next to the cost.
 */
export interface PriceTableInfo {
  readonly source: string
  readonly as_of: string
}

/**
 * The bundled data carries no date of its own, so the package's publication date stands for it. A test checks
 * the version against the installed package, so a bump cannot leave this line stale.
 */
export const BUNDLED_PRICE_TABLE: PriceTableInfo = {
  source: "@pydantic/genai-prices 0.1.8 (bundled)",
  as_of: "2026-09-23",
}

/**
 * Where `proctor pricing update` fetches from: the table genai-prices' own auto-update reads (its
 * `REMOTE_DATA_JSON_URL`, written out so that naming it does not load the table; a test holds the two equal).
 */
export const DEFAULT_PRICES_URL =
  "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/new_data/v2/data.json"

/** The fetched copy: `PROCTOR_PRICES_FILE`, else `$XDG_CACHE_HOME/proctor/prices.json` (`~/.cache/…`). */
export const defaultPriceTablePath = (env: Readonly<Record<string, string | undefined>>): string =>
  env.PROCTOR_PRICES_FILE ?? join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), ".cache"), "proctor", "prices.json")

const StoredTable = Schema.Struct({
  source: Schema.String,
  fetched_at: Schema.String,
  providers: Schema.Array(Schema.Unknown),
})

/** genai-prices' provider list, checked only as far as its `calcPrice` relies on: ids and model lists. */
const isProviderList = (data: unknown): data is ReadonlyArray<Record<string, unknown>> =>
  Array.isArray(data) &&
  data.length > 0 &&
  data.every((p) => isRecord(p) && typeof p.id === "string" && Array.isArray(p.models))

/** How the summary names a table: `@pydantic/genai-prices 0.1.8 (bundled), 2026-09-23`. */
export const priceTableLine = (table: PriceTableInfo): string => `${table.source}, ${table.as_of}`

let active: PriceTableInfo = BUNDLED_PRICE_TABLE
/** The bundled data, kept when another table first replaces it, so that it can be put back. */
let bundled: ReadonlyArray<unknown> | null | undefined

/** The table every `Pricing` in this process prices from (genai-prices keeps one table per process). */
export const activePriceTable = (): PriceTableInfo => active

const install = (providers: ReadonlyArray<unknown>, info: PriceTableInfo) =>
  Effect.gen(function* () {
    const genai = yield* loadGenaiPrices
    bundled ??= yield* Effect.promise(() => genai.waitForUpdate())
    // genai-prices' hook for replacing its data; the factory runs at once and the data is used synchronously.
    genai.updatePrices(({ setProviderData }) => setProviderData(providers as never))
    active = info
  })

/** Puts the bundled table back in force in this process (after `usePriceTableFile` replaced it). */
export const useBundledPriceTable = Effect.fn("useBundledPriceTable")(function* () {
  if (bundled !== undefined && bundled !== null) yield* install(bundled, BUNDLED_PRICE_TABLE)
  return active
})

/**
 * Installs the fetched copy at `path` when there is one; without it the bundled table stays. A copy that cannot
 * be read as a price table is refused by name rather than silently replaced by older prices.
 */
export const usePriceTableFile = Effect.fn("usePriceTableFile")(function* (path: string) {
  const text = yield* Effect.tryPromise(() => readFile(path, "utf8")).pipe(Effect.orElseSucceed(() => null))
  if (text === null) return active
  const bad = (what: string) =>
    new ConfigError({
      reason: "InvalidValue",
      message: `${path}: ${what}; run \`proctor pricing update\` again or delete the file`,
    })
  const stored = yield* Effect.try({ try: (): unknown => JSON.parse(text), catch: () => bad("not valid JSON") }).pipe(
    Effect.flatMap((json) => Effect.mapError(Schema.decodeUnknown(StoredTable)(json), () => bad("not a price table"))),
  )
  if (!isProviderList(stored.providers)) return yield* bad("not a price table")
  const info = { source: stored.source, as_of: stored.fetched_at.slice(0, 10) }
  yield* install(stored.providers, info)
  return info
})

/**
 * `proctor pricing update`: fetches genai-prices' current table and keeps it at `path` for later runs, online or
 * not. Written to a temporary file and renamed, so a run starting meanwhile reads the old copy or the new one.
 */
export const updatePriceTable = Effect.fn("updatePriceTable")(function* (options: {
  readonly url: string
  readonly path: string
  readonly now?: Date
}) {
  const response = yield* Effect.tryPromise({
    try: (signal) => fetch(options.url, { signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]) }),
    catch: (cause) =>
      new PriceTableError({ reason: "Unreachable", message: `cannot reach ${options.url}: ${String(cause)}`, cause }),
  })
  const body = yield* Effect.tryPromise({
    try: () => response.text(),
    catch: (cause) =>
      new PriceTableError({ reason: "Unreachable", message: `${options.url}: the answer broke off`, cause }),
  })
  if (!response.ok) {
    return yield* new PriceTableError({ reason: "BadResponse", message: `${options.url} answered ${response.status}` })
  }
  const providers = yield* Effect.try({
    try: (): unknown => JSON.parse(body),
    catch: (cause) => new PriceTableError({ reason: "BadResponse", message: `${options.url}: not JSON`, cause }),
  })
  if (!isProviderList(providers)) {
    return yield* new PriceTableError({
      reason: "BadResponse",
      message: `${options.url}: not a genai-prices provider list`,
    })
  }
  const fetchedAt = (options.now ?? new Date()).toISOString()
  const stored = { source: options.url, fetched_at: fetchedAt, providers }
  yield* Effect.tryPromise({
    try: async () => {
      await mkdir(dirname(options.path), { recursive: true })
      const temporary = `${options.path}.${process.pid}.tmp`
      await writeFile(temporary, JSON.stringify(stored))
      await rename(temporary, options.path)
    },
    catch: (cause) =>
      new PriceTableError({ reason: "WriteFailed", message: `cannot write ${options.path}: ${String(cause)}`, cause }),
  })
  const models = providers.reduce((n, p) => n + (p.models as ReadonlyArray<unknown>).length, 0)
  return { providers: providers.length, models, as_of: fetchedAt.slice(0, 10) }
})
