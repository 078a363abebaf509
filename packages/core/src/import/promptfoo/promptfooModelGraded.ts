import { Schema } from "effect"
import { ModelGraderSpec } from "../../judge/ModelGraderSpec.js"
import { ImportProblem, shown } from "../ImportProblem.js"

/** The column of the row a model-graded assertion's judge reads its value from (a reference, a criterion). */
export const EXPECTED = "expected"

/** promptfoo's model-graded assertion types proctor runs, on its own model graders and the run's judge. */
export const MODEL_GRADED = ["llm-rubric", "g-eval", "model-graded-closedqa", "factuality", "model-graded-factuality"]

/** promptfoo's factuality categories (OpenAI's evals prompt): A, B, C and E pass by default, D fails. */
const FACTUALITY_DESCRIPTIONS = {
  A: "the answer is a subset of the reference and fully consistent with it",
  B: "the answer is a superset of the reference and fully consistent with it",
  C: "the answer contains all the same details as the reference",
  D: "the answer and the reference disagree",
  E: "the answer and the reference differ, but the differences do not matter for factuality",
}

const decodeSpec = Schema.decodeUnknownSync(ModelGraderSpec)

const criterionText = (value: unknown, type: string, path: string): string => {
  if (typeof value === "string" && value.trim() !== "") return value
  // g-eval takes a list of criteria as well.
  if (type === "g-eval" && Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string"))
    return value.map((item) => `- ${item}`).join("\n")
  throw new ImportProblem(`${path}.value`, `"${type}" needs its criterion as text, not ${shown(value)}`)
}

/**
 * A promptfoo model-graded assertion as one of proctor's model graders, asked of the run's judge (promptfoo's
 * grading provider is proctor's `--judge`). What each passes on, as promptfoo's:
 * - `llm-rubric` and `g-eval`: the judge scores the answer from 0 to 10 by the rubric (the criteria), the verdict's
 *   score is that over 10, and it passes at the assertion's `threshold` (default 0.5, g-eval's 0.7). promptfoo's
 *   llm-rubric without a threshold passes on the judge's own pass/fail; here on the score's upper half.
 * - `model-graded-closedqa`: the judge says Y or N to "does the answer meet the criterion"; Y passes.
 * - `factuality`: the judge picks one of OpenAI's five categories against the reference (the value); A, B, C and E
 *   pass (score 1), D fails (0), as promptfoo's defaults.
 */
export const modelGradedSpec = (
  type: string,
  value: unknown,
  threshold: number | undefined,
  path: string,
): ModelGraderSpec => {
  const text = criterionText(value, type, path)
  const scored = type === "llm-rubric" || type === "g-eval"
  if (!scored && threshold !== undefined)
    throw new ImportProblem(`${path}.threshold`, `"${type}" passes or fails on the judge's verdict, not a threshold`)
  const spec = scored
    ? {
        type: "rubric",
        name: type,
        rubric: text,
        range: [0, 10],
        pass_score: (threshold ?? (type === "g-eval" ? 0.7 : 0.5)) * 10,
      }
    : type === "model-graded-closedqa"
      ? {
          type: "label",
          name: type,
          instructions: `Say whether the answer meets this criterion: ${text}`,
          labels: ["Y", "N"],
          passing: ["Y"],
          descriptions: { Y: "the answer meets the criterion", N: "it does not" },
        }
      : {
          type: "label",
          name: type,
          instructions:
            "Compare the factual content of the answer with the reference answer; ignore style, grammar and punctuation.",
          labels: Object.keys(FACTUALITY_DESCRIPTIONS),
          passing: ["A", "B", "C", "E"],
          descriptions: FACTUALITY_DESCRIPTIONS,
          reference: EXPECTED,
        }
  return decodeSpec(spec)
}
