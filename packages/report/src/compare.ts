import { defaults, type EvalResult } from "@proctor/core"
import { correlation, mcnemarExactP, pairedT } from "./internal/pairedStats.js"

/** The significance level of every comparison: its CI is 95%, its power is computed at α = 0.05. */
export const COMPARE_ALPHA = 0.05

export type CompareTest = "paired_t" | "mcnemar_exact"

/** In words: B significantly better or worse than A (p < α), neither, or too few pairs to test. */
export type CompareVerdict = "b_better" | "b_worse" | "no_significant_difference" | "too_few_pairs"

/** A per-rollout mean in each run (over the paired seeds' rollouts that report it) and B − A. */
export interface CompareDelta {
  readonly a: number | null
  readonly b: number | null
  readonly diff: number | null
}

/** What `proctor compare --json` prints and the viewer's compare view reads (VIEWER_API.md section 2). */
export interface Comparison {
  readonly labels: { readonly a: string; readonly b: string }
  /** Seeds scored in both runs: the pairs every statistic below is over. */
  readonly pairs: number
  /** Scored rollouts behind the pairs, in each run (more than `pairs` when seeds ran several attempts). */
  readonly rollouts: { readonly a: number; readonly b: number }
  /** Means over the pairs of each seed's mean score. */
  readonly mean_a: number | null
  readonly mean_b: number | null
  /** mean_b − mean_a. */
  readonly diff: number | null
  /** Paired standard error of `diff`, its degrees of freedom and its Student-t 95% CI. */
  readonly se: number | null
  readonly df: number | null
  readonly ci95: readonly [number, number] | null
  readonly p_value: number | null
  readonly test: CompareTest
  readonly alpha: number
  readonly verdict: CompareVerdict
  /** Pearson's correlation of the seeds' scores in A and B: pairing helps exactly as much as they correlate. */
  readonly correlation: number | null
  /** The smallest difference these pairs detect at 80% power (two-sided α = 0.05). */
  readonly mde80: number | null
  readonly pass_threshold: number
  /** Seeds that passed (seed mean ≥ pass_threshold) in A only, and in B only. */
  readonly flips: { readonly a_only: ReadonlyArray<number>; readonly b_only: ReadonlyArray<number> }
  /**
   * Left out: `errored` rollouts (an error, or no score), and `unmatched` seeds, scored in one run only;
   * totals and each run's share.
   */
  readonly excluded: {
    readonly errored: number
    readonly unmatched: number
    readonly errored_a: number
    readonly errored_b: number
    readonly unmatched_a: number
    readonly unmatched_b: number
  }
  /** Over every rollout of the paired seeds, errored ones included (they cost too). */
  readonly deltas: {
    readonly tokens: CompareDelta
    readonly cost_usd: CompareDelta
    readonly latency_ms: CompareDelta
  }
  /** Each paired seed's mean score over its attempts, by seed. */
  readonly per_seed: ReadonlyArray<{ readonly seed: number; readonly a: number; readonly b: number }>
}

export interface CompareOptions {
  /** A score at or above it passes (flips); default 1, the run config's default. */
  readonly passThreshold?: number
  /** How the runs are named in the output (a run directory, a job id); default "A" and "B". */
  readonly labels?: { readonly a: string; readonly b: string }
}

/** A comparison passes seeds as run A (the baseline) does: at its config's threshold, else the config default. */
export const comparisonThreshold = (configA: { readonly pass_threshold: number } | null | undefined): number =>
  configA?.pass_threshold ?? defaults.pass_threshold

const COST_FIELDS = ["tokens", "cost_usd", "latency_ms"] as const

/** One seed of one run: its scores' total and count, the other rollouts' fields' totals and counts. */
class SeedTotals {
  scoreSum = 0
  scored = 0
  allBinary = true
  readonly sums = [0, 0, 0]
  readonly counts = [0, 0, 0]
}

const isScored = (result: EvalResult): result is EvalResult & { score: number } =>
  result.status === "ok" && result.score !== null && Number.isFinite(result.score)

/**
 * One run's side of a comparison, folded a result at a time: per seed, its scores' total and count and its
 * tokens, cost and latency totals. The results themselves are not kept, so a caller can stream a
 * 100,000-rollout journal through `add`.
 */
export class RunTotals {
  readonly seeds = new Map<number, SeedTotals>()
  rollouts = 0
  errored = 0

  add(result: EvalResult): void {
    this.rollouts++
    let seed = this.seeds.get(result.seed)
    if (seed === undefined) {
      seed = new SeedTotals()
      this.seeds.set(result.seed, seed)
    }
    if (isScored(result)) {
      seed.scoreSum += result.score
      seed.scored++
      if (result.score !== 0 && result.score !== 1) seed.allBinary = false
    } else {
      this.errored++
    }
    for (let i = 0; i < COST_FIELDS.length; i++) {
      const value = result[COST_FIELDS[i]!]
      if (value !== null && Number.isFinite(value)) {
        seed.sums[i]! += value
        seed.counts[i]!++
      }
    }
  }

  /** Seeds with at least one scored rollout. */
  scoredSeeds(): number {
    let n = 0
    for (const seed of this.seeds.values()) if (seed.scored > 0) n++
    return n
  }
}

