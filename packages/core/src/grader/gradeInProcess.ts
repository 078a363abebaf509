import { Effect, Schema } from "effect"
import { RunJudges } from "../judge/RunJudges.js"
import type { GraderInput } from "./Grader.js"
import { type GradeOutcome, type GraderSet, makeGraderSet } from "./GraderSet.js"
import { GraderSpecs } from "./GraderSpec.js"

/** What `ctx.grade` is given: one grader spec or several, as `[[eval.graders]]` tables are written. */
export type GraderSpecInput = Readonly<Record<string, unknown>> | ReadonlyArray<Readonly<Record<string, unknown>>>

const decodeSpecs = Schema.decodeUnknownSync(GraderSpecs)

/** A solver grades with the same specs rollout after rollout: each list is compiled (code loaded) once. */
const compiledSets = new WeakMap<object, Promise<GraderSet>>()

/**
 * `ctx.grade(graders, { answer, item })` of `evaluate()`: the run's rule and code graders, called from a solver.
 * Rejects with the spec's problem or the `GraderError` of a grader that could not judge.
 */
export const gradeInProcess = (graders: GraderSpecInput, input: Partial<GraderInput> & { readonly answer: string }) => {
  let compiled = compiledSets.get(graders)
  if (compiled === undefined) {
    const specs = decodeSpecs(Array.isArray(graders) ? graders : [graders])
    compiled = Effect.runPromise(makeGraderSet(specs))
    compiledSets.set(graders, compiled)
  }
  return compiled.then(
    (set): Promise<GradeOutcome> =>
      Effect.runPromise(
        // ctx.grade runs in the solver, beside no interceptor of proctor's: a model grader says so.
        set
          .grade({ answer: input.answer, item: input.item ?? {}, trajectory: input.trajectory ?? [] })
          .pipe(Effect.provideService(RunJudges, RunJudges.none)),
      ),
  )
}
