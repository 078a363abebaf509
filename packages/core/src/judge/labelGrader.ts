import { Effect, Schema } from "effect"
import type { GraderInput, GraderVerdict } from "../grader/Grader.js"
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
import { judgeMessages, labelFormat } from "./judgePrompt.js"

const Labels = Schema.Array(Schema.NonEmptyTrimmedString).pipe(
  Schema.filter((labels) => labels.length >= 2 || "expected at least two labels"),
  Schema.filter((labels) => new Set(labels).size === labels.length || "expected labels without repeats"),
)

/**
 * A label: the judge picks one of `labels` (each may carry a description) with its reasoning. The verdict passes
 * when the label is one of `passing`; its score is 1 for a passing label, 0 otherwise, averaged over samples.
 */
export const LabelGraderSpec = Schema.Struct({
  type: Schema.Literal("label"),
  ...judgeGraderFields,
  instructions: Schema.NonEmptyTrimmedString.annotations({ description: "What the judge decides, in its words." }),
  labels: Labels.annotations({ description: "The labels the judge picks one of (two or more)." }),
  passing: Schema.Array(Schema.NonEmptyTrimmedString)
    .pipe(Schema.minItems(1))
    .annotations({ description: "The labels that pass (score 1; the others score 0)." }),
  descriptions: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.String }), {
    exact: true,
  }).annotations({ description: "What each label means, shown to the judge." }),
  reference: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true }).annotations({
    description: "A dataset column with a reference answer, shown to the judge.",
  }),
}).pipe(
  Schema.filter(
    (spec) =>
      spec.passing.every((label) => spec.labels.includes(label)) || "every label in `passing` must be one of `labels`",
  ),
  Schema.annotations({
    identifier: "label",
    description: "A judge model picks one of declared labels, with its reasoning; some labels pass.",
  }),
)
export type LabelGraderSpec = typeof LabelGraderSpec.Type

/** How a label question is put: its labels, which pass and what each scores, and what the judge reads. */
export interface LabelQuestion {
  readonly grader: string
  readonly labels: ReadonlyArray<string>
  readonly passing: ReadonlyArray<string>
  /** What each label scores; default 1 for a passing label, 0 for the others. */
  readonly scores?: Readonly<Record<string, number>>
  readonly messages: ReadonlyArray<JudgeMessage>
}

const labelLines = (
  labels: ReadonlyArray<string>,
  passing: ReadonlyArray<string>,
  descriptions: Readonly<Record<string, string>>,
) =>
  labels
    .map((label) => {
      const description = descriptions[label]
      const passes = passing.includes(label) ? " (a passing grade)" : ""
      return `- ${label}${passes}${description === undefined ? "" : `: ${description}`}`
    })
    .join("\n")

/** The messages of a label question. */
export const labelMessages = (
  instructions: string,
  labels: ReadonlyArray<string>,
  passing: ReadonlyArray<string>,
  descriptions: Readonly<Record<string, string>>,
  sections: { readonly task: string; readonly reference: string; readonly answer: string },
) =>
  judgeMessages(instructions, labelFormat(labels), [
    { title: "Task", text: sections.task },
    { title: "Reference answer", text: sections.reference },
    { title: "Answer", text: sections.answer },
    { title: "Labels", text: labelLines(labels, passing, descriptions) },
  ])

const mostCommon = (values: ReadonlyArray<string>): string => {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  let best = values[0]!
  for (const [value, count] of counts) if (count > counts.get(best)!) best = value
  return best
}

/** Asks a label question: the verdict of its samples (the most common label; the mean score). */
export const askLabel = (question: LabelQuestion): Effect.Effect<GraderVerdict, JudgeError, JudgeClient> =>
  Effect.gen(function* () {
    const { answers, record } = yield* askSamples({
      grader: question.grader,
      messages: question.messages,
      read: (text) => {
        const json = judgeJson(text)
        if (json === null)
          return { ok: false, reason: "unparseable", message: "the judge's answer holds no JSON object" }
        if (typeof json.label !== "string") {
          return { ok: false, reason: "unparseable", message: 'the judge\'s answer has no "label"' }
        }
        const label = json.label.trim()
        if (!question.labels.includes(label)) {
          return {
            ok: false,
            reason: "out_of_range",
            message: `the judge's label ${JSON.stringify(label)} is none of ${question.labels.join(", ")}`,
          }
        }
        return { ok: true, value: { label, reasoning: reasoningOf(json) } }
      },
    })
    const labels = answers.map((answer) => answer.value.label)
    const label = mostCommon(labels)
    const scoreOf = (each: string) =>
      question.scores === undefined ? (question.passing.includes(each) ? 1 : 0) : (question.scores[each] ?? 0)
    const sampleScores = labels.map(scoreOf)
    const score = sampleScores.reduce((a, b) => a + b, 0) / sampleScores.length
    const reasoning = answers.find((answer) => answer.value.label === label)?.value.reasoning ?? null
    return {
      score,
      passed: question.passing.includes(label),
      ...(reasoning === null ? {} : { reason: reasoning }),
      details: { kind: "label", label, sample_scores: sampleScores, judge: record(reasoning) },
    }
  })

export const labelGrader: JudgeGrader<LabelGraderSpec> = (spec, input: GraderInput) =>
  askLabel({
    grader: judgeGraderName(spec),
    labels: spec.labels,
    passing: spec.passing,
    messages: labelMessages(spec.instructions, spec.labels, spec.passing, spec.descriptions ?? {}, {
      task: taskText(spec, input),
      reference: spec.reference === undefined ? "" : columnText(input.item, spec.reference),
      answer: input.answer,
    }),
  })
