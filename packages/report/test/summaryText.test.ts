import { describe, expect, it } from "@effect/vitest"
import { formatSummaryText } from "../src/summaryText.js"
import { result, summaryOf } from "./fixtures.js"

const run = [
  result({ seed: 0, score: 1, latency_ms: 100, tokens: 1200, cost_usd: 0.0012 }),
  result({ seed: 1, score: 0.5, latency_ms: 200, tokens: 800, cost_usd: 0.0008, retries: 1 }),
  result({ seed: 2, score: 0, latency_ms: 300, tokens: 1000, cost_usd: 0.001 }),
  result({ seed: 3, status: "error", error_kind: "timeout", error: "deadline", latency_ms: 400 }),
]

describe("formatSummaryText", () => {
  it("prints a compact block with score ± CI, errors by kind, latency, tokens and cost", () => {
    expect(formatSummaryText(summaryOf(run, { attempts: 1, passThreshold: 1, planned: 5 }))).toBe(
      [
        "Summary (run run-7)",
        "  score             0.5 ± 1.2421 (95% CI -0.7421 – 1.7421, n=3)",
        "  pass rate         0.3333 (score ≥ 1)",
        "  with errors as 0  0.375 mean · 0.25 pass rate (n=4)",
        "  rollouts          4 of 5 completed · 3 ok · 1 errored (timeout 1) · 1 missing",
        "  valid             no — 1 of 5 rollouts missing; 25% of rollouts errored (more than 5%)",
        "  latency ms        p50 250 · p90 370 · p99 397 · max 400 · mean 250",
        "  tokens            3,000 total · 1,000 per rollout (3 rollouts)",
        "  cost              $0.003 total · $0.001 per rollout · $0.003 per correct answer (3 priced)",
        "  retries           1",
        "  duration          2.5 s · 1.6 rollouts/s",
      ].join("\n"),
    )
  })

  it("says unpriced and unreported instead of showing zeros, and lists pass@k", () => {
    const text = formatSummaryText(
      summaryOf([result({ seed: 0, attempt: 0, score: 1 }), result({ seed: 0, attempt: 1, score: 0 })], {
        attempts: 2,
        passThreshold: 1,
      }),
    )
    expect(text).toContain("  pass@k            @1 0.5 · @2 1\n")
    expect(text).toContain("  valid             yes\n")
    expect(text).toContain("  latency ms        -\n")
    expect(text).toContain("  tokens            unreported\n")
    expect(text).toContain("  cost              unpriced\n")
  })

  it("handles a run where nothing was scored", () => {
    const text = formatSummaryText(summaryOf([]))
    expect(text).toContain("  score             - (no scored rollouts)\n")
    expect(text).toContain("  valid             no — no rollout completed\n")
  })
})
