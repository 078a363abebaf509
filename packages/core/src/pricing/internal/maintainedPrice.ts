import type { ModelPrice } from "../Pricing.js"
import type { GenaiPrices } from "./genaiPrices.js"
import { modelCandidates } from "./modelCandidates.js"
import { providerAliases } from "./providerAliases.js"

type GenaiRate = number | { readonly base: number } | undefined

/**
 * USD per million tokens → per token. Tiered rates (long prompts) count at their base tier, as the hand-written
 * table did; twelve significant digits drop float noise such as 1.4999999999999999e-7 from 0.15 / 1e6.
 */
const perToken = (rate: GenaiRate): number | undefined => {
  const perMillion = typeof rate === "number" ? rate : rate?.base
  return perMillion === undefined ? undefined : Number((perMillion / 1e6).toPrecision(12))
}

/** genai-prices' id for a provider label: as written when it knows it (azure, openrouter…), else our alias. */
const genaiProvider = ({ findProvider }: GenaiPrices, provider: string | undefined): string | undefined => {
  if (provider === undefined) return undefined
  const lower = provider.trim().toLowerCase()
  if (lower === "") return undefined
  if (findProvider({ providerId: lower }) !== undefined) return lower
  const alias = providerAliases[lower]
  return alias !== undefined && findProvider({ providerId: alias }) !== undefined ? alias : undefined
}

/** Whether the maintained table has prices for this provider label. */
export const isMaintainedProvider = (genai: GenaiPrices, provider: string): boolean =>
  genaiProvider(genai, provider) !== undefined

/**
 * A model's price in the maintained table (genai-prices' matching: snapshots, dated names, each provider's
 * spellings). A provider named inside the id (`openai/gpt-4o`) is more specific than the endpoint's label.
 * A label the table does not know (`local`, a self-hosted gateway) leaves the model to genai-prices' own
 * provider detection. Undefined when no row matches or the row has no token rates: unpriced, never $0.
 */
export const maintainedPrice = (genai: GenaiPrices, provider: string | null, model: string): ModelPrice | undefined => {
  const explicit = genaiProvider(genai, provider ?? undefined)
  for (const { tail, implied } of modelCandidates(model)) {
    const providerId = genaiProvider(genai, implied) ?? explicit
    const found = genai.calcPrice(
      { input_tokens: 0, output_tokens: 0 },
      tail,
      providerId === undefined ? {} : { providerId },
    )
    if (found === null) continue
    const rates = found.model_price as Record<string, GenaiRate>
    const input = perToken(rates.input_mtok)
    if (input === undefined) continue
    const output = perToken(rates.output_mtok) ?? 0
    const cached = perToken(rates.cache_read_mtok)
    return cached === undefined ? { input, output } : { input, output, cached_input: cached }
  }
  return undefined
}
