import { Effect, type Either } from "effect"
import type { GraderError, GraderVerdict } from "../../grader/Grader.js"
import type { GraderSpec } from "../../grader/GraderSpec.js"
import type { LoadedCodeGrader } from "../../grader/loadCodeGrader.js"
import { loadPythonGrader } from "../../grader/loadPythonGrader.js"
import { compileRuleGrader, type RuleGrader } from "../../grader/RuleGraders.js"
import { isRecord } from "../../internal/isRecord.js"
import type { ImportedCheck } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"
import { renderVars } from "../VarsTemplate.js"

/** A testing criterion bound to one item: the model's answer in, the criterion's verdict out. */
export type CriterionGrade = (answer: string) => GraderVerdict

/** A criterion's check for one item: a rule, or (a `python` criterion) a run of its function. */
export type CriterionCheck =
  | Omit<Extract<ImportedCheck, { rule: unknown }>, "name" | "weight">
  | Omit<Extract<ImportedCheck, { run: unknown }>, "name" | "weight">

/** The column of the synthetic row a criterion hands proctor's grader: its rendered `reference`. */
const REFERENCE = "reference"

/** `text_similarity` metrics proctor computes, as its `similarity` grader's metrics. */
const SIMILARITY: Readonly<Record<string, "fuzzy" | "bleu" | "rouge_l">> = {
  fuzzy_match: "fuzzy",
  bleu: "bleu",
  rouge_l: "rouge_l",
}

const UNSUPPORTED_WHY: Readonly<Record<string, string>> = {
  python:
    'this import does not map it yet; proctor\'s own `python` grader calls the same `grade(sample, item)` (a --dataset run with --grader \'{ type = "python", file = "…" }\')',
  multi:
    "its calculate_output formula is not evaluated by proctor (and OpenAI's eval API takes multi graders only for fine-tuning)",
  score_model: "model graders run as proctor's `rubric` grader, which this import does not map yet",
  label_model: "model graders run as proctor's `label` grader, which this import does not map yet",
}

const textField = (criterion: Readonly<Record<string, unknown>>, key: string, path: string): string => {
  const value = criterion[key]
  if (typeof value !== "string")
    throw new ImportProblem(`${path}.${key}`, `expected a template string, not ${shown(value)}`)
  return value
}

const rule = (spec: GraderSpec, path: string): RuleGrader => {
  const grader = compileRuleGrader(spec)
  if (grader === null) throw new ImportProblem(path, "not a rule grader")
  return grader
}

/** A template over `{{ item.x }}` and `{{ sample.output_text }}`, rendered for the item and an answer. */
const template = (source: string, item: Readonly<Record<string, unknown>>, path: string) => {
  const fill = (answer: string) => renderVars(source, { item, sample: { output_text: answer } })
  try {
    fill("")
  } catch (error) {
    throw new ImportProblem(path, `the template ${(error as Error).message}`)
  }
  return fill
}

const KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  string_check: new Set(["type", "name", "input", "reference", "operation"]),
  text_similarity: new Set(["type", "name", "input", "reference", "evaluation_metric", "pass_threshold"]),
  python: new Set(["type", "name", "source", "pass_threshold"]),
}

/**
 * A `python` criterion, as OpenAI runs it: its `source` defines `grade(sample, item)`, called with the model's answer
 * as `sample["output_text"]` and the item, returning a float; it passes at `pass_threshold` (default 1) or above. proctor
 * runs it with the machine's `python3` (one interpreter for every item), as its own `python` grader; started on the
 * first rollout that needs it. `image_tag` (OpenAI's sandbox image) is refused: the machine's Python is not it.
 */
const pythonCriterion = (criterion: Readonly<Record<string, unknown>>, path: string) => {
  for (const key of Object.keys(criterion)) {
    if (!KEYS.python!.has(key))
      throw new ImportProblem(
        `${path}.${key}`,
        key === "image_tag"
          ? "is not supported: proctor runs the source with this machine's python3, not OpenAI's image"
          : "is not supported (proctor would not apply it)",
      )
  }
  const source = criterion.source
  if (typeof source !== "string" || source.trim() === "")
    throw new ImportProblem(`${path}.source`, "expected Python source defining grade(sample, item)")
  const threshold = criterion.pass_threshold
  if (threshold !== undefined && (typeof threshold !== "number" || !Number.isFinite(threshold)))
    throw new ImportProblem(`${path}.pass_threshold`, `expected a number, not ${shown(threshold)}`)
  let loading: Promise<Either.Either<LoadedCodeGrader, GraderError>> | undefined
  const loaded = Effect.flatMap(
    Effect.promise(() => {
      loading ??= Effect.runPromise(
        Effect.either(
          loadPythonGrader({
            type: "python",
            name: typeof criterion.name === "string" ? criterion.name : "python",
            source,
            ...(threshold === undefined ? {} : { pass_threshold: threshold }),
          }),
        ),
      )
      return loading
    }),
    (either) => either,
  )
  return (item: Readonly<Record<string, unknown>>): CriterionCheck => ({
    run: (answer) => Effect.flatMap(loaded, (grade) => grade({ answer, item })),
  })
}

