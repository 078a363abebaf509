import { Schema } from "effect"
import { bootstrapCi } from "./Bootstrap.js"
import { cohenKappa, confusionMatrix } from "./CohenKappa.js"
import { krippendorffAlpha } from "./KrippendorffAlpha.js"
import { tCritical95 } from "./StudentT.js"

const NullableNumber = Schema.NullOr(Schema.Number)
const Interval = Schema.NullOr(Schema.Tuple(Schema.Number, Schema.Number))

/** A statistic with its 95% percentile-bootstrap interval over items (1,000 resamples, seed 0). */
export const BootstrapEstimate = Schema.Struct({ value: NullableNumber, ci95: Interval })
export type BootstrapEstimate = typeof BootstrapEstimate.Type

/**
 * One judge grader's verdict on one rollout, as the trust statistics read it. `value` is a label (label and fact
 * graders) or a raw score (rubric: the mean of the samples); `samples` the numbers each sample gave (a rubric's
 * scores, a label's verdict score), for the judge's own variance; `human` the dataset's human label or score for the
 * item; `orders` a pairwise verdict's winner in each order asked, in the rollout answer's terms.
 */
export interface JudgeObservation {
  readonly grader: string
  /** The task (dataset row or seed): the unit resampled by the bootstrap and the pair of a paired comparison. */
  readonly item: string
  readonly kind: "label" | "score" | "pairwise"
  readonly value: string | number
  /** The verdict's score in [0, 1] (a pairwise verdict's: 1 won, ½ tie, 0 lost). */
  readonly score: number
  readonly samples?: ReadonlyArray<number> | undefined
  readonly human?: string | number | null | undefined
  readonly orders?: ReadonlyArray<{ readonly order: string; readonly outcome: "won" | "tie" | "lost" }> | undefined
}

export const HumanAgreement = Schema.Struct({
  /** Items with both a verdict and a human label. */
  items: Schema.Number,
  /** Cohen's kappa, judge vs human, when both are labels. */
  kappa: Schema.NullOr(BootstrapEstimate),
  /** Krippendorff's alpha (ordinal when both are scores, else nominal), judge vs human. */
  alpha: BootstrapEstimate,
  alpha_level: Schema.Literal("nominal", "ordinal"),
  /** Rows: the human's labels; columns: the judge's. Null with more than 12 distinct values. */
  confusion: Schema.NullOr(
    Schema.Struct({ labels: Schema.Array(Schema.String), counts: Schema.Array(Schema.Array(Schema.Number)) }),
  ),
})

export const SelfConsistency = Schema.Struct({
  /** Samples per item (the most any item had). */
  samples: Schema.Number,
  items: Schema.Number,
  /** Mean over items of the variance of the judge's samples of that item (verdict scores in [0, 1]). */
  within_item_variance: Schema.Number,
  /**
   * The judge's own share of the squared standard error of the mean score: (within-item variance / samples) over
   * the variance of the item means. More samples shrink only this part. Null when every item mean is equal.
   */
  share_of_stderr2: NullableNumber,
})

export const PositionBias = Schema.Struct({
  /** Items the judge compared in both orders. */
  items: Schema.Number,
  /** Share of those items whose verdict changes when the two answers swap places. */
  flip_rate: BootstrapEstimate,
  /** Share of decided (not tied) verdicts that chose the answer shown first. */
  first_shown_wins: NullableNumber,
})

export const WinRate = Schema.Struct({
  /** The rollout answers' mean pairwise score (win 1, tie ½, loss 0), each task's attempts averaged first. */
  value: NullableNumber,
  /** Student-t 95% interval over tasks (the comparison is paired: both answers are of the same task). */
  ci95: Interval,
  tasks: Schema.Number,
})

/** How far one judge grader can be trusted, from its verdicts (see `judgeTrust`). */
export const GraderTrust = Schema.Struct({
  grader: Schema.String,
  kind: Schema.Literal("label", "score", "pairwise"),
  items: Schema.Number,
  human: Schema.NullOr(HumanAgreement),
  self_consistency: Schema.NullOr(SelfConsistency),
  position_bias: Schema.NullOr(PositionBias),
  win_rate: Schema.NullOr(WinRate),
})
export type GraderTrust = typeof GraderTrust.Type

