import { describe, expect, it } from "@effect/vitest"
import { type JudgeObservation, judgeTrust, SummaryAccumulator } from "@proctor/core"
import { formatSummaryText } from "../src/summaryText.js"
import { result } from "./fixtures.js"

const observation = (item: number, value: string, human: string, grader = "correct"): JudgeObservation => ({
  grader,
  item: String(item),
  kind: "label",
  value,
  score: value === "yes" ? 1 : 0,
  human,
})

describe("the summary of a judged run", () => {
  it("shows the judge's tokens and cost apart from the policy's, and how far the judge agrees with humans", () => {
    const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1 })
    acc.add(result({ seed: 0, score: 1, tokens: 100, cost_usd: 0.001 }))
    acc.add(result({ seed: 1, score: 0, tokens: 100, cost_usd: 0.001 }))
    const observations = [
      ...Array.from({ length: 20 }, (_, i) => observation(i, "yes", "yes")),
      ...Array.from({ length: 5 }, (_, i) => observation(20 + i, "yes", "no")),
      ...Array.from({ length: 10 }, (_, i) => observation(25 + i, "no", "yes")),
      ...Array.from({ length: 15 }, (_, i) => observation(35 + i, "no", "no")),
    ]
    const summary = acc.summarize({
      runId: "run-j",
      plannedKeys: 2,
      missingKeys: [],
      durationMs: 1000,
      callSpending: {
        calls: 2,
        tokens: 200,
        metered: 2,
        costUsd: 0.002,
        priced: 2,
        errorTokens: 0,
        errorCostUsd: 0,
        judge: { calls: 4, tokens: 600, metered: 4, costUsd: 0.0012, priced: 4, rollouts: 2 },
      },
      judgeTrust: judgeTrust(observations),
    })
    expect(summary.tokens.total).toBe(200)
    expect(summary.cost_usd.total).toBe(0.002)
    expect(summary.judge).toEqual({
      calls: 4,
      rollouts_judged: 2,
      tokens: 600,
      tokens_per_rollout: 300,
      cost_usd: 0.0012,
      cost_per_rollout: 0.0006,
    })
    const text = formatSummaryText(summary)
    expect(text).toContain("  tokens            200 total")
    expect(text).toContain(
      "  judge             600 tokens (300 per rollout) · $0.0012 ($0.0006 per rollout) · 4 calls for 2 rollouts",
    )
    expect(text).toMatch(
      /judge correct +vs human labels: kappa 0\.4 \(95% CI [\d.]+ – [\d.]+\) · alpha \(nominal\) [\d.]+ \(95% CI [\d.]+ – [\d.]+\) · n=50 · confusion \(rows human, columns judge; no, yes\): \[15 5\] \[10 20\]/,
    )
  })
})
