import { describe, expect, it } from "@effect/vitest"
import type { EvalResult } from "@proctor/core"
import { compareManyResults, formatGridComparisonMarkdown, formatGridComparisonText, holm } from "@proctor/report"
import { result } from "./fixtures.js"

const run = (scores: ReadonlyArray<number>, extra: (seed: number) => Partial<EvalResult> = () => ({})) =>
  scores.map((score, seed) => result({ seed, score, ...extra(seed) }))

describe("holm", () => {
  // Wikipedia's worked example ("Holm–Bonferroni method", Example): p = 0.01, 0.04, 0.03, 0.005 at α = 0.05
  // rejects H1 and H4 and stops at 0.03 > 0.05/2; R's p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives
  // 0.03 0.06 0.06 0.02.
  const r = holm([0.01, 0.04, 0.03, 0.005], 0.05)

  it("rejects as the published example does", () => {
    expect(r.rejected).toEqual([true, false, false, true])
  })

  it("adjusts the p-values as R's p.adjust does", () => {
    for (const [i, p] of r.adjusted.entries()) expect(p).toBeCloseTo([0.03, 0.06, 0.06, 0.02][i]!, 12)
  })

  it("tests each at its step's level, held where the procedure stops", () => {
    // Steps: 0.005 at α/4, 0.01 at α/3, 0.03 at α/2 (not rejected: stop), 0.04 held at α/2.
    for (const [i, level] of r.levels.entries()) {
      expect(level).toBeCloseTo([0.05 / 3, 0.05 / 2, 0.05 / 2, 0.05 / 4][i]!, 12)
    }
  })
})

/*
 * The reference: scipy 1.17 on the same data (the script is below), a second implementation of every number.
 *   from scipy import stats; import numpy as np
 *   stats.ttest_rel(X[a], X[b]).pvalue                      # each pair's p
 *   Holm by hand in Python (sorted p, running max of (m−k+1)·p)
 *   d.mean() ± stats.t.ppf(1 − level/2, n − 1) · d.std(ddof=1)/√n   # CI at Holm's level for the pair
 *   stats.ttest_1samp(X[k], 0).confidence_interval(0.95)      # each variant's CI
 *   stats.binomtest(min(b, c), b + c, 0.5).pvalue             # McNemar's exact test
 */
describe("compareMany: graded scores against scipy", () => {
  const X = {
    m1: [0.9, 0.8, 1.0, 0.7, 0.95, 0.85, 0.6, 0.9, 1.0, 0.75, 0.8, 0.9],
    m2: [0.7, 0.75, 0.9, 0.6, 0.9, 0.8, 0.5, 0.7, 0.95, 0.7, 0.6, 0.85],
    m3: [0.85, 0.8, 0.95, 0.7, 0.9, 0.9, 0.55, 0.85, 1.0, 0.7, 0.8, 0.8],
  }
  const c = compareManyResults(Object.entries(X).map(([label, scores]) => ({ label, results: run(scores) })))

  it("ranks by mean, with each variant's 95% CI", () => {
    expect(c.tasks).toBe(12)
    expect(c.variants.map((v) => v.label)).toEqual(["m1", "m3", "m2"])
    expect(c.variants.map((v) => v.rank)).toEqual([1, 2, 3])
    const reference = [
      [0.8458333333333333, 0.7686580453186657, 0.923008621348001],
      [0.8166666666666668, 0.7384580645300659, 0.8948752688032676],
      [0.7458333333333335, 0.6575666877949692, 0.8340999788716977],
    ]
    c.variants.forEach((v, i) => {
      expect(v.mean).toBeCloseTo(reference[i]![0]!, 12)
      // proctor's 95% t value is the printed table's four decimals (2.201 at 11 df): equal to 4 decimals.
      expect(v.ci95![0]).toBeCloseTo(reference[i]![1]!, 4)
      expect(v.ci95![1]).toBeCloseTo(reference[i]![2]!, 4)
    })
  })

  it("gives every pair's difference, p, Holm-adjusted p and CI at Holm's level as scipy does", () => {
    const reference = {
      "m1 m3": {
        diff: 0.029166666666666664,
        p: 0.027075570609249523,
        holm: 0.027075570609249523,
        level: 0.05,
        ci: [0.003975482886488375, 0.05435785044684495],
      },
      "m1 m2": {
        diff: 0.10000000000000002,
        p: 0.00021144917816968774,
        holm: 0.0006343475345090633,
        level: 0.05 / 3,
        ci: [0.047931677088299644, 0.1520683229117004],
      },
      "m3 m2": {
        diff: 0.07083333333333335,
        p: 0.00592910990580428,
        holm: 0.01185821981160856,
        level: 0.025,
        ci: [0.01681056911376326, 0.12485609755290343],
      },
    } as const
    expect(c.pairs.map((p) => `${p.a} ${p.b}`)).toEqual(["m1 m3", "m1 m2", "m3 m2"])
    for (const pair of c.pairs) {
      const want = reference[`${pair.a} ${pair.b}` as keyof typeof reference]
      expect(pair.test).toBe("paired_t")
      expect(pair.diff).toBeCloseTo(want.diff, 12)
      expect(pair.p_value).toBeCloseTo(want.p, 10)
      expect(pair.p_holm).toBeCloseTo(want.holm, 10)
      expect(pair.ci_level).toBeCloseTo(1 - want.level, 12)
      expect(pair.ci![0]).toBeCloseTo(want.ci[0], 8)
      expect(pair.ci![1]).toBeCloseTo(want.ci[1], 8)
      expect(pair.significant).toBe(true)
      // The interval excludes 0 exactly when Holm rejects.
      expect(pair.ci![0] > 0).toBe(pair.significant)
    }
    expect(c.variants.map((v) => v.top_group)).toEqual([true, false, false])
  })
})

