import { readFileSync } from "node:fs"
import { Ajv } from "ajv"
import { compileItemTemplate, type ItemTemplate, TemplateProblem } from "../dataset/ItemTemplate.js"
import { isRecord } from "../internal/isRecord.js"
import { isModelGraderSpec, modelGraderColumnProblem } from "../judge/ModelGraderSpec.js"
import { GraderError, type GraderInput, type GraderVerdict } from "./Grader.js"
import type {
  ChoiceGrader,
  EqualsGrader,
  IncludesGrader,
  JsonSchemaGrader,
  NumericGrader,
  RegexGrader,
  SimilarityGrader,
  ToolCallGrader,
} from "./GraderSpec.js"
import { type GraderSpec, graderName } from "./GraderSpec.js"
import { bleu, fuzzyRatio, rougeL } from "./TextSimilarity.js"

/** A rule grader, compiled once per run: pure and synchronous, so re-grading stays at microseconds a rollout. */
export type RuleGrader = (input: GraderInput) => GraderVerdict

type ReferenceSpec = { readonly reference?: string; readonly field?: string }

/** The reference fields a grader names: the column `field`, or those its `reference` template names. */
export const DEFAULT_REFERENCE_FIELD = "answer"

const verdict = (passed: boolean, reason?: string): GraderVerdict =>
  reason === undefined ? { score: passed ? 1 : 0, passed } : { score: passed ? 1 : 0, passed, reason }

const textOf = (value: unknown): string =>
  typeof value === "string" ? value : value === null || value === undefined ? "" : JSON.stringify(value)

/** A template over the row, its problem (a column the row lacks) the grader's `key`. */
const rowTemplate = (name: string, key: string, source: string) => {
  const template = compileItemTemplate(source)
  return (item: Readonly<Record<string, unknown>>) => {
    try {
      return template.render(item)
    } catch (error) {
      if (!(error instanceof TemplateProblem)) throw error
      throw new GraderError({ reason: "BadResult", grader: name, message: `${key}: ${error.message}` })
    }
  }
}

/** What the answer should be, from the row: `reference` rendered, or the `field` column (default `answer`). */
const referenceOf = (name: string, spec: ReferenceSpec): ((item: Readonly<Record<string, unknown>>) => string) => {
  if (spec.reference !== undefined) return rowTemplate(name, "reference", spec.reference)
  const field = spec.field ?? DEFAULT_REFERENCE_FIELD
  return (item) => {
    if (!Object.hasOwn(item, field)) {
      throw new GraderError({ reason: "BadResult", grader: name, message: `the row has no column "${field}"` })
    }
    return textOf(item[field])
  }
}

const fold = (text: string, ignoreCase: boolean | undefined) => (ignoreCase === true ? text.toLowerCase() : text)

const equals = (name: string, spec: typeof EqualsGrader.Type): RuleGrader => {
  const reference = referenceOf(name, spec)
  const trim = spec.trim !== false
  return ({ answer, item }) => {
    const clean = (text: string) => fold(trim ? text.trim() : text, spec.ignore_case)
    return verdict(clean(answer) === clean(reference(item)))
  }
}

const includes = (name: string, spec: typeof IncludesGrader.Type): RuleGrader => {
  const reference = referenceOf(name, spec)
  return ({ answer, item }) => verdict(fold(answer, spec.ignore_case).includes(fold(reference(item), spec.ignore_case)))
}

const regex = (name: string, spec: typeof RegexGrader.Type): RuleGrader => {
  const flags = spec.ignore_case === true ? "i" : ""
  const template = compileItemTemplate(spec.pattern)
  // A constant pattern is compiled once; one naming the row's fields once per row.
  const constant = spec.pattern.includes("{") ? null : new RegExp(spec.pattern, flags)
  return ({ answer, item }) => {
    let pattern = constant
    if (pattern === null) {
      try {
        pattern = new RegExp(template.render(item), flags)
      } catch (error) {
        throw new GraderError({ reason: "BadResult", grader: name, message: `pattern: ${(error as Error).message}` })
      }
    }
    return verdict(pattern.test(answer))
  }
}

const parsedJson = (answer: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(answer) }
  } catch {
    return { ok: false }
  }
}

