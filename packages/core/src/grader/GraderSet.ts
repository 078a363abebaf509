import { Effect } from "effect"
import { JudgeClient } from "../judge/JudgeClient.js"
import type { JudgeError } from "../judge/JudgeError.js"
import { judgeOf } from "../judge/JudgeGrader.js"
import type { JudgeSettings } from "../judge/JudgeSettings.js"
import { gradeByModel, isModelGraderSpec, type ModelGraderSpec } from "../judge/ModelGraderSpec.js"
import { RunJudges } from "../judge/RunJudges.js"
import { GraderError, type GraderInput, type GraderVerdict, type GraderVerdicts } from "./Grader.js"
import { type GraderSpec, graderName } from "./GraderSpec.js"
import { type LoadedCodeGrader, loadCodeGrader } from "./loadCodeGrader.js"
import { loadPythonGrader } from "./loadPythonGrader.js"
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
  /** Model graders ask the run's judges (`RunJudges`); a judge that gives no usable answer is a `JudgeError`. */
  readonly grade: (input: GraderInput) => Effect.Effect<GradeOutcome, GraderError | JudgeError, RunJudges>
  /** True when a grader asks a judge model: grading then makes model calls, recorded with the run's. */
  readonly judged: boolean
  /**
   * The same, with no Effect per rollout, when every grader is a rule (re-grading 100,000 stored rollouts is then
   * a plain loop); null when a grader is code or a model. Throws the `GraderError` `grade` would fail with.
   */
  readonly gradeSync: ((input: GraderInput) => GradeOutcome) | null
}

type ModelGrader = (input: GraderInput) => Effect.Effect<GraderVerdict, GraderError | JudgeError, RunJudges>

type Compiled =
  | { readonly name: string; readonly weight: number; readonly rule: RuleGrader }
  | { readonly name: string; readonly weight: number; readonly code: LoadedCodeGrader }
  | { readonly name: string; readonly weight: number; readonly model: ModelGrader }

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

/** A model grader bound to its judge: each verdict asks the run's client of that judge. */
export const modelGrader = (name: string, spec: ModelGraderSpec, evalJudge: JudgeSettings | undefined) =>
  Effect.gen(function* () {
    const settings = judgeOf(spec, evalJudge)
    if (settings === null) {
      return yield* new GraderError({
        reason: "Unloadable",
        grader: name,
        message:
          "a model grader needs a judge: declare [eval.judge] (--judge on the command line: its model and inference_url; evaluate's `judge` option) or the grader's own judge",
      })
    }
    const grade: ModelGrader = (input) =>
      Effect.flatMap(RunJudges, (judges) =>
        Effect.flatMap(judges.clientOf(name, settings), (client) =>
          Effect.provideService(gradeByModel(spec, input), JudgeClient, client),
        ),
      )
    return grade
  })

/**
 * Compiles a list of grader specs (templates, regexes, schemas, code modules, model graders bound to their judge:
 * their own, else `evalJudge`) once, for a run or a re-grade.
 */
export const makeGraderSet = (
  specs: ReadonlyArray<GraderSpec>,
  evalJudge?: JudgeSettings | undefined,
): Effect.Effect<GraderSet, GraderError> =>
  Effect.gen(function* () {
    const compiled: Array<Compiled> = []
    for (const spec of specs) {
      const name = graderName(spec)
      const weight = spec.weight ?? 1
      if (isModelGraderSpec(spec)) {
        compiled.push({ name, weight, model: yield* modelGrader(name, spec, evalJudge) })
        continue
      }
      const rule = yield* Effect.try({ try: () => compileRuleGrader(spec), catch: asGraderError })
      if (rule !== null) compiled.push({ name, weight, rule })
      else if (spec.type === "code") compiled.push({ name, weight, code: yield* loadCodeGrader(spec) })
      else if (spec.type === "python") compiled.push({ name, weight, code: yield* loadPythonGrader(spec) })
    }
    const combine = combineScores(compiled)
    const allRules = compiled.every((grader) => "rule" in grader)
    const gradeSync = (input: GraderInput): GradeOutcome => {
      const grades: Record<string, GraderVerdicts[string]> = {}
      for (const grader of compiled) grades[grader.name] = (grader as { rule: RuleGrader }).rule(input)
      return { score: combine(grades), grades }
    }
    const grade = (input: GraderInput): Effect.Effect<GradeOutcome, GraderError | JudgeError, RunJudges> =>
      allRules
        ? Effect.try({ try: () => gradeSync(input), catch: asGraderError })
        : Effect.gen(function* () {
            const grades: Record<string, GraderVerdicts[string]> = {}
            for (const grader of compiled) {
              grades[grader.name] =
                "rule" in grader
                  ? yield* Effect.try({ try: () => grader.rule(input), catch: asGraderError })
                  : "code" in grader
                    ? yield* grader.code(input)
                    : yield* grader.model(input)
            }
            return { score: combine(grades), grades }
          })
    return {
      specs,
      names: compiled.map((grader) => grader.name),
      grade,
      judged: compiled.some((grader) => "model" in grader),
      gradeSync: allRules ? gradeSync : null,
    }
  })
