import { type Effect, Schema } from "effect"

/** What a grader looks at: the rollout's final answer, the task's row (`item`) and, for agents, its steps. */
export interface GraderInput {
  readonly answer: string
  readonly item: Readonly<Record<string, unknown>>
  readonly trajectory?: ReadonlyArray<unknown>
  /** The prompt the policy was given, when proctor filled it in (dataset runs): what a judge reads as the task. */
  readonly prompt?: string
  /** The tools the model called (dataset runs that offer tools): each name and its arguments, parsed when JSON. */
  readonly toolCalls?: ReadonlyArray<{ readonly name: string; readonly arguments: unknown }>
}

/** One grader's judgement of one rollout: a score in [0, 1], whether it passed, and why. */
export const GraderVerdict = Schema.Struct({
  score: Schema.Number,
  passed: Schema.Boolean,
  reason: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Unknown),
})
export type GraderVerdict = typeof GraderVerdict.Type

/** A rollout's verdicts, one per grader name: the metrics a run (or a grader set) stores per result. */
export const GraderVerdicts = Schema.Record({ key: Schema.String, value: GraderVerdict })
export type GraderVerdicts = typeof GraderVerdicts.Type

/**
 * A grader that could not judge (a code grader that threw, a schema file that does not load): the rollout is an
 * error of kind `grader`, never a silent 0.
 */
export class GraderError extends Schema.TaggedError<GraderError>()("GraderError", {
  reason: Schema.Literal("Threw", "BadResult", "Unloadable"),
  grader: Schema.String,
  message: Schema.String,
  cause: Schema.optional(Schema.Unknown),
}) {}

/** A grader as the contract of the grader and judge work says: one rollout in, one verdict out. */
export type Grader<R = never> = (input: GraderInput) => Effect.Effect<GraderVerdict, GraderError, R>
