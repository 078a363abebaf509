import { Effect, Schema } from "effect"
import { type JudgeAnswer, type JudgeAsk, JudgeClient, type JudgeSpend } from "./JudgeClient.js"
import type { JudgeError } from "./JudgeError.js"
import { JudgeSettings, judgeDefaults } from "./JudgeSettings.js"

/**
 * What a grader grades (the grader contract's `GraderInput`): the rollout's final answer, its task's dataset row,
 * and its trajectory when it has one. The grader framework (`grader/`) owns the type; model graders take it as is.
 */
export interface GraderInput {
  readonly answer: string
  readonly item: Readonly<Record<string, unknown>>
  readonly trajectory?: ReadonlyArray<unknown> | undefined
}

/** A grader's verdict (the grader contract's `GraderVerdict`): a score in [0, 1], whether it passes, and why. */
export interface GraderVerdict {
  readonly score: number
  readonly passed: boolean
  readonly reason?: string | undefined
  readonly details?: unknown
}

/** Fields every model grader's spec has (the grader contract: a `name`, an optional `weight`). */
export const judgeGraderFields = {
  name: Schema.NonEmptyTrimmedString,
  weight: Schema.optionalWith(Schema.Number.pipe(Schema.nonNegative()), { exact: true }),
  /** The dataset column holding the task put to the policy, shown to the judge. */
  question: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true, default: () => "question" }),
  /** This grader's own judge (a second judge to compare with the first, say); else `[eval.judge]`. */
  judge: Schema.optionalWith(JudgeSettings, { exact: true }),
}

/** The judge a model grader asks: its own, else the eval's; null when neither is declared. */
export const judgeOf = (
  spec: { readonly judge?: JudgeSettings | undefined },
  evalJudge: JudgeSettings | undefined,
): JudgeSettings | null => spec.judge ?? evalJudge ?? null

/** What every model grader's verdict records of its judge: model, every sample's value, tries and spend. */
export interface JudgeRecord<A> {
  readonly model: string
  readonly samples: ReadonlyArray<A>
  readonly reasoning: string | null
  readonly tries: number
  readonly spend: JudgeSpend
}

const addNullable = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b)

/** The value of a dataset column as text for a prompt; empty when absent. */
export const columnText = (item: Readonly<Record<string, unknown>>, column: string): string => {
  const value = item[column]
  if (value === undefined || value === null) return ""
  return typeof value === "string" ? value : JSON.stringify(value)
}

/**
 * Asks the judge `[eval.judge] samples` times (each a sample with its own `seed`), and returns every answer with
 * what they spent together. One sample is asked without a seed, as a plain call.
 */
export const askSamples = <A>(ask: Omit<JudgeAsk<A>, "sample">) =>
  Effect.gen(function* () {
    const judge = yield* JudgeClient
    const samples = judge.settings.samples ?? judgeDefaults.samples
    const answers: ReadonlyArray<JudgeAnswer<A>> = yield* Effect.forEach(
      Array.from({ length: samples }, (_, index) => index),
      (sample) => judge.ask({ ...ask, ...(samples === 1 ? {} : { sample }) }),
    )
    return {
      answers,
      record: (reasoning: string | null): JudgeRecord<A> => ({
        model: judge.settings.model,
        samples: answers.map((answer) => answer.value),
        reasoning,
        tries: answers.reduce((total, answer) => total + answer.tries, 0),
        spend: answers.reduce<JudgeSpend>(
          (total, answer) => ({
            calls: total.calls + answer.spend.calls,
            tokens: addNullable(total.tokens, answer.spend.tokens),
            cost_usd: addNullable(total.cost_usd, answer.spend.cost_usd),
          }),
          { calls: 0, tokens: 0, cost_usd: 0 },
        ),
      }),
    }
  })

/** A model grader: a spec and what it grades, to a verdict or a `judge` error. */
export type JudgeGrader<Spec> = (
  spec: Spec,
  input: GraderInput,
) => Effect.Effect<GraderVerdict, JudgeError, JudgeClient>
