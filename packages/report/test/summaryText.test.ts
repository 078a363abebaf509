import { describe, expect, it } from "@effect/vitest"
import { SummaryAccumulator } from "@proctor/core"
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
        // ± to two significant digits of the half-width, the mean and bounds to as many decimals
        "  score             0.5 ± 1.2 (95% CI -0.7 – 1.7; n=3; rollouts independent)",
        "  pass rate         0.3333 (score ≥ 1)",
        "  with errors as 0  0.38 ± 0.76 (n=4) · 0.25 pass rate",
        "  rollouts          4 of 5 completed · 3 ok · 1 errored (timeout 1) · 1 missing",
        "  valid             no — 1 of 5 rollouts missing; 25% of rollouts errored (more than 5%)",
        "  latency ms        p50 250 · p90 370 · p99 397 · max 400 · mean 250",
        "  tokens            3,000 total · 1,000 per rollout (3 rollouts)",
        "  cost              $0.003 total · $0.001 per rollout · $0.003 per correct answer (3 priced) · prices: @pydantic/genai-prices 0.1.8 (bundled), 2026-09-23",
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
    expect(text).toContain(
      "  cost              unpriced · prices: @pydantic/genai-prices 0.1.8 (bundled), 2026-09-23\n",
    )
  })

  it("shows an agent run's stop reasons and nanoeval's length statistics", () => {
    const agentRun = [
      result({ seed: 0, score: 1, stop_reason: "model_ended", messages: 4 }),
      result({ seed: 1, score: 0, stop_reason: "max_turns", messages: 12 }),
      result({ seed: 2, score: 0, stop_reason: "max_turns", messages: 10 }),
      result({ seed: 3, score: 0, stop_reason: "max_time", messages: 6 }),
    ]
    const text = formatSummaryText(summaryOf(agentRun, { attempts: 1, passThreshold: 1 }))
    expect(text).toContain("  stop reasons      max_turns 2 · model_ended 1 · max_time 1\n")
    expect(text).toContain(
      "  of completions    correct 0.25 · wrong, by max_time 0.25 · max_turns 0.5 · max_tokens 0 · max_cost 0 · model ended 0 (4 completions) · messages p25 5.5 · p50 8 · p75 10.5\n",
    )
  })

  it("handles a run where nothing was scored", () => {
    const text = formatSummaryText(summaryOf([]))
    expect(text).toContain("  score             - (no scored rollouts)\n")
    expect(text).toContain("  valid             no — no rollout completed\n")
  })

  it("reports a clustered error bar with the seeds behind it and the per-seed spread", () => {
    // 100 seeds × 2 identical attempts, 87 seeds passing: Wilson's interval over the clustered error's effective
    // sample of 99, 0.789–0.923 (core's Summary test derives it by hand), where independent rollouts would claim
    // half that width's 0.047.
    const results = Array.from({ length: 200 }, (_, i) =>
      result({ seed: i >> 1, attempt: i & 1, score: i >> 1 < 87 ? 1 : 0 }),
    )
    const text = formatSummaryText(summaryOf(results, { attempts: 2, passThreshold: 1 }))
    expect(text).toContain(
      "  score             0.870 (95% CI 0.789 – 0.923; n=200 rollouts over 100 seeds; clustered by seed: 100 clusters)\n",
    )
    expect(text).toContain(
      "  seeds             per-seed mean 0.87 · sd 0.338 across seeds · 0% of the variance within seeds\n",
    )
  })

  it("labels this session's rate and the whole run's after a resume", () => {
    const earlier = (seed: number) =>
      result({ seed, score: 1, started_at: "2025-01-01T00:00:00.000Z", finished_at: "2025-01-01T00:00:10.000Z" })
    const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1 })
    for (let seed = 0; seed < 120; seed++) acc.addFromEarlierSession(earlier(seed))
    for (let seed = 120; seed < 240; seed++) acc.add(result({ seed, score: 1 }))
    const summary = acc.summarize({ runId: "r", plannedKeys: 240, missingKeys: [], durationMs: 9700 })
    expect(formatSummaryText(summary)).toContain(
      "  duration          this session 120 rollouts in 9.7 s · 12.4 rollouts/s; whole run 240 rollouts in 19.7 s · 12.2 rollouts/s",
    )
  })
})