const isJson: RuleGrader = ({ answer }) => {
  const parsed = parsedJson(answer)
  return parsed.ok ? verdict(true) : verdict(false, "not JSON")
}

/**
 * One ajv for the process: it caches compiled schemas by their content. Made by the first JSON-schema grader, not
 * when this module loads: every `proctor eval` loads it, few runs grade with a schema.
 */
let ajv: Ajv | undefined
const sharedAjv = (): Ajv => {
  ajv ??= new Ajv({ allErrors: false, strict: false })
  return ajv
}

const jsonSchema = (name: string, spec: typeof JsonSchemaGrader.Type): RuleGrader => {
  let schema: unknown = spec.schema
  if (spec.schema_file !== undefined) {
    try {
      schema = JSON.parse(readFileSync(spec.schema_file, "utf8"))
    } catch (error) {
      throw new GraderError({
        reason: "Unloadable",
        grader: name,
        message: `schema_file ${spec.schema_file}: ${(error as Error).message}`,
      })
    }
  }
  if (schema === undefined) {
    throw new GraderError({ reason: "Unloadable", grader: name, message: "give `schema` or `schema_file`" })
  }
  let validate: ReturnType<Ajv["compile"]>
  try {
    validate = sharedAjv().compile(schema as object)
  } catch (error) {
    throw new GraderError({ reason: "Unloadable", grader: name, message: `schema: ${(error as Error).message}` })
  }
  return ({ answer }) => {
    const parsed = parsedJson(answer)
    if (!parsed.ok) return verdict(false, "not JSON")
    if (validate(parsed.value)) return verdict(true)
    const first = validate.errors?.[0]
    return verdict(
      false,
      first === undefined ? "does not match" : `${first.instancePath || "/"} ${first.message ?? ""}`,
    )
  }
}

const NUMBER = /-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?|-?\.\d+/gi

/** The last number written in a text ("… so the answer is 1,234.5" → 1234.5), or null. */
export const lastNumber = (text: string): number | null => {
  const found = text.match(NUMBER)
  const last = found?.at(-1)
  if (last === undefined) return null
  const value = Number(last.replace(/,/g, ""))
  return Number.isFinite(value) ? value : null
}

const numeric = (name: string, spec: typeof NumericGrader.Type): RuleGrader => {
  const reference = referenceOf(name, spec)
  const tolerance = spec.tolerance ?? 0
  return ({ answer, item }) => {
    const expected = lastNumber(reference(item))
    if (expected === null) {
      throw new GraderError({ reason: "BadResult", grader: name, message: "the reference holds no number" })
    }
    const got = lastNumber(answer)
    if (got === null) return verdict(false, "no number in the answer")
    const allowed = spec.relative === true ? tolerance * Math.abs(expected) : tolerance
    return verdict(Math.abs(got - expected) <= allowed + Number.EPSILON * Math.max(1, Math.abs(expected)))
  }
}

const ANSWER_LETTER = /answer\s*(?:is)?\s*[:=]?\s*\(?([A-Z])\)?(?![A-Za-z])/i
const LONE_LETTER = /(?:^|[^A-Za-z])\(?([A-Z])\)?(?![A-Za-z])/g

/** The letter an answer picks: "ANSWER: B" first, else the last capital standing alone ("(C)", "C."). */
export const choiceLetter = (text: string): string | null => {
  const stated = ANSWER_LETTER.exec(text)
  if (stated?.[1] !== undefined) return stated[1].toUpperCase()
  const alone = [...text.matchAll(LONE_LETTER)].at(-1)
  return alone?.[1] ?? null
}

const choice = (name: string, spec: typeof ChoiceGrader.Type): RuleGrader => {
  const reference = referenceOf(name, spec)
  return ({ answer, item }) => {
    const expected = new Set(
      reference(item)
        .toUpperCase()
        .split(/[^A-Z]+/)
        .filter((letter) => letter.length === 1),
    )
    const picked = choiceLetter(answer)
    if (picked === null) return verdict(false, "no choice letter in the answer")
    return verdict(expected.has(picked), `picked ${picked}`)
  }
}

