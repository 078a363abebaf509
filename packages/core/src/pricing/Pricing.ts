import { readFile } from "node:fs/promises"
import { Context, Effect, Either, Layer, Schema } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import { formatParseIssues } from "../internal/formatIssues.js"
import { isRecord } from "../internal/isRecord.js"
import type { TokenUsage } from "../result/ModelCall.js"
import { type GenaiPrices, loadGenaiPrices } from "./internal/genaiPrices.js"
import { isMaintainedProvider, maintainedPrice } from "./internal/maintainedPrice.js"
import { modelCandidates } from "./internal/modelCandidates.js"
import { providerAliases } from "./internal/providerAliases.js"
import { activePriceTable, priceTableLine } from "./PriceTable.js"

export { providerAliases } from "./internal/providerAliases.js"

/** USD per token. `cached_input` is the rate for prompt tokens served from the provider's cache. */
export interface ModelPrice {
  readonly input: number
  readonly output: number
  readonly cached_input?: number
}

/** A user's price for one model; `provider: null` applies under any provider. */
export interface PriceOverride {
  readonly provider: string | null
  readonly model: string
  readonly price: ModelPrice
}
export type PricingOverrides = ReadonlyArray<PriceOverride>

export interface PricingService {
  /** The price of a model: case-insensitive, provider prefixes and dated snapshot names understood. */
  readonly lookup: (provider: string | null, model: string) => ModelPrice | undefined
  /** Cost of one call in USD; null when the model has no known price or there is no usage (never 0 then). */
  readonly costOf: (provider: string | null, model: string | null, usage: TokenUsage | null) => number | null
  /**
   * The prices calls are priced from, as a run's summary names them: the maintained table in force
   * (`priceTableLine`), after the given prices when there are any.
   */
  readonly table: () => string
}

const count = (n: number | null): number | null => (n !== null && Number.isFinite(n) && n >= 0 ? n : null)

/**
 * `prompt_tokens` must include cached tokens (OpenAI's and Gemini's convention; the interceptor folds
 * Anthropic's separate `cache_read_input_tokens` into it). Reasoning tokens are not added: OpenAI already
 * counts them inside `completion_tokens`, and they are billed at the output rate.
 */
export const costOfUsage = (price: ModelPrice, usage: TokenUsage): number | null => {
  const total = count(usage.total_tokens)
  let prompt = count(usage.prompt_tokens)
  let completion = count(usage.completion_tokens)
  if (prompt === null && completion !== null && total !== null) prompt = Math.max(0, total - completion)
  if (completion === null && prompt !== null && total !== null) completion = Math.max(0, total - prompt)
  // A bare total cannot be split between two rates; a guess would be a wrong number that looks right.
  if (prompt === null && completion === null) return null
  const input = prompt ?? 0
  const cached = Math.min(count(usage.cached_tokens) ?? 0, input)
  const cost =
    (input - cached) * price.input + cached * (price.cached_input ?? price.input) + (completion ?? 0) * price.output
  // Twelve significant digits drop float noise such as 1.5000000000000001e-4 from sums of tiny rates.
  return Number(cost.toPrecision(12))
}

interface MatchRow {
  readonly provider: string | null
  readonly names: ReadonlyArray<string>
  readonly price: ModelPrice
}

const canonicalProvider = (provider: string): string => {
  const lower = provider.trim().toLowerCase()
  return providerAliases[lower] ?? lower
}

/** Dots become dashes so `claude-sonnet-4.5` (OpenRouter's spelling) meets `claude-sonnet-4-5` (Anthropic's). */
const normalizeModel = (model: string): string => model.trim().toLowerCase().replaceAll(".", "-")

/**
 * What may follow a base name for a snapshot of the same model: dates (`-2024-07-18`, `-20250929`, `@20250929`),
 * short revisions (`-0905`, `-001`), `-latest`, `-preview[-06-17]`, `-exp`, Bedrock's `-v1:0`. A word such as
 * `-mini` is a different model, which is why `gpt-4o-mini-…` can never fall back to `gpt-4o`.
 */
