import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { loadPricingFile, Pricing } from "../src/pricing/Pricing.js"
import type { TokenUsage } from "../src/result/ModelCall.js"

const usage = (u: Partial<TokenUsage>): TokenUsage => ({
  prompt_tokens: null,
  completion_tokens: null,
  total_tokens: null,
  cached_tokens: null,
  reasoning_tokens: null,
  ...u,
})

const dir = mkdtempSync(join(tmpdir(), "proctor-pricing-"))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const pricing = await Effect.runPromise(Pricing.make())

describe("Pricing.lookup", () => {
  it("knows list prices in USD per token", () => {
    expect(pricing.lookup("openai", "gpt-4o-mini")).toEqual({ input: 1.5e-7, output: 6e-7, cached_input: 7.5e-8 })
    expect(pricing.lookup("openai", "gpt-5")).toEqual({ input: 1.25e-6, output: 1e-5, cached_input: 1.25e-7 })
    expect(pricing.lookup("anthropic", "claude-sonnet-4-5")?.cached_input).toBe(3e-7)
    expect(pricing.lookup("google", "gemini-2.5-flash-lite")?.input).toBe(1e-7)
    expect(pricing.lookup("groq", "llama-3.3-70b-versatile")).toEqual({ input: 5.9e-7, output: 7.9e-7 })
  })

  it("matches dated snapshot names to their base model", () => {
    expect(pricing.lookup("openai", "gpt-4o-mini-2024-07-18")?.input).toBe(1.5e-7)
    expect(pricing.lookup("anthropic", "claude-sonnet-4-5-20250929")?.input).toBe(3e-6)
    expect(pricing.lookup("anthropic", "claude-opus-4-1-20250805")?.input).toBe(1.5e-5)
    expect(pricing.lookup("anthropic", "claude-3-5-haiku-latest")?.input).toBe(8e-7)
    expect(pricing.lookup(null, "claude-sonnet-4-5@20250929")?.input).toBe(3e-6)
    expect(pricing.lookup(null, "anthropic.claude-haiku-4-5-20251001-v1:0")?.input).toBe(1e-6)
    expect(pricing.lookup("google", "gemini-2.5-flash-preview-09-2025")?.input).toBe(3e-7)
    expect(pricing.lookup("groq", "moonshotai/kimi-k2-instruct-0905")?.input).toBe(1e-6)
  })

  it("lets the longest name win, and never reads a word suffix as a snapshot", () => {
    expect(pricing.lookup("openai", "gpt-4o-mini")?.input).toBe(1.5e-7)
    expect(pricing.lookup("openai", "gpt-4o-2024-08-06")?.input).toBe(2.5e-6)
    // The first gpt-4o snapshot has a price of its own.
    expect(pricing.lookup("openai", "gpt-4o-2024-05-13")?.input).toBe(5e-6)
    expect(pricing.lookup("openai", "gpt-5-mini-2025-08-07")?.input).toBe(2.5e-7)
    expect(pricing.lookup("openai", "o3-mini-2025-01-31")?.input).toBe(1.1e-6)
    expect(pricing.lookup("anthropic", "claude-opus-4-5-20251101")?.input).toBe(5e-6)
    // Unknown variants of known models stay unpriced rather than borrowing the base model's price.
    // The maintained table prices these by rows of their own, never by falling back to gpt-4o(-mini).
    expect(pricing.lookup("openai", "gpt-4o-mini-tts")?.output).toBe(1.2e-5)
  })

  it("understands provider prefixes, any case, and a missing provider", () => {
    expect(pricing.lookup(null, "openai/gpt-4o")?.input).toBe(2.5e-6)
    expect(pricing.lookup(null, "groq:llama-3.3-70b-versatile")?.input).toBe(5.9e-7)
    expect(pricing.lookup("openrouter", "anthropic/claude-sonnet-4.5")?.input).toBe(3e-6)
    expect(pricing.lookup(null, "models/gemini-2.5-pro")?.input).toBe(1.25e-6)
    expect(pricing.lookup("OpenAI", "GPT-4.1-Mini")?.input).toBe(4e-7)
    expect(pricing.lookup("azure", "gpt-4.1-nano")?.input).toBe(1e-7)
    expect(pricing.lookup(null, "claude-haiku-4-5")?.input).toBe(1e-6)
    // Groq's ids carry the model's org; that is not the provider that bills for it.
    expect(pricing.lookup("groq", "openai/gpt-oss-20b")).toEqual({ input: 7.5e-8, output: 3e-7, cached_input: 3.75e-8 })
    // Without a provider the `openai/` prefix now means OpenAI's own row (the hand table only had Groq's).
    expect(pricing.lookup("groq", "openai/gpt-oss-120b")?.input).toBe(1.5e-7)
  })

  it("keeps a known provider's scope: another provider's model is not priced under it", () => {
    expect(pricing.lookup("openai", "llama-3.3-70b-versatile")).toBeUndefined()
    expect(pricing.lookup("groq", "gpt-4o")).toBeUndefined()
    expect(pricing.lookup("openai", "baseline")).toBeUndefined()
    expect(pricing.lookup(null, "my-finetune")).toBeUndefined()
  })
})

