import { Schema } from "effect"
import { columnText, type JudgeGrader, judgeGraderFields, judgeGraderName, taskText } from "./JudgeGrader.js"
import { askLabel, labelMessages } from "./labelGrader.js"

/**
 * A reference-based fact check: the judge compares the answer's facts with a reference answer's and says how they
 * relate (the choices and scores of OpenAI's and autoevals' `Factuality`): the same facts or differences that do not
 * matter 1, a consistent superset 0.6, a consistent subset 0.4, a contradiction 0. It passes unless it contradicts
 * the reference or leaves part of it out.
 */
export const FactGraderSpec = Schema.Struct({
  type: Schema.Literal("fact"),
  ...judgeGraderFields,
  reference: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true, default: () => "reference" }).annotations(
    { description: "The dataset column with the reference answer (default `reference`)." },
  ),
}).annotations({
  identifier: "fact",
  description:
    "A judge model checks the answer's facts against a reference answer (same 1, superset 0.6, subset 0.4, immaterial differences 1, contradicts 0; passes unless it contradicts or leaves part out).",
})
export type FactGraderSpec = typeof FactGraderSpec.Type

const FACT_LABELS = ["same", "superset", "subset", "immaterial", "contradicts"] as const
const FACT_SCORES: Readonly<Record<(typeof FACT_LABELS)[number], number>> = {
  same: 1,
  immaterial: 1,
  superset: 0.6,
  subset: 0.4,
  contradicts: 0,
}
const FACT_PASSING = ["same", "superset", "immaterial"]
const FACT_DESCRIPTIONS = {
  same: "the answer has the same details as the reference",
  superset: "the answer holds every fact of the reference and more, consistent with it",
  subset: "the answer holds some facts of the reference and is consistent with it",
  immaterial: "the answer and the reference differ, but not in any way that matters to the facts",
  contradicts: "the answer disagrees with the reference",
}
const INSTRUCTIONS =
  "Compare the facts of the answer with those of the reference answer; ignore style, grammar and punctuation."

export const factGrader: JudgeGrader<FactGraderSpec> = (spec, input) =>
  askLabel({
    grader: judgeGraderName(spec),
    labels: FACT_LABELS,
    passing: FACT_PASSING,
    scores: FACT_SCORES,
    messages: labelMessages(INSTRUCTIONS, FACT_LABELS, FACT_PASSING, FACT_DESCRIPTIONS, {
      task: taskText(spec, input),
      reference: columnText(input.item, spec.reference),
      answer: input.answer,
    }),
  })