/** Two judge graders' agreement on the items both graded (a second judge added by re-grading, say). */
export const JudgesAgreement = Schema.Struct({
  graders: Schema.Tuple(Schema.String, Schema.String),
  items: Schema.Number,
  kappa: Schema.NullOr(BootstrapEstimate),
  alpha: BootstrapEstimate,
  alpha_level: Schema.Literal("nominal", "ordinal"),
})
export type JudgesAgreement = typeof JudgesAgreement.Type

export const JudgeTrust = Schema.Struct({
  graders: Schema.Array(GraderTrust),
  agreement: Schema.Array(JudgesAgreement),
})
export type JudgeTrust = typeof JudgeTrust.Type

const RESAMPLES = 1000
const MAX_CONFUSION_LABELS = 12

const numeric = (value: string | number): number | null => {
  const number = typeof value === "number" ? value : value.trim() === "" ? Number.NaN : Number(value)
  return Number.isFinite(number) ? number : null
}

/** Agreement of paired ratings: kappa for labels; alpha, ordinal when both sides are numbers. */
const agreementOf = (pairs: ReadonlyArray<readonly [string | number, string | number]>) => {
  const numbers = pairs.map(([a, b]) => [numeric(a), numeric(b)] as const)
  const ordinal = numbers.every(([a, b]) => a !== null && b !== null)
  const units = ordinal ? numbers : pairs
  const level = ordinal ? ("ordinal" as const) : ("nominal" as const)
  const labels = pairs.map(([a, b]) => [String(a), String(b)] as const)
  const alphaOf = (indices: ArrayLike<number>) =>
    krippendorffAlpha(
      Array.from(indices, (i) => units[i]!),
      level,
    )
  const kappaOf = (indices: ArrayLike<number>) => cohenKappa(Array.from(indices, (i) => labels[i]!))
  const all = Array.from(pairs, (_, i) => i)
  return {
    items: pairs.length,
    kappa: ordinal ? null : { value: kappaOf(all), ci95: bootstrapCi(pairs.length, kappaOf, { resamples: RESAMPLES }) },
    alpha: { value: alphaOf(all), ci95: bootstrapCi(pairs.length, alphaOf, { resamples: RESAMPLES }) },
    alpha_level: level,
    labels,
  }
}

const humanAgreement = (observations: ReadonlyArray<JudgeObservation>) => {
  const pairs = observations.flatMap((o) =>
    o.human === undefined || o.human === null || o.human === "" ? [] : [[o.human, o.value] as const],
  )
  if (pairs.length === 0) return null
  const { labels, ...agreement } = agreementOf(pairs)
  const matrix = confusionMatrix(labels)
  return {
    ...agreement,
    confusion: matrix.labels.length > MAX_CONFUSION_LABELS ? null : matrix,
  }
}

const groupInto = <K, V>(groups: Map<K, Array<V>>, key: K, value: V) => {
  const group = groups.get(key)
  if (group === undefined) groups.set(key, [value])
  else group.push(value)
}

const mean = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0) / values.length
const variance = (values: ReadonlyArray<number>) => {
  const m = mean(values)
  return values.reduce((total, value) => total + (value - m) ** 2, 0) / (values.length - 1)
}

const selfConsistency = (observations: ReadonlyArray<JudgeObservation>) => {
  const sampled = observations.filter((o) => (o.samples?.length ?? 0) > 1)
  if (sampled.length < 2) return null
  const samples = Math.max(...sampled.map((o) => o.samples!.length))
  const within = mean(sampled.map((o) => variance(o.samples!)))
  const between = variance(sampled.map((o) => mean(o.samples!)))
  return {
    samples,
    items: sampled.length,
    within_item_variance: within,
    share_of_stderr2: between > 0 ? Math.min(1, within / samples / between) : null,
  }
}

