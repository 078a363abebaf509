import { parse as parseYaml } from "yaml"
import type { GraderVerdict } from "../../grader/Grader.js"
import { SCORE_GRADER } from "../../grader/GraderSet.js"
import type { GraderSpec } from "../../grader/GraderSpec.js"
import { compileRuleGrader } from "../../grader/RuleGraders.js"
import { isRecord } from "../../internal/isRecord.js"
import type { ImportedCheck, ImportedCheckKind } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"
import { renderVars } from "../VarsTemplate.js"
import { EXPECTED, MODEL_GRADED, modelGradedSpec } from "./promptfooModelGraded.js"
import { type PythonFunctions, pythonCheck } from "./promptfooPython.js"
import { promptfooAggregate, thresholdOf } from "./promptfooScore.js"

/** promptfoo's assertion types proctor runs, by the rule each passes on (all score 1 or 0, as promptfoo's do). */
const SUPPORTED = [
  "equals",
  "contains",
  "icontains",
  "contains-any",
  "icontains-any",
  "contains-all",
  "icontains-all",
  "starts-with",
  "regex",
  "is-json",
] as const
type Supported = (typeof SUPPORTED)[number]

/** Why a promptfoo type is not run, for the kinds a user is likely to have. */
const UNSUPPORTED_WHY: Readonly<Record<string, string>> = {
  javascript: "proctor does not run promptfoo's inline JavaScript; write a `code` grader (a JS function) instead",
  similar: "it needs an embedding model, which proctor's graders do not call",
  perplexity: "it needs the model's logprobs, which proctor's dataset runs do not request",
  "perplexity-score": "it needs the model's logprobs, which proctor's dataset runs do not request",
  cost: "proctor reports cost per run and limits it with --max-cost, not per assertion",
  latency: "proctor reports latency per rollout, not as an assertion",
  "contains-json": "proctor's graders check whole answers as JSON (is-json), not JSON found inside text",
  levenshtein: "promptfoo passes on an edit distance in characters; proctor's fuzzy similarity is a ratio",
  "answer-relevance": "it needs an embedding model, which proctor's graders do not call",
  "context-faithfulness": "proctor's dataset runs have no retrieved context",
  "context-recall": "proctor's dataset runs have no retrieved context",
  "context-relevance": "proctor's dataset runs have no retrieved context",
  "select-best": "it compares the outputs of several prompts in one test, which proctor grades one by one",
  "max-score": "it compares the outputs of several prompts in one test, which proctor grades one by one",
}

