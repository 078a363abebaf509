import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { testCall } from "@proctor/test-kit"
import { afterEach, describe, expect, it } from "vitest"
import { sumCallSpending } from "../src/store/internal/callSpending.js"
import { SummaryAccumulator } from "../src/summary/Summary.js"

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cached_tokens: null, reasoning_tokens: null }
let dir: string | undefined

afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

const summaryOf = async (calls: ReadonlyArray<object>) => {
  dir = mkdtempSync(join(tmpdir(), "proctor-cache-spending-"))
  const path = join(dir, "model_calls.jsonl")
  writeFileSync(path, calls.map((call) => `${JSON.stringify(call)}\n`).join(""))
  const callSpending = await sumCallSpending(path, () => false)
  const summary = new SummaryAccumulator({ attempts: 1, passThreshold: 1 }).summarize({
    runId: "r",
    plannedKeys: 0,
    missingKeys: [],
    durationMs: 1,
    callSpending,
  })
  return summary
}

describe("spend avoided by the response cache", () => {
  it("counts cached calls' tokens, not their cost, and reports what they would have cost", async () => {
    const summary = await summaryOf([
      testCall({ usage, cost_usd: 0.002 }),
      testCall({ usage, cost_usd: 0, cached: true, avoided_cost_usd: 0.002 }),
      testCall({ usage, cost_usd: 0, cached: true, avoided_cost_usd: 0.003 }),
    ])
    expect(summary.tokens.total).toBe(45)
    expect(summary.cost_usd.total).toBe(0.002)
    expect(summary.cache).toEqual({ calls: 2, avoided_usd: 0.005 })
  })

  it("an unpriced cached call avoided an unknown spend, never $0; without cached calls there is no cache line", async () => {
    const unpriced = await summaryOf([testCall({ usage, cost_usd: 0, cached: true, avoided_cost_usd: null })])
    expect(unpriced.cache).toEqual({ calls: 1, avoided_usd: null })
    expect((await summaryOf([testCall({ usage, cost_usd: 0.001 })])).cache).toBeUndefined()
  })
})