const SNAPSHOT_SUFFIX =
  /^(?:[-@](?:\d{4}-\d{2}-\d{2}|\d{8}|\d{3,4}|latest|(?:preview|exp)(?:-\d{2}-\d{2,4})?|v\d+(?::\d+)?))+$/

/** A user's rows are matched on the normalised tails of the model id. */
const candidates = (model: string) =>
  modelCandidates(model).map(({ tail, implied }) => ({ name: normalizeModel(tail), implied }))

const matchLength = (name: string, candidate: string): number =>
  candidate === name || (candidate.startsWith(name) && SNAPSHOT_SUFFIX.test(candidate.slice(name.length)))
    ? name.length
    : -1

const LOOKUP_CACHE_LIMIT = 4096

const makePricing = (genai: GenaiPrices, overrides: PricingOverrides): PricingService => {
  // A user's rows are searched first: a model they price is priced their way, whatever the maintained table says.
  const rows: ReadonlyArray<MatchRow> = overrides.map((o) => ({
    provider: o.provider === null ? null : canonicalProvider(o.provider),
    names: [normalizeModel(o.model)],
    price: o.price,
  }))
  const knownProviders = new Set(rows.flatMap((r) => (r.provider === null ? [] : [r.provider])))

  const best = (scope: string | undefined, candidate: string): ModelPrice | undefined => {
    let found: ModelPrice | undefined
    let longest = -1
    for (const row of rows) {
      if (scope !== undefined && row.provider !== null && row.provider !== scope) continue
      for (const name of row.names) {
        const length = matchLength(name, candidate)
        if (length > longest) {
          longest = length
          found = row.price
        }
      }
    }
    return found
  }

  const resolveOverride = (provider: string | null, model: string): ModelPrice | undefined => {
    const explicit = provider === null || provider.trim() === "" ? undefined : canonicalProvider(provider)
    for (const { name, implied } of candidates(model)) {
      // A provider named inside the model id is more specific than the label of the endpoint it went through.
      const wanted = implied ?? explicit
      const scope = wanted !== undefined && knownProviders.has(wanted) ? wanted : undefined
      const price = best(scope, name)
      if (price !== undefined) return price
    }
    return undefined
  }

  const resolve = (provider: string | null, model: string): ModelPrice | undefined => {
    if (rows.length === 0) return maintainedPrice(genai, provider, model)
    const own = resolveOverride(provider, model)
    if (own !== undefined) return own
    // A provider only the user prices (their gateway, `local`) is theirs alone: its other models stay unpriced.
    const named = provider === null || provider.trim() === "" ? undefined : canonicalProvider(provider)
    const theirsAlone = named !== undefined && knownProviders.has(named) && !isMaintainedProvider(genai, named)
    return theirsAlone ? undefined : maintainedPrice(genai, provider, model)
  }

  const cache = new Map<string, ModelPrice | null>()
  const lookup = (provider: string | null, model: string): ModelPrice | undefined => {
    const key = `${provider ?? ""}\u0000${model}`
    const hit = cache.get(key)
    if (hit !== undefined) return hit ?? undefined
    const price = resolve(provider, model)
    if (cache.size >= LOOKUP_CACHE_LIMIT) cache.clear()
    cache.set(key, price ?? null)
    return price
  }

  return {
    lookup,
    costOf: (provider, model, usage) => {
      if (model === null || usage === null) return null
      const price = lookup(provider, model)
      return price === undefined ? null : costOfUsage(price, usage)
    },
    table: () => {
      const maintained = priceTableLine(activePriceTable())
      if (overrides.length === 0) return maintained
      return `${overrides.length} given price${overrides.length === 1 ? "" : "s"} first, then ${maintained}`
    },
  }
}

