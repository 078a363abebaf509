import type { GraderVerdict } from "../grader/Grader.js"
import type { JudgeObservation } from "../summary/JudgeTrust.js"

type Outcome = "won" | "tie" | "lost"

interface JudgedDetails {
  readonly kind?: unknown
  readonly raw_score?: unknown
  readonly label?: unknown
  readonly sample_scores?: unknown
  readonly verdicts?: ReadonlyArray<{ readonly order?: unknown; readonly outcomes?: ReadonlyArray<unknown> }>
}

const numbers = (value: unknown): ReadonlyArray<number> | undefined =>
  Array.isArray(value) && value.every((each) => typeof each === "number") ? value : undefined

const isOutcome = (value: unknown): value is Outcome => value === "won" || value === "tie" || value === "lost"

/**
 * What the trust statistics read of a model grader's verdict on one rollout: its label or raw score, each sample's
 * verdict score, a pairwise verdict's outcome in each order asked, and the item's human label. Null for a verdict
 * that is not a model grader's (a rule grader's has no `kind` in its details).
 */
export const judgeObservation = (
  grader: string,
  verdict: GraderVerdict,
  /** The task: a dataset row's id, or the seed. */
  item: string,
  human?: string | number | null,
): JudgeObservation | null => {
  const details = (verdict.details ?? {}) as JudgedDetails
  const common = { grader, item, score: verdict.score, ...(human === undefined ? {} : { human }) }
  switch (details.kind) {
    case "score":
      return typeof details.raw_score === "number"
        ? { ...common, kind: "score", value: details.raw_score, samples: numbers(details.sample_scores) }
        : null
    case "label":
      return typeof details.label === "string"
        ? { ...common, kind: "label", value: details.label, samples: numbers(details.sample_scores) }
        : null
    case "pairwise": {
      const orders = (details.verdicts ?? []).flatMap((each) =>
        typeof each.order === "string" && isOutcome(each.outcomes?.[0])
          ? [{ order: each.order, outcome: each.outcomes[0] }]
          : [],
      )
      const shares = (details.verdicts?.[0]?.outcomes ?? [])
        .filter(isOutcome)
        .map((outcome) => (outcome === "won" ? 1 : outcome === "tie" ? 0.5 : 0))
      return { ...common, kind: "pairwise", value: verdict.score, samples: shares, orders }
    }
    default:
      return null
  }
}
