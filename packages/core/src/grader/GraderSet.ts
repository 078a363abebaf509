import { Effect } from "effect"
import { GraderError, type GraderInput, type GraderVerdicts } from "./Grader.js"
import { type GraderSpec, graderName } from "./GraderSpec.js"
import { type LoadedCodeGrader, loadCodeGrader } from "./loadCodeGrader.js"
import { compileRuleGrader, type RuleGrader } from "./RuleGraders.js"

/** A rollout graded by every grader of a set: each verdict by name, and the score they make together. */
export interface GradeOutcome {
  readonly score: number
  readonly grades: GraderVerdicts
}

/** The name of the grader whose score is the run's score; without one, the weighted mean of all is. */
export const SCORE_GRADER = "score"

export interface GraderSet {
  readonly specs: ReadonlyArray<GraderSpec>
  readonly names: ReadonlyArray<string>
  readonly grade: (input: GraderInput) => Effect.Effect<GradeOutcome, GraderError>
  /**
   * The same, with no Effect per rollout, when every grader is a rule (re-grading 100,000 stored rollouts is then
   * a plain loop); null when a grader is code. Throws the `GraderError` `grade` would fail with.
   */
  readonly gradeSync: ((input: GraderInput) => GradeOutcome) | null
}

type Compiled =
  | { readonly name: string; readonly weight: number; readonly rule: RuleGrader }
  | { readonly name: string; readonly weight: number; readonly code: LoadedCodeGrader }

/** The run's score from its verdicts: the `score` grader's, else the mean weighted by `weight` (default 1). */
export const combineScores = (compiled: ReadonlyArray<{ readonly name: string; readonly weight: number }>) => {
  const scorer = compiled.find((grader) => grader.name === SCORE_GRADER)
  if (scorer !== undefined) return (grades: GraderVerdicts) => grades[SCORE_GRADER]!.score
  const totalWeight = compiled.reduce((sum, grader) => sum + grader.weight, 0)
  return (grades: GraderVerdicts) => {
    let sum = 0
    for (const grader of compiled) sum += grader.weight * grades[grader.name]!.score
    return sum / totalWeight
  }
}

const asGraderError = (error: unknown): GraderError =>
  error instanceof GraderError
    ? error
    : new GraderError({ reason: "Threw", grader: "?", message: String(error), cause: error })

/** Compiles a list of grader specs (templates, regexes, schemas, code modules) once, for a run or a re-grade. */
export const makeGraderSet = (specs: ReadonlyArray<GraderSpec>): Effect.Effect<GraderSet, GraderError> =>
  Effect.gen(function* () {
    const compiled: Array<Compiled> = []
    for (const spec of specs) {
      const name = graderName(spec)
      const weight = spec.weight ?? 1
      const rule = yield* Effect.try({ try: () => compileRuleGrader(spec), catch: asGraderError })
      if (rule !== null) compiled.push({ name, weight, rule })
      else if (spec.type === "code") compiled.push({ name, weight, code: yield* loadCodeGrader(spec) })
    }
    const combine = combineScores(compiled)
    const allRules = compiled.every((grader) => "rule" in grader)
    const gradeSync = (input: GraderInput): GradeOutcome => {
      const grades: Record<string, GraderVerdicts[string]> = {}
      for (const grader of compiled) grades[grader.name] = (grader as { rule: RuleGrader }).rule(input)
      return { score: combine(grades), grades }
    }
    const grade = (input: GraderInput): Effect.Effect<GradeOutcome, GraderError> =>
      allRules
        ? Effect.try({ try: () => gradeSync(input), catch: asGraderError })
        : Effect.gen(function* () {
            const grades: Record<string, GraderVerdicts[string]> = {}
            for (const grader of compiled) {
              grades[grader.name] =
                "rule" in grader
                  ? yield* Effect.try({ try: () => grader.rule(input), catch: asGraderError })
                  : yield* grader.code(input)
            }
            return { score: combine(grades), grades }
          })
    return { specs, names: compiled.map((grader) => grader.name), grade, gradeSync: allRules ? gradeSync : null }
  })
