import { Effect, type Either } from "effect"
import type { GraderError, GraderVerdict } from "../../grader/Grader.js"
import type { GraderSpec } from "../../grader/GraderSpec.js"
import type { LoadedCodeGrader } from "../../grader/loadCodeGrader.js"
import { loadPythonGrader } from "../../grader/loadPythonGrader.js"
import { compileRuleGrader, type RuleGrader } from "../../grader/RuleGraders.js"
import { isRecord } from "../../internal/isRecord.js"
import type { JudgeClient, JudgeMessage } from "../../judge/JudgeClient.js"
import type { JudgeError } from "../../judge/JudgeError.js"
import { labelFormat, numberScoreFormat, ownJudgeMessages } from "../../judge/judgePrompt.js"
import { askLabel } from "../../judge/labelGrader.js"
import { askScore } from "../../judge/rubricGrader.js"
import type { ImportedCheck } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"
import { renderVars } from "../VarsTemplate.js"

/** A testing criterion bound to one item: the model's answer in, the criterion's verdict out. */
export type CriterionGrade = (answer: string) => GraderVerdict

/** A criterion's check for one item: a rule, a run of its function (`python`), or a question to the judge. */
export type CriterionCheck =
  | Omit<Extract<ImportedCheck, { rule: unknown }>, "name" | "weight">
  | Omit<Extract<ImportedCheck, { run: unknown }>, "name" | "weight">
  | Omit<Extract<ImportedCheck, { judged: unknown }>, "name" | "weight">

/** The text of a message's content: a string, an `input_text` block, or a list of them. */
export const contentText = (content: unknown, path: string): string => {
  if (typeof content === "string") return content
  const blocks = Array.isArray(content) ? content : [content]
  return blocks
    .map((block, index) => {
      if (typeof block === "string") return block
      if (
        isRecord(block) &&
        (block.type === "input_text" || block.type === "output_text") &&
        typeof block.text === "string"
      )
        return block.text
      throw new ImportProblem(`${path}[${index}]`, "only text content is supported (not images, audio or files)")
    })
    .join("")
}

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

const MODEL_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  score_model: new Set(["type", "name", "model", "input", "range", "pass_threshold", "sampling_params"]),
  label_model: new Set(["type", "name", "model", "input", "labels", "passing_labels"]),
}
/** A model criterion's `sampling_params` proctor sends, as the judge's settings. */
const JUDGE_SAMPLING: Readonly<Record<string, "temperature" | "max_tokens">> = {
  temperature: "temperature",
  max_completions_tokens: "max_tokens",
  max_completion_tokens: "max_tokens",
}

const labelsOf = (value: unknown, path: string): ReadonlyArray<string> => {
  if (!Array.isArray(value) || value.length === 0 || !value.every((label) => typeof label === "string" && label !== ""))
    throw new ImportProblem(path, `expected a list of labels, not ${shown(value)}`)
  return value as ReadonlyArray<string>
}

/**
 * A `score_model` or `label_model` criterion: the run's judge (`--judge`: its endpoint and key) asked the criterion's
 * own messages (templates over `{{ item.x }}` and `{{ sample.output_text }}`) with the criterion's `model`, proctor's
 * answer format added to the system message. `score_model` scores in `range` (default `[0, 1]`) and passes at
 * `pass_threshold` (default: the middle of the range); `label_model` passes on one of `passing_labels`. They are read
 * as proctor's `rubric` and `label` graders read their judge (`askScore`, `askLabel`): an answer that does not parse,
 * or falls outside the range or the labels, is asked again, then a `judge` error.
 */