describe("compareMany: pass/fail with one attempt, McNemar's exact test and the flips", () => {
  const B = {
    a: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1],
    b: [1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0],
    c: [1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1],
  }
  const flipsOf = (x: ReadonlyArray<number>, y: ReadonlyArray<number>) =>
    x.flatMap((v, seed) => (v === 1 && y[seed] === 0 ? [seed] : []))
  const c = compareManyResults(Object.entries(B).map(([label, scores]) => ({ label, results: run(scores) })))

  it("tests each pair with McNemar and corrects with Holm as scipy's binomtest and Holm by hand do", () => {
    expect(c.variants.map((v) => v.label)).toEqual(["a", "c", "b"])
    const reference = {
      "a c": { p: 0.625, holm: 0.625, significant: false },
      "a b": { p: 0.00390625, holm: 0.01171875, significant: true },
      "c b": { p: 0.0390625, holm: 0.078125, significant: false },
    } as const
    for (const pair of c.pairs) {
      const want = reference[`${pair.a} ${pair.b}` as keyof typeof reference]
      expect(pair.test).toBe("mcnemar_exact")
      expect(pair.p_value).toBeCloseTo(want.p, 12)
      expect(pair.p_holm).toBeCloseTo(want.holm, 12)
      expect(pair.significant).toBe(want.significant)
      // Flips by a second count over the raw data.
      expect(pair.flips.a_only).toEqual(flipsOf(B[pair.a as keyof typeof B], B[pair.b as keyof typeof B]))
      expect(pair.flips.b_only).toEqual(flipsOf(B[pair.b as keyof typeof B], B[pair.a as keyof typeof B]))
    }
    // c − b is not significant after the correction (0.039 alone would be): c stays in the top group with a.
    expect(c.variants.map((v) => v.top_group)).toEqual([true, true, false])
  })

  it("bounds each variant's pass rate with Wilson's interval, inside [0, 1]", () => {
    // scipy: stats.binomtest(k, 20).proportion_ci(0.95, "wilson"); Student's t would put a's upper bound at 1.05.
    const reference = {
      a: [0.763868806553258, 0.9911185511992047],
      b: [0.2992980081982123, 0.7007019918017877],
    } as const
    for (const label of ["a", "b"] as const) {
      const v = c.variants.find((variant) => variant.label === label)!
      expect(v.interval).toBe("wilson")
      expect(v.ci95![0]).toBeCloseTo(reference[label][0], 10)
      expect(v.ci95![1]).toBeCloseTo(reference[label][1], 10)
    }
    expect(formatGridComparisonText(c)).toContain("0.95 (0.76 – 0.99)")
  })

  it("leaves out tasks some variant did not score, and counts its errors", () => {
    const errored = run(B.b, (seed) => (seed === 3 ? { status: "error", score: null, error: "boom" } : {}))
    const d = compareManyResults([
      { label: "a", results: run(B.a) },
      { label: "b", results: errored },
    ])
    expect(d.tasks).toBe(19)
    expect(d.excluded_tasks).toBe(1)
    expect(d.variants.find((v) => v.label === "b")!.errored).toBe(1)
    expect(d.per_task.some((t) => t.seed === 3)).toBe(false)
  })

  it("prints the ranking and the pairs as text and markdown", () => {
    const text = formatGridComparisonText(c)
    expect(text).toContain("3 variants over 20 tasks scored in every one")
    expect(text).toMatch(/1\s+\| a \*/)
    expect(text).toMatch(/a − b .*\| yes/)
    const markdown = formatGridComparisonMarkdown(c)
    expect(markdown).toContain("Best: `a`, `c`")
    expect(markdown).toContain("| a − b |")
  })
})

describe("compareMany: pass/fail with attempts, each task one cluster", () => {
  // 8 tasks × 2 attempts. By hand (Python, scipy 1.17 for t): task means m, p = mean(m) = 0.6875,
  // se = sd(m, ddof=1)/√8 = 0.131526, effective n = min(16, p(1 − p)/se²) = 12.4194, and Wilson's interval over it
  // with t_{0.975, 7} = 2.364624: 0.364552 – 0.894029 (Student's t: 0.376 – 0.999).
  const attempts = [
    [1, 1],
    [1, 0],
    [0, 0],
    [1, 1],
    [1, 1],
    [0, 1],
    [1, 1],
    [1, 0],
  ]
  const rows = (scoreOf: (task: ReadonlyArray<number>, attempt: number) => number) =>
    attempts.flatMap((task, seed) => task.map((_, attempt) => result({ seed, attempt, score: scoreOf(task, attempt) })))
  const c = compareManyResults([
    { label: "mixed", results: rows((task, attempt) => task[attempt]!) },
    { label: "perfect", results: rows(() => 1) },
  ])
  const standing = (label: string) => c.variants.find((v) => v.label === label)!

  it("gives Wilson's interval over the effective sample size, with t on the tasks' df", () => {
    const mixed = standing("mixed")
    expect(mixed.interval).toBe("wilson")
    expect(mixed.mean).toBeCloseTo(0.6875, 12)
    // proctor's 95% t value is the printed table's (2.365 at 7 df): equal to 3 decimals.
    expect(mixed.ci95![0]).toBeCloseTo(0.364552, 3)
    expect(mixed.ci95![1]).toBeCloseTo(0.894029, 3)
  })

  it("is not of zero width when every attempt passed: Wilson's over the tasks' count", () => {
    // Wilson at p = 1 over n = 8 with t_{0.975, 7}: n / (n + t²) = 0.588605 – 1.
    const perfect = standing("perfect")
    expect(perfect.ci95![0]).toBeCloseTo(0.588605, 3)
    expect(perfect.ci95![1]).toBe(1)
  })
})
