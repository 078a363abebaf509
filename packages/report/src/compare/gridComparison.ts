import { type EvalResult, type IntervalKind, passRateInterval95, studentTQuantile } from "@proctor/core"
import { COMPARE_ALPHA, type CompareTest, RunTotals } from "../compare.js"
import { correlation, mcnemarExactP, pairedT } from "../internal/pairedStats.js"
import { holm } from "./holm.js"

/** One variant of a grid (or one of N runs compared): its standing over the tasks every variant scored. */
export interface GridStanding {
  readonly label: string
  /** 1 for the highest mean; variants with equal means share the rank. */
  readonly rank: number
  /** Mean over the common tasks of each task's mean score over its attempts. */
  readonly mean: number | null
  /**
   * 95% CI of `mean` over the tasks (each task one cluster of its attempts): Student's t, or Wilson's when every
   * score is 0 or 1 (as a run's summary gives it), which stays inside [0, 1].
   */
  readonly ci95: readonly [number, number] | null
  /** Which interval `ci95` is. */
  readonly interval: IntervalKind
  /** Scored rollouts behind `mean`. */
  readonly rollouts: number
  /** Rollouts with an error or no score, over all its tasks. */
  readonly errored: number
  /** No other variant is significantly better than this one after Holm's correction. */
  readonly top_group: boolean
}

/** One pairwise comparison: `a` ranks at or above `b`, and `diff` is mean_a − mean_b over the common tasks. */
export interface GridPair {
  readonly a: string
  readonly b: string
  readonly diff: number | null
  readonly se: number | null
  readonly df: number | null
  /** The paired t interval of `diff` at `ci_level`, Holm's level for this comparison (see `holm`). */
  readonly ci: readonly [number, number] | null
  readonly ci_level: number
  readonly p_value: number | null
  /** Holm-adjusted p-value over all the pairs; `significant` is p_holm < alpha. */
  readonly p_holm: number | null
  readonly test: CompareTest
  readonly significant: boolean
  readonly correlation: number | null
  /** Tasks passed (task mean ≥ pass_threshold) by `a` only and by `b` only. */
  readonly flips: { readonly a_only: ReadonlyArray<number>; readonly b_only: ReadonlyArray<number> }
}

/** What `proctor compare` prints for a grid run or for three or more runs (`--json`), ranked best first. */
export interface GridComparison {
  readonly kind: "grid"
  readonly alpha: number
  readonly correction: "holm"
  readonly pass_threshold: number
  /** Tasks scored in every variant: every statistic is over these. */
  readonly tasks: number
  /** Tasks scored in some variants but not all, left out of every statistic. */
  readonly excluded_tasks: number
  readonly variants: ReadonlyArray<GridStanding>
  /** Every pair of variants, the better-ranked first in each, in ranking order. */
  readonly pairs: ReadonlyArray<GridPair>
  /** Each common task's mean score in every variant, in the order of `variants`. */
  readonly per_task: ReadonlyArray<{ readonly seed: number; readonly scores: ReadonlyArray<number> }>
}

export interface GridSide {
  readonly label: string
  readonly totals: RunTotals
}

export interface CompareManyOptions {
  /** A task mean at or above it passes (flips); default 1. */
  readonly passThreshold?: number
}

/**
 * Ranks N variants run over the same tasks. Each task's score in a variant is its mean over the variant's scored
 * attempts (so attempts of a task are one cluster); only tasks every variant scored count. Every pair is compared
 * as `proctor compare` compares two runs — the paired t-test on the per-task differences, or McNemar's exact test
 * when every score is 0 or 1 with one attempt — and Holm's procedure corrects the p-values for the m = N(N−1)/2
 * comparisons; each pair's interval is at the level Holm tests it at, so it excludes 0 exactly when the (t-tested)
 * difference is significant.
 */
