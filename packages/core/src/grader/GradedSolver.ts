import { Context, Effect, Layer, Option } from "effect"
import { isRecord } from "../internal/isRecord.js"
import { JudgedRollout } from "../judge/JudgedRollout.js"
import type { JudgeError } from "../judge/JudgeError.js"
import { RunJudges, type RunJudgesService } from "../judge/RunJudges.js"
import {
  type FinalResult,
  type RolloutTask,
  Solver,
  SolverError,
  type SolverService,
  type StepRecord,
} from "../solver/Solver.js"
import type { GraderError, GraderInput } from "./Grader.js"
import type { GradeOutcome, GraderSet } from "./GraderSet.js"

/** The first value that is an answer: a string, or a number as its text (a task app may state `answer: 12`). */
const firstText = (...values: ReadonlyArray<unknown>): string | undefined => {
  for (const value of values) {
    if (typeof value === "string") return value
    if (typeof value === "number" && Number.isFinite(value)) return String(value)
  }
  return undefined
}

const field = (value: unknown, key: string): unknown => (isRecord(value) ? value[key] : undefined)

/**
 * A finished rollout's answer, for graders: what it said its answer was (`details.answer`, an in-process solver's
 * `answer`, a task app's trajectory `final.answer` or `info.answer`; text or a number), else the agent's last model
 * message, else its `final` as JSON — all the task app said, its own verdict included when it put one there (a task
 * app whose rollouts are judged states `answer`).
 */
export const answerOfFinal = (
  final: Pick<FinalResult, "details" | "final" | "info">,
  trajectory: ReadonlyArray<unknown>,
): string => {
  const stated = firstText(
    field(final.details, "answer"),
    field(final.final, "answer"),
    field(final.info, "answer"),
    field(final.final, "text"),
  )
  if (stated !== undefined) return stated
  const lastModelText = trajectory
    .filter((step) => field(step, "kind") === "model")
    .map((step) => field(step, "text"))
    .filter((text): text is string => typeof text === "string" && text !== "")
    .at(-1)
  if (lastModelText !== undefined) return lastModelText
  return final.final === undefined ? "" : JSON.stringify(final.final)
}

/** The row a task-app or agent rollout is graded against: what the task said of it (`metrics.details`), and its seed. */
export const itemOfFinal = (final: Pick<FinalResult, "details">, seed: number): Record<string, unknown> => ({
  seed,
  ...(isRecord(final.details) ? final.details : {}),
})

/**
 * A grader that could not judge makes the rollout an error of kind `verifier`, a judge that gave no usable verdict
 * one of kind `judge`: never a silent 0.
 */
export const graderFailure = (error: GraderError | JudgeError): SolverError =>
  new SolverError({
    reason: error._tag === "JudgeError" ? "Judge" : "Verifier",
    retryable: false,
    message: `grader ${error.grader}: ${error.message}`,
  })

/** A rollout's grading, with the run's judges and the rollout the judges' calls count toward; its errors as they are. */
export const gradeWithJudges = (
  graders: GraderSet,
  judges: RunJudgesService,
  rollout: JudgedRollout["Type"],
  input: GraderInput,
): Effect.Effect<GradeOutcome, GraderError | JudgeError> =>
  // One context for both: each service provided apart copies the whole context, a cost per rollout.
  Effect.provide(graders.grade(input), Context.make(RunJudges, judges).pipe(Context.add(JudgedRollout, rollout)))

/** A rollout's grading, its errors as the rollout's (`graderFailure`). */
export const gradeRollout = (
  graders: GraderSet,
  judges: RunJudgesService,
  task: Pick<RolloutTask, "rolloutId" | "key">,
  input: GraderInput,
): Effect.Effect<GradeOutcome, SolverError> =>
  gradeWithJudges(
    graders,
    judges,
    { rolloutId: task.rolloutId, seed: task.key.seed, attempt: task.key.attempt },
    input,
  ).pipe(Effect.mapError(graderFailure))

/** The run's judges where the layer is built (`RunJudges.none` without an interceptor). */
export const runJudgesOrNone = Effect.map(
  Effect.serviceOption(RunJudges),
  Option.getOrElse(() => RunJudges.none),
)

/**
 * Grades the rollouts of another solver (a task app's, an agent's) after they finish: the task's own score stays
 * the score, the graders' combined score goes to `verifier_score` (the column synth-ai's runner reads) and each
 * verdict to `grades`. An agent's steps, as recorded, are the graders' trajectory.
 */
export const gradedSolver = (solver: SolverService, graders: GraderSet, judges: RunJudgesService): SolverService => ({
  ...solver,
  name: `${solver.name}+graders`,
  solve: (task) => {
    const steps: Array<StepRecord> = []
    const record = task.recordStep
    const recordStep =
      record === undefined
        ? undefined
        : (step: StepRecord) => {
            steps.push(step)
            return record(step)
          }
    return Effect.flatMap(
      solver.solve(recordStep === undefined ? task : { ...task, recordStep }),
      (final): Effect.Effect<FinalResult, SolverError> => {
        const input: GraderInput = {
          answer: answerOfFinal(final, steps),
          item: itemOfFinal(final, task.key.seed),
          trajectory: steps,
        }
        return Effect.map(gradeRollout(graders, judges, task, input), (graded) => ({
          ...final,
          verifier_score: graded.score,
          grades: graded.grades,
        }))
      },
    )
  },
})

/** Wraps the `Solver` it is given with the run's graders (their judges: the run's `RunJudges`, when provided). */
export const gradedLayer = (graders: GraderSet) =>
  Layer.effect(
    Solver,
    Effect.zipWith(Solver, runJudgesOrNone, (solver, judges) => gradedSolver(solver, graders, judges)),
  )
