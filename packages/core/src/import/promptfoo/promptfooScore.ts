import type { GraderVerdict } from "../../grader/Grader.js"
import type { ImportedAggregate } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"

/** A test's, a set's or an assertion's `threshold` as given: a number, or none (absent or null). */
export const thresholdOf = (value: unknown, path: string): number | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== "number" || Number.isNaN(value))
    throw new ImportProblem(`${path}.threshold`, `expected a number, not ${shown(value)}`)
  return value
}

/**
 * A promptfoo test's result from its assertions' (promptfoo's `AssertionsResult`): the score is their mean weighted by
 * `weight` (0 when every weight is 0; 1 with no assertions); the test passes when every assertion passed, or, when the
 * test sets a numeric `threshold`, when the score reaches it (whatever single assertions did).
 */
export const promptfooAggregate =
  (threshold: number | undefined): ImportedAggregate =>
  (verdicts): GraderVerdict => {
    if (verdicts.length === 0) return { score: 1, passed: true, reason: "no assertions" }
    let total = 0
    let weights = 0
    for (const { check, verdict } of verdicts) {
      total += verdict.score * check.weight
      weights += check.weight
    }
    const score = weights > 0 ? total / weights : 0
    const failed = verdicts.filter(({ verdict }) => !verdict.passed).map(({ check }) => check.name)
    if (threshold !== undefined) {
      const passed = score >= threshold
      return { score, passed, reason: `score ${score.toFixed(2)} ${passed ? "≥" : "<"} threshold ${threshold}` }
    }
    return failed.length === 0
      ? { score, passed: true }
      : { score, passed: false, reason: `failed: ${failed.join(", ")}` }
  }