describe("Pricing.table", () => {
  it("names the maintained table, after the given prices when there are any", async () => {
    const price = { input: 1e-7, output: 2e-7 }
    const given = await Effect.runPromise(
      Pricing.make([
        { provider: "local", model: "baseline", price },
        { provider: null, model: "house-model", price },
      ]),
    )
    expect(pricing.table()).toBe("@pydantic/genai-prices 0.1.8 (bundled), 2026-09-23")
    expect(given.table()).toBe("2 given prices first, then @pydantic/genai-prices 0.1.8 (bundled), 2026-09-23")
  })
})

describe("Pricing.costOf", () => {
  it("prices prompt and completion tokens", () => {
    const cost = pricing.costOf("openai", "gpt-4o-mini", usage({ prompt_tokens: 1000, completion_tokens: 500 }))
    expect(cost).toBe(1000 * 1.5e-7 + 500 * 6e-7)
    expect(cost).toBe(0.00045)
  })

  it("bills cached prompt tokens at the cached-input rate, and reasoning tokens only once", () => {
    const cost = pricing.costOf(
      "openai",
      "gpt-5-mini-2025-08-07",
      usage({ prompt_tokens: 10_000, cached_tokens: 8_000, completion_tokens: 2_000, reasoning_tokens: 1_500 }),
    )
    expect(cost).toBeCloseTo(2_000 * 2.5e-7 + 8_000 * 2.5e-8 + 2_000 * 2e-6, 15)
  })

  it("bills Anthropic cache reads at the cache-read rate", () => {
    // Anthropic reports cache reads apart from input_tokens; the interceptor folds them into prompt_tokens.
    const cost = pricing.costOf(
      "anthropic",
      "claude-sonnet-4-5-20250929",
      usage({ prompt_tokens: 12_000, cached_tokens: 10_000, completion_tokens: 300 }),
    )
    expect(cost).toBeCloseTo(2_000 * 3e-6 + 10_000 * 3e-7 + 300 * 1.5e-5, 15)
    expect(cost).toBe(0.0135)
  })

  it("falls back to the input rate where a model has no cached rate", () => {
    const cost = pricing.costOf("groq", "llama-3.1-8b-instant", usage({ prompt_tokens: 100, cached_tokens: 50 }))
    expect(cost).toBeCloseTo(100 * 5e-8, 15)
  })

  it("computes from what usage there is, and is null when nothing can be priced", () => {
    expect(pricing.costOf("openai", "gpt-4o-mini", usage({ prompt_tokens: 1000 }))).toBe(0.00015)
    expect(pricing.costOf("openai", "gpt-4o-mini", usage({ completion_tokens: 1000 }))).toBe(0.0006)
    // The missing side is recovered from the total.
    expect(pricing.costOf("openai", "gpt-4o-mini", usage({ total_tokens: 1500, completion_tokens: 500 }))).toBe(0.00045)
    expect(pricing.costOf("openai", "gpt-4o-mini", usage({ total_tokens: 1500 }))).toBeNull()
    expect(pricing.costOf("openai", "gpt-4o-mini", null)).toBeNull()
    expect(pricing.costOf("openai", null, usage({ prompt_tokens: 1 }))).toBeNull()
  })

  it("is null, never 0, for an unknown model", () => {
    expect(pricing.costOf(null, "my-finetune", usage({ prompt_tokens: 10, completion_tokens: 10 }))).toBeNull()
    expect(pricing.costOf("local", "baseline", usage({ prompt_tokens: 10, completion_tokens: 10 }))).toBeNull()
  })

  it("a zero-token call of a priced model costs 0", () => {
    expect(pricing.costOf("openai", "gpt-4o", usage({ prompt_tokens: 0, completion_tokens: 0 }))).toBe(0)
  })
})