export const compareMany = (sides: ReadonlyArray<GridSide>, options: CompareManyOptions = {}): GridComparison => {
  const passThreshold = options.passThreshold ?? 1
  const alpha = COMPARE_ALPHA
  const scoredEverywhere = (seed: number) => sides.every((side) => (side.totals.seeds.get(seed)?.scored ?? 0) > 0)
  const allSeeds = new Set<number>()
  for (const side of sides) for (const [seed, totals] of side.totals.seeds) if (totals.scored > 0) allSeeds.add(seed)
  const seeds = [...allSeeds].filter(scoredEverywhere).sort((x, y) => x - y)
  const n = seeds.length
  const scores = sides.map((side) => {
    const column = new Float64Array(n)
    seeds.forEach((seed, i) => {
      const totals = side.totals.seeds.get(seed)!
      column[i] = totals.scoreSum / totals.scored
    })
    return column
  })
  const binary = n > 0 && sides.every((side) => seeds.every((seed) => isSingleBinary(side.totals, seed)))
  const means = scores.map((column) => (n === 0 ? null : pairedT(column).meanDiff))
  // Best first; equal means keep the order given.
  const order = sides.map((_, i) => i).sort((x, y) => (means[y] ?? -Infinity) - (means[x] ?? -Infinity) || x - y)

  const pairIndices: Array<readonly [number, number]> = []
  for (let i = 0; i < order.length; i++)
    for (let j = i + 1; j < order.length; j++) pairIndices.push([order[i]!, order[j]!])
  const tests = pairIndices.map(([a, b]) => {
    const diffs = scores[a]!.map((x, i) => x - scores[b]![i]!)
    const t = pairedT(diffs)
    const p = binary ? mcnemarExactP(diffs.filter((d) => d < 0).length, diffs.filter((d) => d > 0).length) : t.pValue
    return { t, p }
  })
  const testable = tests.flatMap((test, i) => (test.p === null ? [] : [i]))
  const corrected = holm(
    testable.map((i) => tests[i]!.p!),
    alpha,
  )
  const holmOf = new Map(testable.map((i, k) => [i, k]))

  const pairs: Array<GridPair> = pairIndices.map(([a, b], i) => {
    const { t, p } = tests[i]!
    const k = holmOf.get(i)
    const level = k === undefined ? alpha : corrected.levels[k]!
    const pHolm = k === undefined ? null : corrected.adjusted[k]!
    const half = t.se === null || t.df === null ? null : studentTQuantile(1 - level / 2, t.df) * t.se
    const aOnly: Array<number> = []
    const bOnly: Array<number> = []
    seeds.forEach((seed, s) => {
      const passedA = scores[a]![s]! >= passThreshold
      const passedB = scores[b]![s]! >= passThreshold
      if (passedA && !passedB) aOnly.push(seed)
      if (passedB && !passedA) bOnly.push(seed)
    })
    return {
      a: sides[a]!.label,
      b: sides[b]!.label,
      diff: n === 0 ? null : t.meanDiff,
      se: t.se,
      df: t.df,
      ci: half === null ? null : [t.meanDiff - half, t.meanDiff + half],
      ci_level: 1 - level,
      p_value: p,
      p_holm: pHolm,
      test: binary ? "mcnemar_exact" : "paired_t",
      significant: pHolm !== null && pHolm < alpha && t.meanDiff !== 0,
      correlation: correlation(scores[a]!, scores[b]!),
      flips: { a_only: aOnly, b_only: bOnly },
    }
  })

  const beaten = new Set(pairs.filter((pair) => pair.significant && pair.diff! > 0).map((pair) => pair.b))
  const variants = order.map((index): GridStanding => {
    const side = sides[index]!
    const t = pairedT(scores[index]!)
    let rollouts = 0
    let binary = true
    for (const seed of seeds) {
      const seedTotals = side.totals.seeds.get(seed)!
      rollouts += seedTotals.scored
      binary &&= seedTotals.allBinary
    }
    const mean = means[index] ?? null
    // One attempt a task: the tasks' scores are independent. More: a task's attempts are one cluster.
    const clusters = rollouts === n ? null : n
    return {
      label: side.label,
      rank: 1 + order.filter((other) => (means[other] ?? -Infinity) > (means[index] ?? -Infinity)).length,
      mean,
      ci95:
        binary && mean !== null && t.se !== null && t.df !== null
          ? passRateInterval95(mean, t.se, t.df, rollouts, clusters)
          : t.ci95,
      interval: binary ? "wilson" : "student_t",
      rollouts,
      errored: side.totals.errored,
      top_group: !beaten.has(side.label),
    }
  })
  return {
    kind: "grid",
    alpha,
    correction: "holm",
    pass_threshold: passThreshold,
    tasks: n,
    excluded_tasks: allSeeds.size - n,
    variants,
    pairs,
    per_task: seeds.map((seed, i) => ({ seed, scores: order.map((index) => scores[index]![i]!) })),
  }
}

const isSingleBinary = (totals: RunTotals, seed: number): boolean => {
  const seedTotals = totals.seeds.get(seed)!
  return seedTotals.allBinary && seedTotals.scored === 1
}

/** `compareMany` over the variants' results (pure: no IO). */
export const compareManyResults = (
  runs: ReadonlyArray<{ readonly label: string; readonly results: Iterable<EvalResult> }>,
  options: CompareManyOptions = {},
): GridComparison =>
  compareMany(
    runs.map(({ label, results }) => {
      const totals = new RunTotals()
      for (const result of results) totals.add(result)
      return { label, totals }
    }),
    options,
  )
