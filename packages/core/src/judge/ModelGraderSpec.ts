import { type Effect, Schema } from "effect"
import type { GraderInput, GraderVerdict } from "../grader/Grader.js"
import { FactGraderSpec, factGrader } from "./factGrader.js"
import type { JudgeClient } from "./JudgeClient.js"
import type { JudgeError } from "./JudgeError.js"
import { LabelGraderSpec, labelGrader } from "./labelGrader.js"
import { PairwiseGraderSpec, pairwiseGrader } from "./pairwiseGrader.js"
import { RubricGraderSpec, rubricGrader } from "./rubricGrader.js"

/** The model graders: each asks a judge model (`[eval.judge]`, or the grader's own `judge`). */
export const ModelGraderSpec = Schema.Union(RubricGraderSpec, LabelGraderSpec, FactGraderSpec, PairwiseGraderSpec)
export type ModelGraderSpec = typeof ModelGraderSpec.Type

export const MODEL_GRADER_TYPES: ReadonlyArray<ModelGraderSpec["type"]> = ["rubric", "label", "fact", "pairwise"]

export const isModelGraderSpec = (spec: { readonly type: string }): spec is ModelGraderSpec =>
  (MODEL_GRADER_TYPES as ReadonlyArray<string>).includes(spec.type)

/** The model grader's verdict on one answer, asked of the `JudgeClient` in context. */
export const gradeByModel = (
  spec: ModelGraderSpec,
  input: GraderInput,
): Effect.Effect<GraderVerdict, JudgeError, JudgeClient> => {
  switch (spec.type) {
    case "rubric":
      return rubricGrader(spec, input)
    case "label":
      return labelGrader(spec, input)
    case "fact":
      return factGrader(spec, input)
    case "pairwise":
      return pairwiseGrader(spec, input)
  }
}

/**
 * The dataset columns a model grader reads that a row lacks (`reference`, `other`): checked for every planned row
 * before a run starts, like a rule grader's reference. The task's column may be absent: the judge then reads the
 * prompt the policy was given.
 */
export const modelGraderColumnProblem = (
  spec: ModelGraderSpec,
  item: Readonly<Record<string, unknown>>,
): string | null => {
  const columns: ReadonlyArray<readonly [string, string | undefined]> = [
    ["reference", "reference" in spec ? spec.reference : undefined],
    ["other", spec.type === "pairwise" ? spec.other : undefined],
  ]
  for (const [key, column] of columns) {
    if (column !== undefined && !Object.hasOwn(item, column)) return `${key}: no column "${column}"`
  }
  return null
}
