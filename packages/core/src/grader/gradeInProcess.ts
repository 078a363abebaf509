import { Effect, Either, Schema } from "effect"
import { formatParseIssues, renderPath } from "../internal/formatIssues.js"
import { promiseOf } from "../internal/promiseOf.js"
import { JudgedRollout } from "../judge/JudgedRollout.js"
import type { JudgeSettings } from "../judge/JudgeSettings.js"
import { RunJudges, type RunJudgesService } from "../judge/RunJudges.js"
import type { GraderInput } from "./Grader.js"
import { type GradeOutcome, type GraderSet, makeGraderSet } from "./GraderSet.js"
import { GraderSpecs, reviewGraderKeys } from "./GraderSpec.js"

/** What `ctx.grade` is given: one grader spec or several, as `[[eval.graders]]` tables are written. */
export type GraderSpecInput = Readonly<Record<string, unknown>> | ReadonlyArray<Readonly<Record<string, unknown>>>

/** `ctx.grade(graders, { answer, item })`: resolves to the combined score and each verdict by name. */
export type GradeInProcess = (
  graders: GraderSpecInput,
  input: Partial<GraderInput> & { readonly answer: string },
) => Promise<GradeOutcome>

/** The rollout a `ctx.grade` call grades: its judges' calls count toward it. */
export type GradedRolloutKey = JudgedRollout["Type"]

const decodeSpecs = Schema.decodeUnknownEither(GraderSpecs, { errors: "all" })

/**
 * The specs `ctx.grade` was given, or its one line naming what is wrong and where (`grader.tolerence: unknown key — did
 * you mean grader.tolerance?`). A key the grader does not read is an error here, not the config file's warning: in
 * code it is a typo, and decoding alone would drop it without a word (a `tolerence` leaving the tolerance 0).
 */
const specsOf = (graders: GraderSpecInput): (typeof GraderSpecs)["Type"] => {
  const list = Array.isArray(graders)
  const specs: ReadonlyArray<unknown> = list ? graders : [graders]
  const render = (path: ReadonlyArray<PropertyKey>) =>
    list ? renderPath("graders", path) : renderPath("grader", path.slice(1))
  const unknownKeys = reviewGraderKeys(specs, [], render)
  if (unknownKeys.length > 0) throw new Error(`ctx.grade: ${unknownKeys.map((finding) => finding.message).join("; ")}`)
  const decoded = decodeSpecs(specs)
  if (Either.isLeft(decoded)) {
    throw new Error(`ctx.grade: ${formatParseIssues(decoded.left, render).replaceAll("\n", "; ")}`)
  }
  return decoded.right
}

/**
 * `ctx.grade` for the rollouts of one `evaluate()` run: rule, code and model graders. A solver grades with the same
 * specs rollout after rollout, so each list is compiled (code loaded) once; model graders ask the run's judges
 * (`judges`, with `evalJudge` as every model grader's judge unless it names its own), and their calls are stored
 * under the rollout being graded. Rejects with the spec's problem, or the `GraderError` or `JudgeError` of a grader
 * that could not judge.
 */
export const inProcessGrading = (judges: RunJudgesService, evalJudge: JudgeSettings | undefined) => {
  const compiledSets = new WeakMap<object, Promise<GraderSet>>()
  const compiled = (graders: GraderSpecInput): Promise<GraderSet> => {
    let set = compiledSets.get(graders)
    if (set === undefined) {
      try {
        set = promiseOf(makeGraderSet(specsOf(graders), evalJudge))
      } catch (problem) {
        set = Promise.reject(problem)
      }
      compiledSets.set(graders, set)
    }
    return set
  }
  return (rollout: GradedRolloutKey): GradeInProcess =>
    (graders, input) =>
      compiled(graders).then((set) =>
        promiseOf(
          set
            .grade({
              answer: input.answer,
              item: input.item ?? {},
              trajectory: input.trajectory ?? [],
              ...(input.prompt === undefined ? {} : { prompt: input.prompt }),
            })
            .pipe(Effect.provideService(RunJudges, judges), Effect.provideService(JudgedRollout, rollout)),
        ),
      )
}
