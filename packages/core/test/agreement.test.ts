import { describe, expect, it } from "vitest"
import { bootstrapCi } from "../src/summary/Bootstrap.js"
import { cohenKappa, confusionMatrix } from "../src/summary/CohenKappa.js"
import { type AlphaUnit, krippendorffAlpha } from "../src/summary/KrippendorffAlpha.js"

const _ = null
/** Raters as rows, units as columns, as the papers print them; alpha takes units. */
const unitsOf = (raters: ReadonlyArray<ReadonlyArray<number | null>>): Array<AlphaUnit> =>
  raters[0]!.map((_, unit) => raters.map((rater) => rater[unit]!))

describe("Krippendorff's alpha", () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the worked example with missing data:
  // 4 observers, 12 units, values 1–5. Published: nominal .743, ordinal .815, interval .849.
  const paper = unitsOf([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
  ])

  it("matches Krippendorff's own worked example at every level", () => {
    expect(krippendorffAlpha(paper, "nominal")).toBeCloseTo(0.743, 3)
    expect(krippendorffAlpha(paper, "ordinal")).toBeCloseTo(0.815, 3)
    expect(krippendorffAlpha(paper, "interval")).toBeCloseTo(0.849, 3)
  })

  // Wikipedia's computational example (3 raters, 15 units): nominal 0.691, interval 0.811, as the
  // `krippendorff` Python package's tests give them (0.691358, 0.810845).
  const wikipedia = unitsOf([
    [_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
    [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
    [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4],
  ])

  it("matches Wikipedia's computational example", () => {
    expect(krippendorffAlpha(wikipedia, "nominal")).toBeCloseTo(0.691358, 5)
    expect(krippendorffAlpha(wikipedia, "interval")).toBeCloseTo(0.810845, 5)
  })

  it("agrees with the pairwise definition, computed a second way", () => {
    // α = 1 − D_o/D_e with D_o the mean δ² over pairs within units (weighted 1/(m_u − 1)) and D_e the mean δ² over
    // all pairs of pairable values: the same statistic without a coincidence matrix.
    const secondWay = (units: ReadonlyArray<AlphaUnit>): number => {
      const rated = units.map((unit) => unit.filter((v) => v !== null) as Array<number>).filter((u) => u.length > 1)
      const all = rated.flat()
      const n = all.length
      let within = 0
      for (const unit of rated) {
        let sum = 0
        for (let i = 0; i < unit.length; i++) for (let j = 0; j < unit.length; j++) sum += (unit[i]! - unit[j]!) ** 2
        within += sum / (unit.length - 1)
      }
      let between = 0
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) between += (all[i]! - all[j]!) ** 2
      return 1 - ((n - 1) * within) / between
    }
    expect(krippendorffAlpha(paper, "interval")).toBeCloseTo(secondWay(paper), 12)
    expect(krippendorffAlpha(wikipedia, "interval")).toBeCloseTo(secondWay(wikipedia), 12)
  })

  it("is 1 for perfect agreement, undefined without variation or pairable units", () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [2, 2],
          [3, 3],
        ],
        "ordinal",
      ),
    ).toBe(1)
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [1, 1],
        ],
        "nominal",
      ),
    ).toBe(null)
    expect(
      krippendorffAlpha(
        [
          [1, null],
          [null, 2],
        ],
        "nominal",
      ),
    ).toBe(null)
  })
})

describe("Cohen's kappa", () => {
  // The textbook 2×2 example (Wikipedia, "Cohen's kappa"): 50 proposals, both yes 20, A yes B no 5, A no B yes 10,
  // both no 15: p_o = 0.7, p_e = 0.5, κ = 0.4.
  const pairs = [
    ...Array.from({ length: 20 }, () => ["yes", "yes"] as const),
    ...Array.from({ length: 5 }, () => ["yes", "no"] as const),
    ...Array.from({ length: 10 }, () => ["no", "yes"] as const),
    ...Array.from({ length: 15 }, () => ["no", "no"] as const),
  ]

  it("matches the textbook example and its confusion matrix", () => {
    expect(cohenKappa(pairs)).toBeCloseTo(0.4, 12)
    expect(confusionMatrix(pairs)).toEqual({
      labels: ["no", "yes"],
      counts: [
        [15, 10],
        [5, 20],
      ],
    })
  })

  it("relates to nominal alpha as Scott's pi does, and is undefined for one label", () => {
    // Two raters, no missing data: α = 1 − (1 − π)(2n − 1)/(2n), π being Scott's pi (chance from the pooled labels).
    const n = pairs.length
    const pooled = (label: string) => pairs.flat().filter((each) => each === label).length / (2 * n)
    const chance = pooled("yes") ** 2 + pooled("no") ** 2
    const scottPi = (pairs.filter(([a, b]) => a === b).length / n - chance) / (1 - chance)
    const alpha = krippendorffAlpha(
      pairs.map(([a, b]) => [a, b]),
      "nominal",
    )!
    expect(alpha).toBeCloseTo(1 - ((1 - scottPi) * (2 * n - 1)) / (2 * n), 12)
    expect(
      cohenKappa([
        ["a", "a"],
        ["a", "a"],
      ]),
    ).toBe(null)
    expect(cohenKappa([])).toBe(null)
  })
})

describe("bootstrap intervals", () => {
  const values = Array.from({ length: 200 }, (_, i) => (i * 7919) % 101)
  const mean = (indices: Int32Array) => {
    let sum = 0
    for (const i of indices) sum += values[i]!
    return sum / indices.length
  }

  it("are reproducible from their seed and cover the CLT interval of a mean", () => {
    const ci = bootstrapCi(values.length, mean, { seed: 1 })!
    expect(bootstrapCi(values.length, mean, { seed: 1 })).toEqual(ci)
    expect(bootstrapCi(values.length, mean, { seed: 2 })).not.toEqual(ci)
    const m = values.reduce((a, b) => a + b, 0) / values.length
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / (values.length - 1))
    const half = (1.96 * sd) / Math.sqrt(values.length)
    // The percentile bootstrap of a mean approaches the normal interval: within 15% of its half-width here.
    expect(Math.abs(ci[0] - (m - half))).toBeLessThan(0.15 * half)
    expect(Math.abs(ci[1] - (m + half))).toBeLessThan(0.15 * half)
  })

  it("are null for fewer than two items or a statistic mostly undefined", () => {
    expect(bootstrapCi(1, mean)).toBe(null)
    expect(bootstrapCi(10, () => null)).toBe(null)
  })
})