/** Each item's check of one testing criterion, its problems (an unknown type, a bad key) thrown as `ImportProblem`s. */
export const criterionChecks = (
  criterion: unknown,
  path: string,
): ((item: Readonly<Record<string, unknown>>) => CriterionCheck) => {
  if (isRecord(criterion) && criterion.type === "python") return pythonCriterion(criterion, path)
  return (item) => ({ rule: openAiCriterion(criterion, item, path) })
}

/**
 * One of an OpenAI eval's `testing_criteria`, for one item, by its documented rule: `string_check` scores 1 or 0 and
 * passes on 1 (`eq` equal, `ne` not equal, `like` contains, `ilike` contains ignoring case — proctor's `equals` and
 * `includes`); `text_similarity` scores its metric (proctor's `similarity`) and passes at `pass_threshold` or above.
 */
export const openAiCriterion = (
  criterion: unknown,
  item: Readonly<Record<string, unknown>>,
  path: string,
): CriterionGrade => {
  if (!isRecord(criterion)) throw new ImportProblem(path, `expected a testing criterion, not ${shown(criterion)}`)
  const type = criterion.type
  if (typeof type !== "string") throw new ImportProblem(`${path}.type`, "expected a grader type")
  const keys = KEYS[type]
  if (keys === undefined) {
    const why = UNSUPPORTED_WHY[type] ?? "not an OpenAI eval grader type proctor knows"
    throw new ImportProblem(`${path}.type`, `${JSON.stringify(type)} is not supported: ${why}`)
  }
  for (const key of Object.keys(criterion)) {
    if (!keys.has(key)) throw new ImportProblem(`${path}.${key}`, "is not supported (proctor would not apply it)")
  }
  const input = template(textField(criterion, "input", path), item, `${path}.input`)
  const reference = template(textField(criterion, "reference", path), item, `${path}.reference`)
  const gradeWith = (grader: RuleGrader) => (answer: string) =>
    grader({ answer: input(answer), item: { [REFERENCE]: reference(answer) } })
  if (type === "string_check") {
    const operation = criterion.operation
    if (operation !== "eq" && operation !== "ne" && operation !== "like" && operation !== "ilike")
      throw new ImportProblem(`${path}.operation`, `expected eq, ne, like or ilike, not ${shown(operation)}`)
    const spec: GraderSpec =
      operation === "eq" || operation === "ne"
        ? { type: "equals", field: REFERENCE, trim: false }
        : { type: "includes", field: REFERENCE, ignore_case: operation === "ilike" }
    const grade = gradeWith(rule(spec, path))
    return (answer) => {
      const passed = grade(answer).passed !== (operation === "ne")
      return { score: passed ? 1 : 0, passed }
    }
  }
  const metric = criterion.evaluation_metric
  const proctorMetric = typeof metric === "string" ? SIMILARITY[metric] : undefined
  if (proctorMetric === undefined)
    throw new ImportProblem(
      `${path}.evaluation_metric`,
      `${shown(metric)} is not supported: proctor computes fuzzy_match, bleu and rouge_l (cosine needs an embedding model; gleu, meteor and rouge_1…5 are not implemented)`,
    )
  const threshold = criterion.pass_threshold
  if (typeof threshold !== "number" || !Number.isFinite(threshold))
    throw new ImportProblem(`${path}.pass_threshold`, `expected a number, not ${shown(threshold)}`)
  // proctor's grader passes at its own threshold; the criterion's is applied here, unclamped, as OpenAI's is.
  const grade = gradeWith(rule({ type: "similarity", field: REFERENCE, metric: proctorMetric, threshold: 0 }, path))
  return (answer) => {
    const { score } = grade(answer)
    return { score, passed: score >= threshold }
  }
}