const modelCriterion = (criterion: Readonly<Record<string, unknown>>, path: string) => {
  const type = criterion.type as "score_model" | "label_model"
  for (const key of Object.keys(criterion)) {
    if (!MODEL_KEYS[type]!.has(key))
      throw new ImportProblem(`${path}.${key}`, "is not supported (proctor would not apply it)")
  }
  const model = criterion.model
  if (typeof model !== "string" || model === "") throw new ImportProblem(`${path}.model`, "expected the grader's model")
  const input = criterion.input
  if (!Array.isArray(input) || input.length === 0)
    throw new ImportProblem(`${path}.input`, "expected a list of messages")
  const templates = input.map((message, index) => {
    const where = `${path}.input[${index}]`
    if (!isRecord(message)) throw new ImportProblem(where, "expected a message")
    const role: unknown = message.role === "developer" ? "system" : message.role
    if (role !== "system" && role !== "user" && role !== "assistant")
      throw new ImportProblem(
        `${where}.role`,
        `expected system, developer, user or assistant, not ${shown(message.role)}`,
      )
    return {
      role: role as JudgeMessage["role"],
      source: contentText(message.content, `${where}.content`),
      where: `${where}.content`,
    }
  })
  const sampling: { temperature?: number; max_tokens?: number } = {}
  const params = criterion.sampling_params ?? {}
  if (!isRecord(params)) throw new ImportProblem(`${path}.sampling_params`, "expected a table")
  for (const [key, value] of Object.entries(params)) {
    const setting = JUDGE_SAMPLING[key]
    if (setting === undefined)
      throw new ImportProblem(`${path}.sampling_params.${key}`, "is not supported (proctor's judge would not send it)")
    if (typeof value !== "number") throw new ImportProblem(`${path}.sampling_params.${key}`, "expected a number")
    sampling[setting] = value
  }
  let ask: (
    grader: string,
    messages: ReadonlyArray<JudgeMessage>,
  ) => Effect.Effect<GraderVerdict, JudgeError, JudgeClient>
  if (type === "score_model") {
    const range = criterion.range ?? [0, 1]
    if (!Array.isArray(range) || range.length !== 2 || !range.every(Number.isFinite) || !(range[0] < range[1]))
      throw new ImportProblem(`${path}.range`, `expected [min, max] with min < max, not ${shown(range)}`)
    const [min, max] = range as [number, number]
    const threshold = criterion.pass_threshold ?? (min + max) / 2
    if (typeof threshold !== "number" || !Number.isFinite(threshold))
      throw new ImportProblem(`${path}.pass_threshold`, `expected a number, not ${shown(threshold)}`)
    const format = numberScoreFormat(min, max)
    ask = (grader, messages) =>
      askScore({ grader, messages: ownJudgeMessages(messages, format), min, max, passScore: threshold })
  } else {
    const labels = labelsOf(criterion.labels, `${path}.labels`)
    const passing = labelsOf(criterion.passing_labels, `${path}.passing_labels`)
    const stray = passing.find((label) => !labels.includes(label))
    if (stray !== undefined)
      throw new ImportProblem(`${path}.passing_labels`, `${JSON.stringify(stray)} is not one of the labels`)
    const format = labelFormat(labels)
    ask = (grader, messages) => askLabel({ grader, labels, passing, messages: ownJudgeMessages(messages, format) })
  }
  return (item: Readonly<Record<string, unknown>>): CriterionCheck => {
    const filled = templates.map(({ role, source, where }) => ({ role, fill: template(source, item, where) }))
    return {
      judged: {
        model,
        ...sampling,
        grade: (answer, grader) =>
          ask(
            grader,
            filled.map(({ role, fill }) => ({ role, content: fill(answer) })),
          ),
      },
      path,
    }
  }
}

/** Each item's check of one testing criterion, its problems (an unknown type, a bad key) thrown as `ImportProblem`s. */
export const criterionChecks = (
  criterion: unknown,
  path: string,
): ((item: Readonly<Record<string, unknown>>) => CriterionCheck) => {
  if (isRecord(criterion) && criterion.type === "python") return pythonCriterion(criterion, path)
  if (isRecord(criterion) && (criterion.type === "score_model" || criterion.type === "label_model"))
    return modelCriterion(criterion, path)
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
