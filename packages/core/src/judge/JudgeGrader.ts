import { Effect, Schema } from "effect"
import type { GraderInput, GraderVerdict } from "../grader/Grader.js"
import { type JudgeAnswer, type JudgeAsk, JudgeClient, type JudgeSpend } from "./JudgeClient.js"
import type { JudgeError } from "./JudgeError.js"
import { JudgeSettings, judgeDefaults } from "./JudgeSettings.js"

const described = <S extends Schema.Schema.All>(schema: S, description: string) =>
  Schema.optionalWith(schema, { exact: true }).annotations({ description })

/** Fields every model grader's spec has: those of every grader (`name`, `weight`), the task's column, its judge. */
export const judgeGraderFields = {
  name: described(
    Schema.NonEmptyTrimmedString,
    "The metric's name in results and summaries (default: the type). The grader named `score` is the run's score.",
  ),
  weight: described(
    Schema.Number.pipe(Schema.positive({ message: () => "expected a positive number" })),
    "Its weight in the run's score when no grader is named `score` (default 1).",
  ),
  question: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true, default: () => "question" }).annotations({
    description: "The dataset column holding the task put to the policy, shown to the judge (default `question`).",
  }),
  judge: described(
    JudgeSettings,
    "This grader's own judge (a second judge to compare with the first, say), with the keys of `[eval.judge]`; default: `[eval.judge]`.",
  ),
}

/** A model grader's metric name: its `name`, else its type. */
export const judgeGraderName = (spec: { readonly type: string; readonly name?: string | undefined }): string =>
  spec.name ?? spec.type

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

/** What the judge reads as the task: the row's task column, else the prompt the policy was given (dataset runs). */
export const taskText = (spec: { readonly question: string }, input: Pick<GraderInput, "item" | "prompt">): string =>
  columnText(input.item, spec.question) || (input.prompt ?? "")

/**
 * Asks the judge `[eval.judge] samples` times (each a sample with its own `seed`), and returns every answer with
 * what they spent together. One sample is asked without a seed, as a plain call.
 */
export const askSamples = <A>(ask: Omit<JudgeAsk<A>, "sample">) =>
  Effect.gen(function* () {
    const judge = yield* JudgeClient
    const samples = judge.settings.samples ?? judgeDefaults.samples
    const answers: ReadonlyArray<JudgeAnswer<A>> =
      samples === 1
        ? [yield* judge.ask(ask)]
        : yield* Effect.forEach(
            Array.from({ length: samples }, (_, sample) => sample),
            (sample) => judge.ask({ ...ask, sample }),
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