/**
 * Model prices: the maintained table (`@pydantic/genai-prices`, bundled or refreshed by `proctor pricing update`,
 * see PriceTable), overridden or extended by a user's file.
 */
export class Pricing extends Context.Tag("@proctor/core/Pricing")<Pricing, PricingService>() {
  /** Loads the maintained table the first time a process asks (see internal/genaiPrices.ts). */
  static readonly make = (overrides: PricingOverrides = []): Effect.Effect<PricingService> =>
    Effect.map(loadGenaiPrices, (genai) => makePricing(genai, overrides))

  static readonly layer = (overrides: PricingOverrides = []): Layer.Layer<Pricing> =>
    Layer.effect(Pricing, Pricing.make(overrides))

  /** The maintained table alone when `path` is undefined. */
  static readonly layerFile = (path: string | undefined): Layer.Layer<Pricing, ConfigError> =>
    Layer.effect(Pricing, path === undefined ? Pricing.make() : Effect.flatMap(loadPricingFile(path), Pricing.make))
}

const Rate = Schema.Number.pipe(Schema.finite(), Schema.nonNegative())
const PriceEntry = Schema.Struct({
  input: Rate,
  output: Rate,
  cached_input: Schema.optionalWith(Rate, { exact: true }),
})
const PriceEntries = Schema.Record({ key: Schema.String, value: PriceEntry })

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const renderPricingPath = (prefix: string, path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((acc, key) => {
    const k = String(key)
    if (IDENTIFIER.test(k)) return acc === "" ? k : `${acc}.${k}`
    return `${acc}[${JSON.stringify(k)}]`
  }, prefix)

const parseKey = (key: string): { readonly provider: string | null; readonly model: string } | undefined => {
  const slash = key.indexOf("/")
  if (slash === -1) return key.trim() === "" ? undefined : { provider: null, model: key.trim() }
  const provider = key.slice(0, slash).trim()
  const model = key.slice(slash + 1).trim()
  return provider === "" || model === "" ? undefined : { provider, model }
}

/**
 * Prices from a parsed pricing document: `{"provider/model": {input, output, cached_input?}}` or the same map
 * under `"models"` (where other top-level keys, such as a note on the source, are ignored). The provider is
 * the part before the first `/`, so Groq's `openai/gpt-oss-20b` is written `groq/openai/gpt-oss-20b`; a key
 * without `/` prices that model under any provider.
 */
export const decodePricingOverrides = (
  document: unknown,
  source: string,
): Either.Either<PricingOverrides, ConfigError> => {
  const nested = isRecord(document) && "models" in document
  const prefix = nested ? "models" : ""
  const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message })
  return Schema.decodeUnknownEither(PriceEntries, { errors: "all", onExcessProperty: "error" })(
    nested ? document.models : document,
  ).pipe(
    Either.mapLeft((error) =>
      invalid(formatParseIssues(error, (p) => `${source}: ${renderPricingPath(prefix, p) || "(top level)"}`)),
    ),
    Either.flatMap((entries) => {
      const overrides: Array<PriceOverride> = []
      for (const [key, price] of Object.entries(entries)) {
        const parsed = parseKey(key)
        if (parsed === undefined) {
          const where = renderPricingPath(prefix, [key])
          return Either.left(invalid(`${source}: ${where}: expected a key "provider/model" or "model"`))
        }
        overrides.push({ ...parsed, price })
      }
      return Either.right(overrides)
    }),
  )
}

/** Reads a JSON pricing file (see `decodePricingOverrides`); every bad entry is named by its key path. */
export const loadPricingFile = Effect.fn("loadPricingFile")(function* (path: string) {
  const text = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: () => new ConfigError({ reason: "FileNotFound", message: `pricing file ${path} cannot be read` }),
  })
  const document = yield* Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: (e) =>
      new ConfigError({ reason: "InvalidValue", message: `${path}: not valid JSON: ${(e as Error).message}` }),
  })
  return yield* decodePricingOverrides(document, path)
})
