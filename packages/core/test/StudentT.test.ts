import { describe, expect, it } from "@effect/vitest"
import { binomialCdf, studentTCdf, studentTQuantile, studentTTwoSidedP, tCritical95 } from "@proctor/core"

// Reference values from printed tables and closed forms; the rest from scipy.stats 1.17 (t.sf, t.ppf, binom.cdf).
describe("Student's t", () => {
  it("has the closed forms of 1 and 2 degrees of freedom", () => {
    // df = 1 is Cauchy: P(T ≤ t) = ½ + atan(t)/π. df = 2: P(T ≤ t) = ½ + t / (2√(2 + t²)).
    for (const t of [-7, -1, -0.3, 0, 0.3, 1, 2.5, 40]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 13)
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 13)
    }
    expect(studentTQuantile(0.8, 1)).toBeCloseTo(Math.tan(Math.PI * 0.3), 10)
  })

  it("gives two-sided p-values, small tails included, to 1e-10 relative", () => {
    const cases: ReadonlyArray<readonly [t: number, df: number, p: number]> = [
      [2.1, 9, 0.06511828241215196],
      [0.3, 1, 0.8144528418445154],
      [8, 200, 9.879200909330596e-14],
      [40, 3, 3.4380680789158506e-5],
    ]
    for (const [t, df, p] of cases) {
      expect(Math.abs(studentTTwoSidedP(t, df) - p) / p).toBeLessThan(1e-10)
      expect(studentTTwoSidedP(-t, df)).toBe(studentTTwoSidedP(t, df))
    }
    expect(studentTTwoSidedP(0, 5)).toBe(1)
    expect(studentTTwoSidedP(Number.POSITIVE_INFINITY, 5)).toBe(0)
  })

  it("inverts its CDF: the quantiles t tables print", () => {
    expect(studentTQuantile(0.8, 9)).toBeCloseTo(0.8834038596855346, 10)
    expect(studentTQuantile(0.975, 9)).toBeCloseTo(2.262157162798205, 10)
    expect(studentTQuantile(0.975, 1000)).toBeCloseTo(1.9623390808264083, 10)
    expect(studentTQuantile(0.9999, 1)).toBeCloseTo(3183.098757118502, 6)
    expect(studentTQuantile(0.2, 9)).toBeCloseTo(-0.8834038596855346, 10)
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError)
  })

  it("agrees with the 95% table the summary's confidence intervals use", () => {
    for (const df of [1, 2, 5, 10, 29, 30, 31, 60, 500]) {
      expect(tCritical95(df)).toBeCloseTo(studentTQuantile(0.975, df), 4)
    }
  })
})

describe("binomial CDF", () => {
  it("sums the binomial terms", () => {
    // P(X ≤ 3), X ~ Bin(12, ½) = (1 + 12 + 66 + 220) / 4096.
    expect(binomialCdf(3, 12, 0.5)).toBeCloseTo(299 / 4096, 14)
    expect(binomialCdf(0, 6, 0.5)).toBeCloseTo(1 / 64, 14)
    // P(X ≤ 1), X ~ Bin(5, 0.3) = 0.7⁵ + 5 · 0.3 · 0.7⁴.
    expect(binomialCdf(1, 5, 0.3)).toBeCloseTo(0.7 ** 5 + 5 * 0.3 * 0.7 ** 4, 14)
    expect(binomialCdf(12, 30, 0.5)).toBeCloseTo(0.18079730402678257, 12)
    expect(binomialCdf(5, 5, 0.5)).toBe(1)
    expect(binomialCdf(-1, 5, 0.5)).toBe(0)
  })

  it("keeps a far tail's relative accuracy", () => {
    const p = binomialCdf(100, 1000, 0.5)
    expect(Math.abs(p - 6.701717790006182e-162) / 6.701717790006182e-162).toBeLessThan(1e-9)
  })
})
