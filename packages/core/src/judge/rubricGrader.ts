import { Effect, Schema } from "effect"
import type { GraderVerdict } from "../grader/Grader.js"
import type { JudgeClient, JudgeMessage } from "./JudgeClient.js"
import type { JudgeError } from "./JudgeError.js"
import {
  askSamples,
  columnText,
  type JudgeGrader,
  judgeGraderFields,
  judgeGraderName,
  taskText,
} from "./JudgeGrader.js"
import { judgeJson, reasoningOf } from "./judgeAnswer.js"
import { judgeMessages, scoreFormat } from "./judgePrompt.js"

const Range = Schema.Tuple(Schema.Int, Schema.Int).pipe(
  Schema.filter(([min, max]) => min < max || "expected [min, max] with min < max"),
)

/**
 * A rubric score: the judge reads the rubric and answers a score in `range` with its reasoning. The verdict's score
 * is the mean answer mapped onto [0, 1]; it passes at `pass_score` (default: the upper half of the range).
 */
export const RubricGraderSpec = Schema.Struct({
  type: Schema.Literal("rubric"),
  ...judgeGraderFields,
  rubric: Schema.NonEmptyTrimmedString.annotations({
    description: "What a good answer does, for the judge to score by.",
  }),
  range: Schema.optionalWith(Range, { exact: true, default: () => [1, 5] as const }).annotations({
    description: "The judge's scores, `[min, max]` (default `[1, 5]`); the verdict's score maps them onto 0–1.",
  }),
  pass_score: Schema.optionalWith(Schema.Number.pipe(Schema.finite()), { exact: true }).annotations({
    description: "The judge's score at or above which the answer passes (default: the middle of the range).",
  }),
  reference: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true }).annotations({
    description: "A dataset column with a reference answer, shown to the judge.",
  }),
}).annotations({
  identifier: "rubric",
  description:
    "A judge model scores the answer by a rubric in a declared range, with its reasoning (an answer out of range is asked again, then a `judge` error).",
})
export type RubricGraderSpec = typeof RubricGraderSpec.Type

const INSTRUCTIONS = "Score the answer by the rubric, from the lowest score (fails it) to the highest (meets it fully)."

/** A number, or a string that is one (`"4"`): what judges write for a score. */
const numberOf = (value: unknown): number | null => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value
  return typeof number === "number" && Number.isFinite(number) ? number : null
}

/** How a score question is put: its messages, the range the judge scores in, and the score that passes. */
export interface ScoreQuestion {
  readonly grader: string
  readonly messages: ReadonlyArray<JudgeMessage>
  readonly min: number
  readonly max: number
  readonly passScore: number
}

/**
 * Asks a score question: the verdict of its samples (their mean score mapped onto 0–1, passing at `passScore`). An
 * answer with no score in the range is asked again, then a `judge` error.
 */
export const askScore = (question: ScoreQuestion): Effect.Effect<GraderVerdict, JudgeError, JudgeClient> =>
  Effect.gen(function* () {
    const { min, max, passScore } = question
    const { answers, record } = yield* askSamples({
      grader: question.grader,
      messages: question.messages,
      read: (text) => {
        const json = judgeJson(text)
        if (json === null)
          return { ok: false, reason: "unparseable", message: "the judge's answer holds no JSON object" }
        const score = numberOf(json.score)
        if (score === null)
          return { ok: false, reason: "unparseable", message: 'the judge\'s answer has no numeric "score"' }
        if (score < min || score > max) {
          return {
            ok: false,
            reason: "out_of_range",
            message: `the judge's score ${score} is outside [${min}, ${max}]`,
          }
        }
        return { ok: true, value: { score, reasoning: reasoningOf(json) } }
      },
    })
    const raw = answers.reduce((total, answer) => total + answer.value.score, 0) / answers.length
    const reasoning = answers[0]?.value.reasoning ?? null
    return {
      score: (raw - min) / (max - min),
      passed: raw >= passScore,
      ...(reasoning === null ? {} : { reason: reasoning }),
      details: {
        kind: "score",
        raw_score: raw,
        range: [min, max],
        pass_score: passScore,
        sample_scores: answers.map((answer) => (answer.value.score - min) / (max - min)),
        judge: record(reasoning),
      },
    }
  })

export const rubricGrader: JudgeGrader<RubricGraderSpec> = (spec, input) => {
  const [min, max] = spec.range
  return askScore({
    grader: judgeGraderName(spec),
    messages: judgeMessages(INSTRUCTIONS, scoreFormat(min, max), [
      { title: "Task", text: taskText(spec, input) },
      { title: "Reference answer", text: spec.reference === undefined ? "" : columnText(input.item, spec.reference) },
      { title: "Answer", text: input.answer },
      { title: "Rubric", text: spec.rubric },
    ]),
    min,
    max,
    passScore: spec.pass_score ?? (min + max) / 2,
  })
}
