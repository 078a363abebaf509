import { describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import { compareResults, formatComparisonMarkdown, formatComparisonText } from "@proctor/report"
import { result } from "./fixtures.js"

/** One scored rollout per seed (seeds 0, 1, …), each rollout's score as given. */
const run = (scores: ReadonlyArray<number>, extra: (seed: number) => Partial<EvalResult> = () => ({})) =>
  scores.map((score, seed) => result({ seed, score, ...extra(seed) }))

/** 0/1 scores of seeds 0…n−1 from the pass patterns of A and B: `both`, `aOnly`, `bOnly`, `neither` seeds. */
const passFail = (counts: { both: number; aOnly: number; bOnly: number; neither: number }) => {
  const a: Array<number> = []
  const b: Array<number> = []
  const push = (n: number, x: number, y: number) => {
    for (let i = 0; i < n; i++) {
      a.push(x)
      b.push(y)
    }
  }
  push(counts.both, 1, 1)
  push(counts.aOnly, 1, 0)
  push(counts.bOnly, 0, 1)
  push(counts.neither, 0, 0)
  return { a: run(a), b: run(b) }
}

describe("compareResults: paired t-test, by hand", () => {
  // d = B − A = [0.3, 0.2, 0.1]: d̄ = 0.2, sd = √((0.01 + 0 + 0.01)/2) = 0.1, SE = 0.1/√3, t = 2√3, df = 2.
  const c = compareResults(run([0.2, 0.4, 0.9]), run([0.5, 0.6, 1.0]))
  const se = 0.1 / Math.sqrt(3)

  it("gives the means, the difference, its paired SE and the Student-t 95% CI", () => {
    expect(c.test).toBe("paired_t")
    expect(c.pairs).toBe(3)
    expect(c.mean_a).toBeCloseTo(0.5, 12)
    expect(c.mean_b).toBeCloseTo(0.7, 12)
    expect(c.diff).toBeCloseTo(0.2, 12)
    expect(c.se).toBeCloseTo(se, 12)
    expect(c.df).toBe(2)
    // t_{0.975, 2} = 4.3027 (printed tables)
    expect(c.ci95![0]).toBeCloseTo(0.2 - 4.3027 * se, 12)
    expect(c.ci95![1]).toBeCloseTo(0.2 + 4.3027 * se, 12)
  })

  it("gives the two-sided p-value: with 2 df, p = 1 − |t| / √(2 + t²)", () => {
    const t = 2 * Math.sqrt(3)
    expect(c.p_value).toBeCloseTo(1 - t / Math.sqrt(2 + t * t), 12) // 0.07418
    expect(c.verdict).toBe("no_significant_difference")
  })

  it("gives the correlation: Σdxdy / √(Σdx² Σdy²) = 0.19 / √(0.26 · 0.14)", () => {
    expect(c.correlation).toBeCloseTo(0.19 / Math.sqrt(0.26 * 0.14), 12)
  })

  it("gives the smallest difference detectable at 80% power: (t_.975 + t_.8) · sd / √n", () => {
    // With 2 df, P(T ≤ t) = ½ + t / (2√(2 + t²)), so t_.8 = 0.6 · √2 / √(1 − 0.36) = 1.06066.
    const t80 = (0.6 * Math.SQRT2) / 0.8
    expect(c.mde80).toBeCloseTo((4.3027 + t80) * se, 10)
  })

  it("matches scipy's ttest_rel and pearsonr on eight pairs", () => {
    const a = [0.2, 0.5, 0.6, 0.4, 0.9, 0.3, 0.7, 0.5]
    const b = [0.4, 0.6, 0.5, 0.7, 1.0, 0.6, 0.8, 0.6]
    const eight = compareResults(run(a), run(b))
    // d̄ = 1.1 / 8; Σ(d − d̄)² = 0.11875 by hand; scipy 1.17: t = 2.985931927168504, p = 0.020343195168194314.
    expect(eight.diff).toBeCloseTo(0.1375, 12)
    expect(eight.se).toBeCloseTo(Math.sqrt(0.11875 / 7) / Math.sqrt(8), 12)
    expect(eight.diff! / eight.se!).toBeCloseTo(2.985931927168504, 10)
    expect(eight.p_value).toBeCloseTo(0.020343195168194314, 10)
    expect(eight.correlation).toBeCloseTo(0.8122788275388332, 10)
    expect(eight.verdict).toBe("b_better")
    // t tables: t_{.975, 7} = 2.3646, t_{.8, 7} = 0.8960.
    expect(eight.mde80).toBeCloseTo((2.3646 + 0.896) * Math.sqrt(0.11875 / 7 / 8), 4)
  })

  it("approaches (1.96 + 0.84) · sd / √n with many pairs", () => {
    const n = 20_000
    const a = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 0.25 : 0.75))
    const b = Array.from({ length: n }, (_, i) => (i % 4 < 2 ? 0.25 : 0.75))
    const big = compareResults(run(a), run(b))
    const sd = Math.sqrt(n / (n - 1) / 8) // d ∈ {0, ±0.5}: half 0, a quarter each ±0.5
    expect(big.mde80).toBeCloseTo(((1.959964 + 0.841621) * sd) / Math.sqrt(n), 5)
  })
})

