import { describe, expect, it } from "@effect/vitest"
import { testResult as result } from "@proctor/test-kit"
import { Schema } from "effect"
import type { EvalResult } from "../src/result/EvalResult.js"
import { passAtK, RunSummary, SummaryAccumulator } from "../src/summary/Summary.js"

const failed = (overrides: Partial<EvalResult>): EvalResult =>
  result({ status: "error", error: "boom", error_kind: "timeout", ...overrides })

const summarize = (
  results: ReadonlyArray<EvalResult>,
  options = { attempts: 1, passThreshold: 1 },
  durationMs = 2000,
) => {
  const acc = new SummaryAccumulator(options)
  for (const r of results) acc.add(r)
  return acc.summarize({ runId: "run-1", plannedKeys: results.length, missingKeys: [], durationMs })
}

describe("passAtK", () => {
  it("matches hand-computed values of the unbiased estimator", () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12)
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12)
    // 1 - C(8,3)/C(10,3) = 1 - 56/120
    expect(passAtK(10, 2, 3)).toBeCloseTo(1 - 56 / 120, 12)
    expect(passAtK(5, 0, 3)).toBe(0)
    expect(passAtK(5, 4, 2)).toBe(1)
    expect(passAtK(5, 5, 5)).toBe(1)
  })

  it("stays finite where binomial coefficients would overflow", () => {
    const p = passAtK(2000, 3, 1000)
    expect(p).toBeGreaterThan(0.87)
    expect(p).toBeLessThan(0.88)
  })
})