const similarity = (name: string, spec: typeof SimilarityGrader.Type): RuleGrader => {
  const reference = referenceOf(name, spec)
  const threshold = spec.threshold ?? 0.5
  const measure =
    spec.metric === "fuzzy"
      ? fuzzyRatio
      : spec.metric === "bleu"
        ? (answer: string, ref: string) => bleu(answer, [ref])
        : rougeL
  return ({ answer, item }) => {
    const score = measure(answer, reference(item))
    return { score, passed: score >= threshold }
  }
}

const toolCall = (name: string, spec: typeof ToolCallGrader.Type): RuleGrader => {
  const tool = rowTemplate(name, "tool", spec.tool)
  const expected = Object.entries(spec.arguments ?? {}).map(
    ([key, value]) => [key, rowTemplate(name, `arguments.${key}`, String(value))] as const,
  )
  return ({ toolCalls, item }) => {
    const wanted = tool(item)
    const args = expected.map(([key, render]) => [key, render(item)] as const)
    const calls = toolCalls ?? []
    const matches = calls.some((call) => {
      if (call.name !== wanted) return false
      const given = isRecord(call.arguments) ? call.arguments : {}
      return args.every(([key, value]) => Object.hasOwn(given, key) && textOf(given[key]).trim() === value.trim())
    })
    if (matches) return verdict(true)
    const named = calls.filter((call) => call.name === wanted)
    return verdict(
      false,
      calls.length === 0
        ? "the model called no tool"
        : named.length === 0
          ? `the model called ${calls.map((call) => call.name).join(", ")}, not ${wanted}`
          : `${wanted} was called with other arguments: ${JSON.stringify(named.map((call) => call.arguments))}`,
    )
  }
}

/**
 * The rule grader of a spec, compiled (templates parsed, regexes and schemas compiled); null for graders that are
 * not rules (code, python, model graders). Throws a `GraderError` when the spec cannot be compiled (a bad regex, a schema file missing).
 */
export const compileRuleGrader = (spec: GraderSpec): RuleGrader | null => {
  const name = graderName(spec)
  try {
    switch (spec.type) {
      case "equals":
        return equals(name, spec)
      case "includes":
        return includes(name, spec)
      case "regex":
        return regex(name, spec)
      case "is_json":
        return isJson
      case "json_schema":
        return jsonSchema(name, spec)
      case "numeric":
        return numeric(name, spec)
      case "choice":
        return choice(name, spec)
      case "similarity":
        return similarity(name, spec)
      case "tool_call":
        return toolCall(name, spec)
      case "code":
      case "python":
      case "rubric":
      case "label":
      case "fact":
      case "pairwise":
        return null
    }
  } catch (error) {
    if (error instanceof GraderError) throw error
    throw new GraderError({ reason: "Unloadable", grader: name, message: (error as Error).message, cause: error })
  }
}

/**
 * What a row lacks for a grader to read its reference (a column `field` names, one its `reference` or `pattern`
 * template names), said in a few words; null when the row has all of it. Dataset runs ask it of every row up front.
 */
export const referenceProblemOf = (spec: GraderSpec): ((item: Readonly<Record<string, unknown>>) => string | null) => {
  if (isModelGraderSpec(spec)) return (item) => modelGraderColumnProblem(spec, item)
  const source =
    "reference" in spec && spec.reference !== undefined
      ? spec.reference
      : spec.type === "regex"
        ? spec.pattern
        : undefined
  if (source !== undefined) {
    const key = spec.type === "regex" ? "pattern" : "reference"
    // Compiled once, checked against every row.
    let template: ItemTemplate
    try {
      template = compileItemTemplate(source)
    } catch (error) {
      if (!(error instanceof TemplateProblem)) throw error
      const problem = `${key}: the template ${error.message}`
      return () => problem
    }
    return (item) => {
      try {
        template.render(item)
        return null
      } catch (error) {
        if (error instanceof TemplateProblem) return `${key}: ${error.message}`
        throw error
      }
    }
  }
  const reads = ["equals", "includes", "numeric", "choice", "similarity"].includes(spec.type)
  const field = ("field" in spec ? spec.field : undefined) ?? DEFAULT_REFERENCE_FIELD
  return (item) => (reads && !Object.hasOwn(item, field) ? `field: no column "${field}"` : null)
}