describe("compareResults: McNemar's exact test for pass/fail with one attempt", () => {
  it("tests the discordant pairs: b = 1, c = 7 gives p = 2 · (1 + 8) / 2⁸", () => {
    const { a, b } = passFail({ both: 5, aOnly: 1, bOnly: 7, neither: 7 })
    const c = compareResults(a, b)
    expect(c.test).toBe("mcnemar_exact")
    expect(c.p_value).toBeCloseTo(18 / 256, 14)
    expect(c.diff).toBeCloseTo(6 / 20, 12)
    expect(c.verdict).toBe("no_significant_difference")
    expect(c.flips).toEqual({ a_only: [5], b_only: [6, 7, 8, 9, 10, 11, 12] })
  })

  it("calls 6 flips to B and none back significant (p = 2/2⁶), and the mirror image worse", () => {
    const { a, b } = passFail({ both: 10, aOnly: 0, bOnly: 6, neither: 4 })
    const better = compareResults(a, b)
    expect(better.p_value).toBeCloseTo(2 / 64, 14)
    expect(better.verdict).toBe("b_better")
    const worse = compareResults(b, a)
    expect(worse.p_value).toBeCloseTo(2 / 64, 14)
    expect(worse.verdict).toBe("b_worse")
    expect(worse.flips).toEqual({ a_only: [10, 11, 12, 13, 14, 15], b_only: [] })
  })

  it("gives p = 1 without discordant pairs", () => {
    const { a, b } = passFail({ both: 3, aOnly: 0, bOnly: 0, neither: 2 })
    const c = compareResults(a, b)
    expect(c.p_value).toBe(1)
    expect(c.diff).toBe(0)
    expect(c.mde80).toBeNull() // identical differences say nothing about how much they would vary
  })

  it("falls back to the paired t-test with several attempts or scores between 0 and 1", () => {
    const { a, b } = passFail({ both: 5, aOnly: 1, bOnly: 7, neither: 7 })
    const twice = [...b, ...b.map((r) => ({ ...r, attempt: 1 }))]
    expect(compareResults(a, twice).test).toBe("paired_t")
    expect(compareResults(a, [...b.slice(1), result({ seed: 0, score: 0.5 })]).test).toBe("paired_t")
  })
})