describe("SummaryAccumulator", () => {
  it("computes score statistics by hand: mean, stderr, t-interval, pass rate, extremes", () => {
    const s = summarize([0, 0.5, 1, 1].map((score, seed) => result({ seed, score })))
    // mean 0.625; sample variance ((0.390625 + 0.015625 + 0.140625 * 2) / 3) = 0.2291666…
    const stderr = Math.sqrt(0.6875 / 3 / 4)
    expect(s.metrics.count).toBe(4)
    expect(s.metrics.mean_score).toBeCloseTo(0.625, 12)
    expect(s.metrics.stderr).toBeCloseTo(stderr, 12)
    expect(s.metrics.ci95![0]).toBeCloseTo(0.625 - 3.1824 * stderr, 12)
    expect(s.metrics.ci95![1]).toBeCloseTo(0.625 + 3.1824 * stderr, 12)
    expect(s.metrics.pass_rate).toBe(0.5)
    expect(s.metrics.min).toBe(0)
    expect(s.metrics.max).toBe(1)
  })

  it("approaches the normal 1.96 for large samples", () => {
    const scores = Array.from({ length: 10_000 }, (_, seed) => result({ seed, score: (seed % 3) / 2 }))
    const m = summarize(scores).metrics
    expect(m.interval).toBe("student_t")
    expect((m.ci95![1] - m.mean_score!) / m.stderr!).toBeCloseTo(1.9602, 4)
  })

  it("bounds pass/fail scores with Wilson's interval: inside [0, 1], and not of zero width at all or none", () => {
    // Wilson's score interval with z = 1.959964, as tables give it: 2 of 5 → 0.1176–0.7693, 5 of 5 → 0.5655–1,
    // 0 of 5 → 0–0.4345 (the t interval: 0.4 ± 0.68, and 1–1, 0–0).
    const of = (passes: ReadonlyArray<number>) =>
      summarize(passes.map((score, seed) => result({ seed, score }))).metrics
    const two = of([1, 0, 1, 0, 0])
    expect(two.interval).toBe("wilson")
    expect(two.ci95![0]).toBeCloseTo(0.1176208, 6)
    expect(two.ci95![1]).toBeCloseTo(0.7692757, 6)
    expect(of([1, 1, 1, 1, 1]).ci95).toEqual([expect.closeTo(0.5655175, 6), 1])
    expect(of([0, 0, 0, 0, 0]).ci95).toEqual([0, expect.closeTo(0.4344825, 6)])
    // One score off 0 and 1 and the mean is no proportion: Student's t again.
    expect(of([1, 0, 1, 0, 0.5]).interval).toBe("student_t")
  })

  it("excludes errors from metrics but counts them as 0 in metrics_including_errors", () => {
    const s = summarize([
      result({ seed: 0, score: 1 }),
      result({ seed: 1, score: 0.5 }),
      failed({ seed: 2 }),
      failed({ seed: 3, error_kind: "http_4xx" }),
      failed({ seed: 4, error_kind: null }),
    ])
    expect(s.ok).toBe(2)
    expect(s.errored).toBe(3)
    expect(s.completed).toBe(5)
    expect(s.metrics.count).toBe(2)
    expect(s.metrics.mean_score).toBeCloseTo(0.75, 12)
    expect(s.metrics.pass_rate).toBe(0.5)
    expect(s.metrics_including_errors.count).toBe(5)
    expect(s.metrics_including_errors.mean_score).toBeCloseTo(0.3, 12)
    expect(s.metrics_including_errors.pass_rate).toBeCloseTo(0.2, 12)
    expect(s.metrics_including_errors.min).toBe(0)
    expect(s.errors_by_kind).toEqual({ timeout: 1, http_4xx: 1, unknown: 1 })
  })

  it("never lets an error pass, even with a threshold of 0", () => {
    const s = summarize([result({ score: 0 }), failed({ seed: 1 })], { attempts: 1, passThreshold: 0 })
    expect(s.metrics.pass_rate).toBe(1)
    expect(s.metrics_including_errors.pass_rate).toBe(0.5)
  })

  it("leaves ok rollouts without a score out of both score metrics", () => {
    const s = summarize([result({ score: 1 }), result({ seed: 1, score: null })])
    expect(s.ok).toBe(2)
    expect(s.metrics.count).toBe(1)
    expect(s.metrics_including_errors.count).toBe(1)
    expect(s.metrics.stderr).toBeNull()
    expect(s.metrics.ci95).toBeNull()
    expect(s.metrics.mean_score).toBe(1)
  })

  it("summarizes an empty run without inventing numbers", () => {
    const noScores = {
      count: 0,
      mean_score: null,
      stderr: null,
      ci95: null,
      interval: "student_t",
      pass_rate: null,
      min: null,
      max: null,
      estimator: "clt",
      n_seeds: 0,
      n_clusters: 0,
      df: null,
      seed_mean: null,
      seed_mean_sd: null,
      within_seed_share: null,
      seed_fallbacks: 0,
    }
    const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1 })
    const s = acc.summarize({ runId: "empty", plannedKeys: 0, missingKeys: [], durationMs: 0 })
    expect(s).toEqual({
      run_id: "empty",
      planned: 0,
      completed: 0,
      ok: 0,
      errored: 0,
      missing: 0,
      missing_keys: [],
      is_valid: false,
      invalid_reasons: ["no rollout completed"],
      pass_threshold: 1,
      metrics: noScores,
      metrics_including_errors: noScores,
      errors_by_kind: {},
      pass_at_k: null,
      latency_ms: null,
      tokens: { total: null, mean_per_rollout: null, rollouts_with_tokens: 0, spent_on_errors: null },
      cost_usd: {
        total: null,
        mean_per_rollout: null,
        per_correct: null,
        rollouts_priced: 0,
        spent_on_errors: null,
        price_table: "@pydantic/genai-prices 0.1.8 (bundled), 2026-09-23",
      },
      retries: 0,
      retried_errors: 0,
      duration_s: 0,
      throughput_per_s: null,
      session_completed: 0,
      run_duration_s: 0,
      run_throughput_per_s: null,
    })
    expect(Schema.is(RunSummary)(s)).toBe(true)
  })

  it("interpolates latency percentiles linearly over completed rollouts, errors included", () => {
    const latencies = [40, 10, 30, 20, 50, 60, 70, 80, 90, 100]
    const s = summarize(
      latencies.map((latency_ms, seed) => (seed === 0 ? failed({ seed, latency_ms }) : result({ seed, latency_ms }))),
    )
    expect(s.latency_ms).toEqual({ mean: 55, p50: 55, p90: 91, p99: expect.any(Number), max: 100 })
    expect(s.latency_ms!.p99).toBeCloseTo(99.1, 10)
  })

  it("reports one latency as every percentile and keeps working after a summary", () => {
    const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1 })
    acc.add(result({ latency_ms: 7 }))
    const info = { runId: "r", plannedKeys: 2, missingKeys: [], durationMs: 1000 }
    expect(acc.summarize(info).latency_ms).toEqual({ mean: 7, p50: 7, p90: 7, p99: 7, max: 7 })
    acc.add(result({ seed: 1, latency_ms: 3 }))
    const two = acc.summarize(info).latency_ms!
    expect([two.mean, two.p50, two.max]).toEqual([5, 5, 7])
    expect(two.p90).toBeCloseTo(6.6, 12)
  })

  it("grows latency storage past its initial capacity", () => {
    const results = Array.from({ length: 5000 }, (_, seed) => result({ seed, latency_ms: seed + 1 }))
    const s = summarize(results)
    expect(s.latency_ms!.max).toBe(5000)
    expect(s.latency_ms!.p50).toBe(2500.5)
    expect(s.latency_ms!.mean).toBe(2500.5)
  })

  it("computes pass@k over seeds with the unbiased estimator, errors counting as incorrect", () => {
    const results: Array<EvalResult> = []
    // seed 0: 2 of 5 correct; seed 1: 5 of 5 correct, one of them errored → 4 of 5
    for (let attempt = 0; attempt < 5; attempt++) {
      results.push(result({ seed: 0, attempt, score: attempt < 2 ? 1 : 0 }))
      results.push(attempt === 4 ? failed({ seed: 1, attempt }) : result({ seed: 1, attempt, score: 1 }))
    }
    const s = summarize(results, { attempts: 5, passThreshold: 1 })
    expect(Object.keys(s.pass_at_k!)).toEqual(["1", "2", "3", "4", "5"])
    expect(s.pass_at_k!["1"]).toBeCloseTo((0.4 + 0.8) / 2, 12)
    expect(s.pass_at_k!["2"]).toBeCloseTo((0.7 + 1) / 2, 12)
    expect(s.pass_at_k!["5"]).toBe(1)
  })

  it("averages pass@k only over seeds with at least k attempts", () => {
    const s = summarize(
      [
        result({ seed: 0, attempt: 0, score: 1 }),
        result({ seed: 0, attempt: 1, score: 0 }),
        result({ seed: 1, attempt: 0, score: 0 }),
      ],
      { attempts: 3, passThreshold: 0.5 },
    )
    expect(s.pass_at_k).toEqual({ "1": 0.25, "2": 1, "3": null })
  })

  describe("error bars (clustered standard error, Miller 2024)", () => {
    const seedsTimesAttempts = (scoreOf: (seed: number, attempt: number) => number, seeds: number, attempts: number) =>
      Array.from({ length: seeds * attempts }, (_, i) => {
        const seed = Math.floor(i / attempts)
        const attempt = i % attempts
        return result({ seed, attempt, score: scoreOf(seed, attempt) })
      })

    it("attempts identical: 100 seeds × 2 give ±0.067 (the per-seed error), not the ±0.047 of independent rollouts", () => {
      // 87 seeds pass both attempts, 13 fail both. N = 200, x̄ = 0.87.
      // Clusters: g = 2·0.13 = 0.26 (×87), 2·(−0.87) = −1.74 (×13); Σg² = 87·0.0676 + 13·3.0276 = 45.24.
      // SE = √(100/99 · 45.24) / 200 = √45.69697 / 200 = 0.0337998; df 99, t = 1.98422 → half-width 0.067066.
      // (Independent rollouts: s² = 22.62/199, SE = √(0.113668/200) = 0.0238399, t₁₉₉ = 1.97196 → ±0.047011.)
      // Per-seed means: 87 ones, 13 zeros: sd = √(100·0.87·0.13/99) = 0.337998, and SE = sd/√100 agrees.
      const m = summarize(
        seedsTimesAttempts((seed) => (seed < 87 ? 1 : 0), 100, 2),
        { attempts: 2, passThreshold: 1 },
      ).metrics
      expect(m.estimator).toBe("clustered_by_seed")
      expect([m.count, m.n_seeds, m.n_clusters, m.df]).toEqual([200, 100, 100, 99])
      expect(m.mean_score).toBeCloseTo(0.87, 12)
      expect(m.stderr).toBeCloseTo(0.0337998, 7)
      // Pass/fail: Wilson's interval over the effective sample size p(1 − p) / SE² = 0.1131 / 0.00114242 = 99 with
      // t₉₉: 0.788572–0.923125 (half-width 0.067276, the clustered error's, where independent rollouts give 0.047).
      expect(m.interval).toBe("wilson")
      expect(m.ci95![0]).toBeCloseTo(0.788572, 5)
      expect(m.ci95![1]).toBeCloseTo(0.923125, 5)
      expect(m.seed_mean).toBeCloseTo(0.87, 12)
      expect(m.seed_mean_sd).toBeCloseTo(0.337998, 6)
      // identical attempts: no variance within seeds
      expect(m.within_seed_share).toBeCloseTo(0, 12)
    })

    it("attempts independent: the clustered error is the CLT's up to the small-sample factor", () => {
      // Seeds (1,1), (1,0), (0,1), (0,0): attempt 0 and attempt 1 are uncorrelated. x̄ = 0.5.
      // g = 1, 0, 0, −1; Σg² = 2; SE = √(4/3 · 2) / 8 = 0.2041241; df 3, t = 3.1824 → half 0.6496047.
      // (CLT: √(2/7/8) = 0.1889822.) Per-seed means 1, ½, ½, 0: sd √(0.5/3) = 0.4082483;
      // between-seed SS Σ 2·(m − ½)² = 1 of the total 2 → within-seed share 0.5.
      const m = summarize(
        seedsTimesAttempts((seed, attempt) => [1, 1, 1, 0, 0, 1, 0, 0][seed * 2 + attempt]!, 4, 2),
        { attempts: 2, passThreshold: 1 },
      ).metrics
      expect(m.mean_score).toBe(0.5)
      expect(m.stderr).toBeCloseTo(0.2041241, 7)
      expect(m.df).toBe(3)
      // Wilson's interval over the effective sample size 0.25 / SE² = 6 with t₃ = 3.1824: 0.103778–0.896222
      // (Student's t would give 0.5 ± 0.6496047, past both ends of [0, 1]).
      expect(m.ci95![0]).toBeCloseTo(0.1037777, 6)
      expect(m.ci95![1]).toBeCloseTo(0.8962223, 6)
      expect(m.seed_mean_sd).toBeCloseTo(0.4082483, 7)
      expect(m.within_seed_share).toBeCloseTo(0.5, 12)
    })

    it("unequal cluster sizes, clustered by a task field (cluster_by)", () => {
      // topic A: 1, 1, 0 · topic B: 0 · topic C: 1, 0.5 — one attempt per seed. N = 6, x̄ = 3.5/6 = 7/12.
      // g_A = 2 − 3·7/12 = 1/4, g_B = −7/12, g_C = 1.5 − 2·7/12 = 1/3; Σg² = 9/144 + 49/144 + 16/144 = 74/144.
      // SE = √(3/2 · 74/144) / 6 = √(111/144) / 6 = 0.1463285; df 2, t = 4.3027 → half 0.6296076.
      const topics = ["A", "A", "A", "B", "C", "C"]
      const scores = [1, 1, 0, 0, 1, 0.5]
      const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1, clusterBy: "topic" })
      scores.forEach((score, seed) => {
        acc.add(result({ seed, score, cluster: topics[seed]! }))
      })
      const m = acc.summarize({ runId: "r", plannedKeys: 6, missingKeys: [], durationMs: 1 }).metrics
      expect(m.estimator).toBe("clustered_by:topic")
      expect([m.count, m.n_seeds, m.n_clusters, m.df, m.seed_fallbacks]).toEqual([6, 6, 3, 2, 0])
      expect(m.mean_score).toBeCloseTo(7 / 12, 12)
      expect(m.stderr).toBeCloseTo(0.1463285, 7)
      expect(m.ci95![1] - m.mean_score!).toBeCloseTo(0.6296076, 6)
    })

    it("counts a rollout without a cluster value in its own seed's cluster, and says how many did", () => {
      // Clusters {0: 1, 1: 0} by topic "A", then seeds 2 and 3 with no topic: three clusters.
      // x̄ = 0.5; g_A = 1 − 2·0.5 = 0, g_2 = 0.5, g_3 = −0.5; SE = √(3/2 · 0.5) / 4 = 0.2165064.
      const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1, clusterBy: "topic" })
      acc.add(result({ seed: 0, score: 1, cluster: "A" }))
      acc.add(result({ seed: 1, score: 0, cluster: "A" }))
      acc.add(result({ seed: 2, score: 1 }))
      // a cluster named "3" stays apart from seed 3's own cluster
      acc.add(result({ seed: 3, score: 0 }))
      const m = acc.summarize({ runId: "r", plannedKeys: 4, missingKeys: [], durationMs: 1 }).metrics
      expect([m.n_clusters, m.seed_fallbacks]).toEqual([3, 2])
      expect(m.stderr).toBeCloseTo(0.2165064, 7)
    })

    it("uses the same estimator with errors counted as 0", () => {
      // Seeds with errors as 0: (1, 0), (1, 1), (0, 0). x̄ = 0.5; g = 0, 1, −1; SE = √(3/2 · 2) / 6 = 0.2886751.
      // (CLT over six rollouts: √(0.3/6) = 0.2236068.)
      const s = summarize(
        [
          result({ seed: 0, attempt: 0, score: 1 }),
          failed({ seed: 0, attempt: 1 }),
          result({ seed: 1, attempt: 0, score: 1 }),
          result({ seed: 1, attempt: 1, score: 1 }),
          result({ seed: 2, attempt: 0, score: 0 }),
          failed({ seed: 2, attempt: 1 }),
        ],
        { attempts: 2, passThreshold: 1 },
      )
      const m = s.metrics_including_errors
      expect(m.estimator).toBe("clustered_by_seed")
      expect([m.count, m.n_clusters, m.df]).toEqual([6, 3, 2])
      expect(m.stderr).toBeCloseTo(0.2886751, 7)
      // without errors: seeds (1), (1, 1), (0): x̄ = 0.75, g = 0.25, 0.5, −0.75; SE = √(3/2 · 0.875) / 4 = 0.2864110
      expect(s.metrics.stderr).toBeCloseTo(0.286411, 7)
      expect(s.metrics.n_seeds).toBe(3)
    })

    it("keeps the CLT for one attempt per seed and reports the per-seed spread as the scores' own", () => {
      const m = summarize([0, 0.5, 1, 1].map((score, seed) => result({ seed, score }))).metrics
      expect([m.estimator, m.n_seeds, m.n_clusters, m.df]).toEqual(["clt", 4, 4, 3])
      expect(m.seed_mean_sd).toBeCloseTo(Math.sqrt(0.6875 / 3), 12)
      expect(m.within_seed_share).toBeNull()
    })
  })

  it("totals costs without float noise from summing (1e-10 USD)", () => {
    const s = summarize([result({ cost_usd: 0.000025 }), result({ seed: 1, cost_usd: 0.0000339 })])
    // 0.000025 + 0.0000339 is 0.000058899999999999995 in floating point
    expect(s.cost_usd.total).toBe(0.0000589)
    expect(s.cost_usd.mean_per_rollout).toBe(0.00002945)
  })

  it("has no pass@k for a single attempt", () => {
    expect(summarize([result({ score: 1 })]).pass_at_k).toBeNull()
  })

  it("totals tokens and cost, null rather than 0 when nothing reported them", () => {
    const s = summarize([
      result({ tokens: 100, cost_usd: 0.001 }),
      result({ seed: 1, tokens: 300 }),
      failed({ seed: 2, tokens: 50 }),
    ])
    expect(s.tokens).toEqual({ total: 450, mean_per_rollout: 150, rollouts_with_tokens: 3, spent_on_errors: null })
    expect(s.cost_usd).toMatchObject({ total: 0.001, mean_per_rollout: 0.001, rollouts_priced: 1 })
    expect(s.cost_usd.per_correct).toBeNull()
    const paid = summarize([result({ score: 1, cost_usd: 0.002 }), result({ seed: 1, score: 0, cost_usd: 0.002 })])
    expect(paid.cost_usd.per_correct).toBeCloseTo(0.004, 12)
    const unpriced = summarize([result({ tokens: 10 })])
    expect(unpriced.cost_usd).toEqual({
      total: null,
      mean_per_rollout: null,
      per_correct: null,
      rollouts_priced: 0,
      spent_on_errors: null,
      price_table: "@pydantic/genai-prices 0.1.8 (bundled), 2026-09-23",
    })
  })

  it("counts retries, duration and throughput", () => {
    const s = summarize([result({ retries: 2 }), failed({ seed: 1, retries: 3 }), result({ seed: 2 })], undefined, 1500)
    expect(s.retries).toBe(5)
    expect(s.duration_s).toBe(1.5)
    expect(s.throughput_per_s).toBe(2)
    // A fresh run is one session: the whole run's figures are this session's.
    expect([s.session_completed, s.run_duration_s, s.run_throughput_per_s]).toEqual([3, 1.5, 2])
  })

  it("after a resume, rates this session by its own rollouts and the whole run by its active time", () => {
    // 120 rollouts stored by earlier sessions: two bursts an hour apart, each of 60 overlapping rollouts
    // started 100 ms apart and lasting 200 ms (5.9 s + 0.2 s = 6.1 s of activity); then 120 more in 9.7 s.
    const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1 })
    const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString()
    for (let i = 0; i < 120; i++) {
      const start = (i < 60 ? 0 : 3_600_000) + (i % 60) * 100
      acc.addFromEarlierSession(result({ seed: i, score: 1, started_at: at(start), finished_at: at(start + 200) }))
    }
    for (let i = 120; i < 240; i++) acc.add(result({ seed: i, score: 1 }))
    const s = acc.summarize({ runId: "r", plannedKeys: 400, missingKeys: [], durationMs: 9700 })
    expect(s.completed).toBe(240)
    expect(s.session_completed).toBe(120)
    // 120 / 9.7 s, not 240 / 9.7 s (the 24.7/s a mixed count would claim)
    expect(s.throughput_per_s).toBeCloseTo(12.371, 3)
    // 2 × 6.1 s earlier (not the hour between them) + 9.7 s now = 21.9 s
    expect(s.run_duration_s).toBeCloseTo(21.9, 9)
    expect(s.run_throughput_per_s).toBeCloseTo(240 / 21.9, 9)
  })

  it("decides validity from missing keys and the error rate", () => {
    const ok = Array.from({ length: 20 }, (_, seed) => result({ seed, score: 1 }))
    expect(summarize(ok).is_valid).toBe(true)
    expect(summarize([...ok.slice(1), failed({ seed: 0 })]).is_valid).toBe(true)
    const tooMany = summarize([...ok.slice(2), failed({ seed: 0 }), failed({ seed: 1 })])
    expect(tooMany.is_valid).toBe(false)
    expect(tooMany.invalid_reasons).toEqual(["10% of rollouts errored (more than 5%)"])

    const acc = new SummaryAccumulator({ attempts: 1, passThreshold: 1 })
    for (const r of ok) acc.add(r)
    const missingKeys = Array.from({ length: 150 }, (_, i) => ({ seed: 100 + i, attempt: 0 }))
    const s = acc.summarize({ runId: "r", plannedKeys: 170, missingKeys, durationMs: 1 })
    expect(s.is_valid).toBe(false)
    expect(s.missing).toBe(150)
    expect(s.missing_keys).toHaveLength(100)
    expect(s.missing_keys[0]).toEqual({ seed: 100, attempt: 0 })
    expect(s.invalid_reasons).toEqual(["150 of 170 rollouts missing"])
  })

  it("ignores non-finite numbers instead of poisoning the totals", () => {
    const s = summarize([result({ score: Number.NaN, latency_ms: Number.POSITIVE_INFINITY, tokens: Number.NaN })])
    expect(s.metrics.count).toBe(0)
    expect(s.latency_ms).toBeNull()
    expect(s.tokens.total).toBeNull()
  })

  it("adds a result in about a microsecond and stays JSON-serialisable", () => {
    const acc = new SummaryAccumulator({ attempts: 4, passThreshold: 1 })
    const rows = Array.from({ length: 100_000 }, (_, i) =>
      result({
        seed: i >> 2,
        attempt: i & 3,
        score: i % 3 === 0 ? 1 : 0,
        latency_ms: i % 997,
        tokens: 10,
        cost_usd: 1e-5,
      }),
    )
    const started = performance.now()
    for (const r of rows) acc.add(r)
    const s = acc.summarize({ runId: "big", plannedKeys: rows.length, missingKeys: [], durationMs: 1000 })
    const elapsedMs = performance.now() - started
    expect(s.completed).toBe(100_000)
    expect(elapsedMs).toBeLessThan(1000)
    expect(Schema.decodeUnknownSync(RunSummary)(JSON.parse(JSON.stringify(s)))).toEqual(s)
  })
})