/** promptfoo's comma-separated list (`"a, b, \"c, d\""`): items trimmed, double quotes keep commas in. */
const commaSeparated = (text: string): ReadonlyArray<string> =>
  (text.match(/(".*?"|[^",]+)(?=\s*,|\s*$)/g) ?? []).map((item) => item.trim().replace(/^"(.*)"$/, "$1"))

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A regex source handed to proctor's `regex` grader, whose pattern is itself a template: kept literal. */
const literalPattern = (source: string) =>
  source.includes("{{") || source.includes("{%") ? `{% raw %}${source}{% endraw %}` : source

const compiled = (spec: GraderSpec, path: string) => {
  try {
    const grader = compileRuleGrader(spec)
    if (grader === null) throw new Error("not a rule")
    return grader
  } catch (error) {
    throw new ImportProblem(`${path}.value`, (error as Error).message)
  }
}

/** One of proctor's graders, run on the answer against a value of this assertion's (not a dataset column). */
const graded = (spec: GraderSpec, path: string, expected?: string) => {
  const grader = compiled(spec, path)
  const item = expected === undefined ? {} : { [EXPECTED]: expected }
  return (answer: string) => grader({ answer, item }).passed
}

/** The value, rendered over the test's vars as promptfoo renders a string value (nunjucks there, Liquid here). */
const rendered = (value: unknown, vars: Readonly<Record<string, unknown>>, path: string): unknown => {
  const render = (text: string, where: string) => {
    try {
      return renderVars(text, vars)
    } catch (error) {
      throw new ImportProblem(where, `the template ${(error as Error).message}`)
    }
  }
  if (typeof value === "string") return render(value, `${path}.value`)
  if (Array.isArray(value))
    return value.map((item, index) => (typeof item === "string" ? render(item, `${path}.value[${index}]`) : item))
  return value
}

const textValue = (value: unknown, type: string, path: string): string => {
  if ((typeof value === "string" && value !== "") || (typeof value === "number" && !Number.isNaN(value)))
    return String(value)
  throw new ImportProblem(`${path}.value`, `"${type}" needs a string or number value, not ${shown(value)}`)
}

const listValue = (value: unknown, type: string, path: string): ReadonlyArray<string> => {
  if (typeof value === "string" && value !== "") return commaSeparated(value)
  if (Array.isArray(value) && value.length > 0) return value.map(String)
  throw new ImportProblem(`${path}.value`, `"${type}" needs a list (or a comma-separated string), not ${shown(value)}`)
}

/** The pass rule of one supported type over the answer, built from proctor's graders. */
const passRule = (type: Supported, value: unknown, path: string): ((answer: string) => boolean) => {
  switch (type) {
    case "equals":
      if (typeof value === "object" && value !== null) {
        // promptfoo deep-compares an object value with the answer parsed as JSON: a JSON Schema `const` does.
        return graded({ type: "json_schema", schema: { const: value } }, path)
      }
      return graded({ type: "equals", field: EXPECTED, trim: false }, path, textValue(value, type, path))
    case "contains":
    case "icontains":
      return graded(
        { type: "includes", field: EXPECTED, ignore_case: type === "icontains" },
        path,
        textValue(value, type, path),
      )
    case "contains-any":
    case "icontains-any":
    case "contains-all":
    case "icontains-all": {
      const ignoreCase = type.startsWith("i")
      const each = listValue(value, type, path).map((item) =>
        graded({ type: "includes", field: EXPECTED, ignore_case: ignoreCase }, path, item),
      )
      return type.endsWith("-any")
        ? (answer) => each.some((check) => check(answer))
        : (answer) => each.every((check) => check(answer))
    }
    case "starts-with":
      return graded({ type: "regex", pattern: literalPattern(`^${escapeRegex(textValue(value, type, path))}`) }, path)
    case "regex":
      return graded({ type: "regex", pattern: literalPattern(textValue(value, type, path)) }, path)
    case "is-json": {
      if (value === undefined || value === null || value === "") return graded({ type: "is_json" }, path)
      let schema = value
      if (typeof value === "string") {
        if (value.startsWith("file://"))
          throw new ImportProblem(`${path}.value`, "a schema in a file (file://) is not read yet: put it inline")
        schema = parseYaml(value)
      }
      if (!isRecord(schema)) throw new ImportProblem(`${path}.value`, "expected a JSON Schema (a table)")
      return graded({ type: "json_schema", schema }, path)
    }
  }
}

const weightOf = (weight: unknown = 1, path: string): number => {
  if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0)
    throw new ImportProblem(`${path}.weight`, `expected a number ≥ 0, not ${shown(weight)}`)
  return weight
}

const metricOf = (metric: unknown, path: string): string | undefined => {
  if (metric !== undefined && (typeof metric !== "string" || metric.trim() === ""))
    throw new ImportProblem(`${path}.metric`, "expected a name")
  return metric
}

const ASSERTION_KEYS = new Set(["type", "value", "weight", "metric", "threshold", "description"])
const SET_KEYS = new Set(["type", "assert", "weight", "metric", "threshold", "description"])

/** What a check needs of its config beyond the assertion: its folder (for `file://`) and its Python interpreters. */
export interface CheckContext {
  readonly dir: string
  readonly functions: PythonFunctions
}

/**
 * An `assert-set`: its assertions scored and passed together as a test's are (the weighted mean; all must pass unless
 * the set has a threshold), one assertion of the test with the set's weight and metric.
 */
const assertSet = (
  assertion: Readonly<Record<string, unknown>>,
  vars: Readonly<Record<string, unknown>>,
  path: string,
  context: CheckContext,
): { readonly baseName: string; readonly weight: number } & ImportedCheckKind => {
  for (const key of Object.keys(assertion)) {
    if (!SET_KEYS.has(key)) throw new ImportProblem(`${path}.${key}`, "is not supported in an assert-set: remove it")
  }
  const inner = assertion.assert
  if (!Array.isArray(inner) || inner.length === 0)
    throw new ImportProblem(`${path}.assert`, "expected a list of assertions")
  const members = inner.map((child, index) => ({ assertion: child, path: `${path}.assert[${index}]` }))
  return {
    baseName: metricOf(assertion.metric, path) ?? "assert-set",
    weight: weightOf(assertion.weight, path),
    set: promptfooChecks(members, vars, context),
    aggregate: promptfooAggregate(thresholdOf(assertion.threshold, path)),
  }
}

/**
 * A test's (or a set's) assertions as checks, each named by its metric or type (`contains`, `contains#2` for a second
 * one; a metric named `score` becomes `metric score`, the name of the row's own verdict being taken).
 */
export const promptfooChecks = (
  asserts: ReadonlyArray<{ readonly assertion: unknown; readonly path: string }>,
  vars: Readonly<Record<string, unknown>>,
  context: CheckContext,
): ReadonlyArray<ImportedCheck> => {
  const seen = new Map<string, number>()
  return asserts.map(({ assertion, path }) => {
    const { baseName, ...check } = promptfooCheck(assertion, vars, path, context)
    const base = baseName === SCORE_GRADER ? `metric ${baseName}` : baseName
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    return { ...check, name: count === 1 ? base : `${base}#${count}` }
  })
}

/**
 * A promptfoo assertion (`{ type, value, weight, metric, threshold }`, type with an optional `not-`) bound to one
 * test's vars, as a check whose verdict passes, and scores, as promptfoo's would: a rule (1 or 0), or a model
 * grader asking the run's judge (`promptfooModelGraded.ts`). Anything proctor cannot run the same way is an
 * `ImportProblem` naming its key.
 */
export const promptfooCheck = (
  assertion: unknown,
  vars: Readonly<Record<string, unknown>>,
  path: string,
  context: CheckContext,
): { readonly baseName: string; readonly weight: number } & ImportedCheckKind => {
  if (!isRecord(assertion)) throw new ImportProblem(path, `expected an assertion table, not ${shown(assertion)}`)
  if (assertion.type === "assert-set") return assertSet(assertion, vars, path, context)
  for (const key of Object.keys(assertion)) {
    if (key === "provider")
      throw new ImportProblem(
        `${path}.provider`,
        "the model that grades is proctor's judge: give it with --judge (or [eval.judge]) and remove this key",
      )
    if (!ASSERTION_KEYS.has(key))
      throw new ImportProblem(`${path}.${key}`, "is not supported (proctor would not apply it): remove it")
  }
  const type = assertion.type
  if (typeof type !== "string" || type === "") throw new ImportProblem(`${path}.type`, "expected an assertion type")
  const inverse = type.startsWith("not-")
  const base = inverse ? type.slice("not-".length) : type
  const weight = weightOf(assertion.weight, path)
  const metric = metricOf(assertion.metric, path)
  if (MODEL_GRADED.includes(base)) {
    if (inverse)
      throw new ImportProblem(`${path}.type`, `${JSON.stringify(type)}: a negated model-graded assertion is not mapped`)
    const value = rendered(assertion.value, vars, path)
    const threshold = thresholdOf(assertion.threshold, path)
    if (threshold !== undefined && !(threshold >= 0 && threshold <= 1))
      throw new ImportProblem(`${path}.threshold`, `expected a number from 0 to 1, not ${threshold}`)
    return {
      baseName: metric ?? type,
      weight,
      model: modelGradedSpec(base, value, threshold, path),
      item: typeof value === "string" ? { [EXPECTED]: value } : {},
      path,
    }
  }
  if (base === "python") {
    const value = rendered(assertion.value, vars, path)
    return {
      baseName: metric ?? type,
      weight,
      ...pythonCheck(value, vars, {
        path,
        dir: context.dir,
        grader: metric ?? type,
        threshold: thresholdOf(assertion.threshold, path),
        inverse,
        functions: context.functions,
      }),
    }
  }
  if (!(SUPPORTED as ReadonlyArray<string>).includes(base)) {
    const why = UNSUPPORTED_WHY[base] ?? "proctor has no grader that passes on the same rule"
    throw new ImportProblem(`${path}.type`, `${JSON.stringify(type)} is not supported: ${why}`)
  }
  if (assertion.threshold !== undefined)
    throw new ImportProblem(
      `${path}.threshold`,
      `"${base}" passes or fails outright; promptfoo ignores a threshold on it`,
    )
  const passes = passRule(base as Supported, rendered(assertion.value, vars, path), path)
  return {
    baseName: metric ?? type,
    weight,
    rule: (answer): GraderVerdict => {
      const passed = passes(answer) !== inverse
      return { score: passed ? 1 : 0, passed }
    },
  }
}