describe("compareResults: pairing, errors and deltas", () => {
  it("pairs each seed's mean over its attempts, excludes errored rollouts and counts unmatched seeds", () => {
    const a = [
      result({ seed: 1, attempt: 0, score: 1 }),
      result({ seed: 1, attempt: 1, score: 0 }),
      result({ seed: 2, attempt: 0, score: 1 }),
      result({ seed: 2, attempt: 1, status: "error", error_kind: "timeout", error: "timed out" }),
      result({ seed: 3, attempt: 0, score: 0 }),
      result({ seed: 4, attempt: 0, score: 1 }), // not in B
    ]
    const b = [
      result({ seed: 1, attempt: 0, score: 1 }),
      result({ seed: 1, attempt: 1, score: 1 }),
      result({ seed: 2, attempt: 0, score: 0 }),
      result({ seed: 2, attempt: 1, score: 0 }),
      result({ seed: 3, attempt: 0, status: "error", error_kind: "http_5xx", error: "HTTP 502" }),
      result({ seed: 3, attempt: 1, status: "error", error_kind: "http_5xx", error: "HTTP 502" }),
      result({ seed: 5, attempt: 0, score: 0 }), // not in A
      result({ seed: 6, attempt: 0, score: 1 }), // not in A
    ]
    const c = compareResults(a, b)
    expect(c.per_seed).toEqual([
      { seed: 1, a: 0.5, b: 1 },
      { seed: 2, a: 1, b: 0 },
    ])
    expect(c.pairs).toBe(2)
    expect(c.rollouts).toEqual({ a: 3, b: 4 })
    // Seed 3 is scored in A only (B's rollouts of it errored); seeds 4, 5 and 6 are in one run only.
    expect(c.excluded).toEqual({ errored: 3, unmatched: 4, errored_a: 1, errored_b: 2, unmatched_a: 2, unmatched_b: 2 })
    expect(c.flips).toEqual({ a_only: [2], b_only: [1] })
  })

  it("reports no statistics, and says so, without two pairs", () => {
    const c = compareResults(run([0.5]), [result({ seed: 7, score: 1 })])
    expect(c.pairs).toBe(0)
    expect(c.verdict).toBe("too_few_pairs")
    expect([c.mean_a, c.diff, c.se, c.ci95, c.p_value, c.correlation, c.mde80]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ])
    expect(formatComparisonText(c)).toContain("too few pairs to test (0 seeds scored in both runs")
  })

  it("averages tokens, cost and latency per rollout over the paired seeds, errored rollouts included", () => {
    const a = [
      result({ seed: 0, score: 1, tokens: 100, cost_usd: 0.001, latency_ms: 200 }),
      result({ seed: 1, status: "error", error_kind: "timeout", tokens: 300, latency_ms: 1000 }),
      result({ seed: 1, attempt: 1, score: 0, tokens: 200, cost_usd: 0.003, latency_ms: 300 }),
      result({ seed: 9, score: 1, tokens: 10_000 }), // unmatched: not counted
    ]
    const b = [
      result({ seed: 0, score: 1, tokens: 150, latency_ms: 100 }),
      result({ seed: 1, score: 1, tokens: 250, latency_ms: 100 }),
    ]
    const c = compareResults(a, b)
    expect(c.deltas.tokens).toEqual({ a: 200, b: 200, diff: 0 })
    expect(c.deltas.cost_usd.a).toBeCloseTo(0.002, 12)
    expect(c.deltas.cost_usd.b).toBeNull()
    expect(c.deltas.cost_usd.diff).toBeNull()
    expect(c.deltas.latency_ms).toEqual({ a: 500, b: 100, diff: -400 })
  })
})

describe("comparison text", () => {
  const { a, b } = passFail({ both: 10, aOnly: 0, bOnly: 6, neither: 4 })
  const c = compareResults(b, a, { labels: { a: "runs/new", b: "runs/old" }, passThreshold: 1 })

  it("says in words whether the difference is significant, with the test and its p-value", () => {
    const text = formatComparisonText(c)
    expect(text).toContain("Compare A: runs/new · B: runs/old")
    expect(text).toContain("runs/old is significantly worse than runs/new (McNemar's exact test, p = 0.0313)")
    expect(text).toContain("6 passed in A only: 10, 11, 12, 13, 14, 15 · 0 passed in B only")
    expect(text).toContain("B − A −0.30 ± ")
  })

  it("renders the same items as a GitHub markdown table", () => {
    const markdown = formatComparisonMarkdown(c)
    expect(markdown).toMatch(/^### proctor compare — ❌ runs\/old is significantly worse/)
    expect(markdown).toContain("| flips | 6 passed in A only: 10, 11, 12, 13, 14, 15 · 0 passed in B only |")
  })
})