describe("loadPricingFile", () => {
  it.effect("overrides and extends the table; longest match still decides", () =>
    Effect.gen(function* () {
      const path = file(
        "prices.json",
        JSON.stringify({
          models: {
            "openai/gpt-4o-mini": { input: 1e-7, output: 2e-7 },
            "local/baseline": { input: 1e-7, output: 4e-7 },
            "my-finetune": { input: 3e-6, output: 1.2e-5, cached_input: 1.5e-6 },
          },
        }),
      )
      const custom = yield* Pricing.make(yield* loadPricingFile(path))
      expect(custom.lookup("openai", "gpt-4o-mini-2024-07-18")).toEqual({ input: 1e-7, output: 2e-7 })
      expect(custom.lookup("openai", "gpt-4o")?.input).toBe(2.5e-6)
      expect(custom.costOf("local", "baseline", usage({ prompt_tokens: 1000, completion_tokens: 100 }))).toBe(0.00014)
      expect(custom.lookup("anthropic", "my-finetune")?.cached_input).toBe(1.5e-6)
      expect(custom.lookup("local", "gpt-4o")).toBeUndefined()
    }),
  )

  it.effect("accepts the flat form", () =>
    Effect.gen(function* () {
      const path = file("flat.json", JSON.stringify({ "groq/openai/gpt-oss-20b": { input: 1e-7, output: 5e-7 } }))
      const custom = yield* Pricing.make(yield* loadPricingFile(path))
      expect(custom.lookup("groq", "openai/gpt-oss-20b")).toEqual({ input: 1e-7, output: 5e-7 })
    }),
  )

  it.effect("names every bad entry by its key path", () =>
    Effect.gen(function* () {
      const path = file(
        "bad.json",
        JSON.stringify({
          models: {
            "openai/gpt-4o": { input: "cheap", output: 1e-5 },
            "anthropic/claude-x": { input: 1e-6, output: -1 },
            "groq/llama": { input: 1e-7, output: 1e-7, cache: 1e-8 },
            "google/gemini": { output: 1e-7 },
          },
        }),
      )
      const error = yield* Effect.flip(loadPricingFile(path))
      expect(error.reason).toBe("InvalidValue")
      expect(error.message).toContain(`${path}: models["openai/gpt-4o"].input: expected number, got "cheap"`)
      expect(error.message).toContain(`models["anthropic/claude-x"].output: expected a non-negative number`)
      expect(error.message).toContain(`models["groq/llama"].cache: is unexpected`)
      expect(error.message).toContain(`models["google/gemini"].input: is required`)
    }),
  )

  it.effect("rejects keys without a model, files that are not JSON, and missing files", () =>
    Effect.gen(function* () {
      const badKey = yield* Effect.flip(
        loadPricingFile(file("key.json", JSON.stringify({ "openai/": { input: 1, output: 1 } }))),
      )
      expect(badKey.message).toContain(`["openai/"]: expected a key "provider/model" or "model"`)
      const notJson = yield* Effect.flip(loadPricingFile(file("x.json", "{ input: 1")))
      expect(notJson.message).toContain("not valid JSON")
      const missing = yield* Effect.flip(loadPricingFile(join(dir, "nope.json")))
      expect(missing.reason).toBe("FileNotFound")
    }),
  )

  it.effect("ships a demo price for the local baseline model", () =>
    Effect.gen(function* () {
      const path = fileURLToPath(new URL("../../../examples/baseline-model/pricing.json", import.meta.url))
      const demo = yield* Pricing.make(yield* loadPricingFile(path))
      expect(demo.lookup("local", "baseline")).toEqual({ input: 1e-7, output: 4e-7, cached_input: 5e-8 })
    }),
  )

  it.effect("Pricing.layerFile provides the service", () =>
    Effect.gen(function* () {
      const service = yield* Pricing
      expect(service.lookup("openai", "gpt-4o-mini")?.input).toBe(1.5e-7)
    }).pipe(Effect.provide(Pricing.layerFile(undefined))),
  )
})
