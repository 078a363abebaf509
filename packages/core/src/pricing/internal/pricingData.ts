import type { ModelPrice } from "../Pricing.js"

export interface PriceRow {
  readonly provider: string
  /** Names this price answers to; the first is the canonical one. Dated snapshots need no row of their own. */
  readonly models: ReadonlyArray<string>
  readonly price: ModelPrice
}

/** USD per token. Literals rather than `x / 1e6`, which would turn 0.15 / 1e6 into 1.4999999999999999e-7. */
const price = (input: number, output: number, cached_input?: number): ModelPrice =>
  cached_input === undefined ? { input, output } : { input, output, cached_input }

const row = (provider: string, models: ReadonlyArray<string>, p: ModelPrice): PriceRow => ({
  provider,
  models,
  price: p,
})

/**
 * List prices (standard tier: no batch, flex or priority discounts) as published in November 2025, checked
 * on 2025-11 against the providers' pricing pages as quoted by third-party price trackers.
 * `cached_input` is OpenAI's "cached input", Anthropic's "cache hits and refreshes", Gemini's context-cache
 * read and Groq's prompt-cache hit rate.
 *
 * Not verified from a source (from the providers' pages as remembered, consistent with their published cache
 * discounts): cached rates of gpt-5 (10% of input), gpt-4.1 / -mini / -nano (25%), o1 and o3 (25–50%);
 * o1-mini and o3-pro; the Gemini context-cache read rates; Groq kimi-k2 and llama-4-maverick; the Groq
 * gpt-oss cache-hit rates (50% of input).
 *
 * Not modelled: Anthropic cache writes (1.25× input, billed here at the input rate), long-context tiers
 * (Gemini 2.5 Pro above 200k prompt tokens: 2.50e-6 / 1.5e-5; Claude Sonnet 4/4.5 above 200k: 6e-6 / 2.25e-5),
 * audio and image token rates.
 */
export const builtinPrices: ReadonlyArray<PriceRow> = [
  // OpenAI
  row("openai", ["gpt-5.1", "gpt-5.1-chat-latest"], price(1.25e-6, 1e-5, 1.25e-7)),
  row("openai", ["gpt-5", "gpt-5-chat-latest"], price(1.25e-6, 1e-5, 1.25e-7)),
  row("openai", ["gpt-5-mini"], price(2.5e-7, 2e-6, 2.5e-8)),
  row("openai", ["gpt-5-nano"], price(5e-8, 4e-7, 5e-9)),
  row("openai", ["gpt-5-pro"], price(1.5e-5, 1.2e-4)),
  row("openai", ["gpt-4.1"], price(2e-6, 8e-6, 5e-7)),
  row("openai", ["gpt-4.1-mini"], price(4e-7, 1.6e-6, 1e-7)),
  row("openai", ["gpt-4.1-nano"], price(1e-7, 4e-7, 2.5e-8)),
  row("openai", ["gpt-4o"], price(2.5e-6, 1e-5, 1.25e-6)),
  // The first gpt-4o snapshot kept its launch price; longest match lets it win over plain gpt-4o.
  row("openai", ["gpt-4o-2024-05-13"], price(5e-6, 1.5e-5)),
  row("openai", ["gpt-4o-mini"], price(1.5e-7, 6e-7, 7.5e-8)),
  row("openai", ["o1"], price(1.5e-5, 6e-5, 7.5e-6)),
  row("openai", ["o1-mini"], price(1.1e-6, 4.4e-6, 5.5e-7)),
  row("openai", ["o3"], price(2e-6, 8e-6, 5e-7)),
  row("openai", ["o3-pro"], price(2e-5, 8e-5)),
  row("openai", ["o3-mini"], price(1.1e-6, 4.4e-6, 5.5e-7)),
  row("openai", ["o4-mini"], price(1.1e-6, 4.4e-6, 2.75e-7)),

  // Anthropic (`cached_input` = cache read)
  row("anthropic", ["claude-opus-4-5"], price(5e-6, 2.5e-5, 5e-7)),
  row("anthropic", ["claude-opus-4-1"], price(1.5e-5, 7.5e-5, 1.5e-6)),
  row("anthropic", ["claude-opus-4", "claude-opus-4-0"], price(1.5e-5, 7.5e-5, 1.5e-6)),
  row("anthropic", ["claude-sonnet-4-5"], price(3e-6, 1.5e-5, 3e-7)),
  row("anthropic", ["claude-sonnet-4", "claude-sonnet-4-0"], price(3e-6, 1.5e-5, 3e-7)),
  row("anthropic", ["claude-3-7-sonnet"], price(3e-6, 1.5e-5, 3e-7)),
  row("anthropic", ["claude-haiku-4-5"], price(1e-6, 5e-6, 1e-7)),
  row("anthropic", ["claude-3-5-haiku", "claude-haiku-3-5"], price(8e-7, 4e-6, 8e-8)),
  row("anthropic", ["claude-3-haiku"], price(2.5e-7, 1.25e-6, 3e-8)),

  // Google Gemini API (prompts up to 200k tokens)
  row("google", ["gemini-2.5-pro"], price(1.25e-6, 1e-5, 1.25e-7)),
  row("google", ["gemini-2.5-flash"], price(3e-7, 2.5e-6, 3e-8)),
  row("google", ["gemini-2.5-flash-lite"], price(1e-7, 4e-7, 1e-8)),
  row("google", ["gemini-2.0-flash"], price(1e-7, 4e-7, 2.5e-8)),

  // Groq-hosted open models (Groq's model ids, some of which carry an org prefix)
  row("groq", ["llama-3.1-8b-instant"], price(5e-8, 8e-8)),
  row("groq", ["llama-3.3-70b-versatile"], price(5.9e-7, 7.9e-7)),
  row("groq", ["openai/gpt-oss-20b"], price(7.5e-8, 3e-7, 3.75e-8)),
  row("groq", ["openai/gpt-oss-120b"], price(1.5e-7, 6e-7, 7.5e-8)),
  row("groq", ["qwen/qwen3-32b"], price(2.9e-7, 5.9e-7)),
  row("groq", ["meta-llama/llama-4-scout-17b-16e-instruct"], price(1.1e-7, 3.4e-7)),
  row("groq", ["meta-llama/llama-4-maverick-17b-128e-instruct"], price(2e-7, 6e-7)),
  row("groq", ["moonshotai/kimi-k2-instruct", "moonshotai/kimi-k2-instruct-0905"], price(1e-6, 3e-6, 5e-7)),
]

/**
 * Names clients use for the providers above. Anything else (openrouter, vertex, bedrock, together…) is an
 * unknown provider and every row is searched, because those hosts resell several vendors' models.
 */
export const providerAliases: Readonly<Record<string, string>> = {
  openai: "openai",
  azure: "openai",
  azure_openai: "openai",
  anthropic: "anthropic",
  claude: "anthropic",
  google: "google",
  gemini: "google",
  google_genai: "google",
  "google-genai": "google",
  groq: "groq",
}