const mean = (values: Float64Array): number | null => {
  if (values.length === 0) return null
  let sum = 0
  for (const value of values) sum += value
  return sum / values.length
}

const verdictOf = (pValue: number | null, diff: number | null): CompareVerdict => {
  if (pValue === null || diff === null) return "too_few_pairs"
  if (pValue >= COMPARE_ALPHA || diff === 0) return "no_significant_difference"
  return diff > 0 ? "b_better" : "b_worse"
}

const deltasOf = (
  paired: ReadonlyArray<readonly [SeedTotals, SeedTotals]>,
): Record<(typeof COST_FIELDS)[number], CompareDelta> => {
  const perRollout = (i: number, which: 0 | 1): number | null => {
    let sum = 0
    let count = 0
    for (const seeds of paired) {
      sum += seeds[which].sums[i]!
      count += seeds[which].counts[i]!
    }
    return count > 0 ? sum / count : null
  }
  const delta = (i: number): CompareDelta => {
    const a = perRollout(i, 0)
    const b = perRollout(i, 1)
    return { a, b, diff: a === null || b === null ? null : b - a }
  }
  return { tokens: delta(0), cost_usd: delta(1), latency_ms: delta(2) }
}

/** `compareTotals` over two runs' results (pure: no IO). */
export const compareResults = (
  a: Iterable<EvalResult>,
  b: Iterable<EvalResult>,
  options: CompareOptions = {},
): Comparison => {
  const totalsA = new RunTotals()
  const totalsB = new RunTotals()
  for (const result of a) totalsA.add(result)
  for (const result of b) totalsB.add(result)
  return compareTotals(totalsA, totalsB, options)
}

/**
 * Compares run B with run A seed by seed. Each seed's score is its mean over its scored attempts; seeds
 * scored in both runs are paired and the difference d = B − A tested with a paired t-test, or with McNemar's
 * exact test when every paired score is 0 or 1 with one attempt per seed in each run (the CI is then still
 * the paired t's). Errored rollouts are excluded and counted, and so are seeds one run lacks.
 */
export const compareTotals = (sideA: RunTotals, sideB: RunTotals, options: CompareOptions = {}): Comparison => {
  const passThreshold = options.passThreshold ?? 1
  const seeds = Array.from(sideA.seeds.keys())
    .filter((seed) => sideA.seeds.get(seed)!.scored > 0 && (sideB.seeds.get(seed)?.scored ?? 0) > 0)
    .sort((x, y) => x - y)
  const n = seeds.length
  const paired = seeds.map((seed) => [sideA.seeds.get(seed)!, sideB.seeds.get(seed)!] as const)
  const scoresA = new Float64Array(n)
  const scoresB = new Float64Array(n)
  const diffs = new Float64Array(n)
  const aOnly: Array<number> = []
  const bOnly: Array<number> = []
  let binary = n > 0
  let rolloutsA = 0
  let rolloutsB = 0
  paired.forEach(([seedA, seedB], i) => {
    scoresA[i] = seedA.scoreSum / seedA.scored
    scoresB[i] = seedB.scoreSum / seedB.scored
    diffs[i] = scoresB[i]! - scoresA[i]!
    rolloutsA += seedA.scored
    rolloutsB += seedB.scored
    binary &&= seedA.allBinary && seedB.allBinary && seedA.scored === 1 && seedB.scored === 1
    const passedA = scoresA[i]! >= passThreshold
    const passedB = scoresB[i]! >= passThreshold
    if (passedA && !passedB) aOnly.push(seeds[i]!)
    if (passedB && !passedA) bOnly.push(seeds[i]!)
  })
  const t = pairedT(diffs)
  const meanA = mean(scoresA)
  const meanB = mean(scoresB)
  const diff = meanA === null || meanB === null ? null : meanB - meanA
  const test: CompareTest = binary ? "mcnemar_exact" : "paired_t"
  // With 0/1 scores the discordant pairs are the flips whatever the threshold in (0, 1]; count them directly.
  const pValue =
    test === "mcnemar_exact"
      ? mcnemarExactP(diffs.filter((d) => d < 0).length, diffs.filter((d) => d > 0).length)
      : t.pValue
  const unmatchedA = sideA.scoredSeeds() - n
  const unmatchedB = sideB.scoredSeeds() - n
  return {
    labels: options.labels ?? { a: "A", b: "B" },
    pairs: n,
    rollouts: { a: rolloutsA, b: rolloutsB },
    mean_a: meanA,
    mean_b: meanB,
    diff,
    se: t.se,
    df: t.df,
    ci95: t.ci95,
    p_value: pValue,
    test,
    alpha: COMPARE_ALPHA,
    verdict: verdictOf(pValue, diff),
    correlation: correlation(scoresA, scoresB),
    mde80: t.mde80,
    pass_threshold: passThreshold,
    flips: { a_only: aOnly, b_only: bOnly },
    excluded: {
      errored: sideA.errored + sideB.errored,
      unmatched: unmatchedA + unmatchedB,
      errored_a: sideA.errored,
      errored_b: sideB.errored,
      unmatched_a: unmatchedA,
      unmatched_b: unmatchedB,
    },
    deltas: deltasOf(paired),
    per_seed: seeds.map((seed, i) => ({ seed, a: scoresA[i]!, b: scoresB[i]! })),
  }
}