const positionBias = (observations: ReadonlyArray<JudgeObservation>) => {
  const both = observations.filter((o) => (o.orders?.length ?? 0) >= 2)
  if (both.length === 0) return null
  const flips = both.map((o) => (o.orders![0]!.outcome === o.orders![1]!.outcome ? 0 : 1))
  const flipRate = (indices: ArrayLike<number>) => {
    let sum = 0
    for (let i = 0; i < indices.length; i++) sum += flips[indices[i]!]!
    return sum / indices.length
  }
  const decided = observations.flatMap((o) => (o.orders ?? []).filter((each) => each.outcome !== "tie"))
  const firstWins = decided.filter((each) => (each.order === "answer_first") === (each.outcome === "won")).length
  return {
    items: both.length,
    flip_rate: {
      value: flipRate(Array.from(flips, (_, i) => i)),
      ci95: bootstrapCi(flips.length, flipRate, { resamples: RESAMPLES }),
    },
    first_shown_wins: decided.length === 0 ? null : firstWins / decided.length,
  }
}

const winRate = (observations: ReadonlyArray<JudgeObservation>) => {
  const byTask = new Map<string, Array<number>>()
  for (const o of observations) groupInto(byTask, o.item, o.score)
  const perTask = [...byTask.values()].map(mean)
  const n = perTask.length
  if (n === 0) return null
  const value = mean(perTask)
  if (n < 2) return { value, ci95: null, tasks: n }
  const half = tCritical95(n - 1) * Math.sqrt(variance(perTask) / n)
  return { value, ci95: [value - half, value + half] as const, tasks: n }
}

const graderTrust = (grader: string, observations: ReadonlyArray<JudgeObservation>): GraderTrust => {
  const kind = observations[0]!.kind
  return {
    grader,
    kind,
    items: new Set(observations.map((o) => o.item)).size,
    human: kind === "pairwise" ? null : humanAgreement(observations),
    self_consistency: selfConsistency(observations),
    position_bias: kind === "pairwise" ? positionBias(observations) : null,
    win_rate: kind === "pairwise" ? winRate(observations) : null,
  }
}

/** Two graders' agreement on the items both graded; null when they share none or are of different kinds. */
const judgesAgreement = (
  [a, first]: readonly [string, ReadonlyArray<JudgeObservation>],
  [b, second]: readonly [string, ReadonlyArray<JudgeObservation>],
): JudgesAgreement | null => {
  if (first[0]!.kind !== second[0]!.kind || first[0]!.kind === "pairwise") return null
  const other = new Map(second.map((o) => [o.item, o.value]))
  const pairs = first.flatMap((o) => (other.has(o.item) ? [[o.value, other.get(o.item)!] as const] : []))
  if (pairs.length === 0) return null
  const { labels: _, ...agreement } = agreementOf(pairs)
  return { graders: [a, b], ...agreement }
}

/**
 * How far the run's judges can be trusted, grader by grader: agreement with human labels (Cohen's kappa for labels,
 * Krippendorff's alpha — ordinal for scores — and a confusion matrix, each with a bootstrap CI over items), the
 * judge's own variance when it sampled each item more than once (`[eval.judge] samples`), a pairwise judge's
 * position bias and win rate; and every two judge graders' agreement. Bootstraps are seeded: the same verdicts give
 * the same intervals. Null with no observations.
 */
export const judgeTrust = (observations: ReadonlyArray<JudgeObservation>): JudgeTrust | null => {
  if (observations.length === 0) return null
  const byGrader = new Map<string, Array<JudgeObservation>>()
  for (const o of observations) groupInto(byGrader, o.grader, o)
  const graders = [...byGrader]
  const agreement: Array<JudgesAgreement> = []
  for (let i = 0; i < graders.length; i++) {
    for (let j = i + 1; j < graders.length; j++) {
      const found = judgesAgreement(graders[i]!, graders[j]!)
      if (found !== null) agreement.push(found)
    }
  }
  return { graders: graders.map(([grader, each]) => graderTrust(grader, each)), agreement }
}
