import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { parse as parseCsv } from "csv-parse/sync"
import { parse as parseYaml } from "yaml"
import { isRecord } from "../../internal/isRecord.js"
import { ImportProblem, shown } from "../ImportProblem.js"
import { thresholdOf } from "./promptfooScore.js"

/** A test as promptfoo runs it: `defaultTest` merged in, vars and assertions, and where it was written. */
export interface PromptfooTest {
  /** `tests[3]`, or `tests[3] (cases.csv row 4)` for a test read from a file. */
  readonly path: string
  readonly description: string | undefined
  readonly vars: Readonly<Record<string, unknown>>
  /** Each assertion and its key path (`defaultTest.assert[0]` for the inherited ones). */
  readonly asserts: ReadonlyArray<{ readonly assertion: unknown; readonly path: string }>
  readonly threshold: number | undefined
  readonly prefix: string
  readonly suffix: string
}

/** The keys of a test proctor reads; `metadata` and `description` change nothing a run grades. */
const TEST_KEYS = new Set(["vars", "assert", "description", "threshold", "options", "metadata"])
const OPTION_KEYS = new Set(["prefix", "suffix"])

/** A `file://` reference (or a bare path with a data file's extension), resolved against the config's folder. */
export const fileReference = (value: string, dir: string): string | null => {
  if (value.startsWith("file://")) return resolve(dir, value.slice("file://".length))
  return /\.(csv|jsonl|json|ya?ml)$/i.test(value) ? resolve(dir, value) : null
}

const readText = (file: string, path: string) => {
  try {
    return readFileSync(file, "utf8")
  } catch (error) {
    throw new ImportProblem(path, `cannot read ${file}: ${(error as Error).message}`)
  }
}

/** promptfoo 0.123.1's assertion types (its `BaseAssertionTypesSchema`), which an `__expected` cell may open with. */
const ASSERTION_TYPES =
  "agent-rubric|answer-relevance|bleu|classifier|contains|contains-all|contains-any|contains-html|contains-json|contains-sql|contains-xml|context-faithfulness|context-recall|context-relevance|conversation-relevance|cost|equals|factuality|finish-reason|g-eval|gleu|guardrails|icontains|icontains-all|icontains-any|is-html|is-json|is-refusal|is-sql|is-valid-function-call|is-valid-openai-function-call|is-valid-openai-tools-call|is-xml|javascript|latency|levenshtein|llm-rubric|pi|meteor|model-graded-closedqa|model-graded-factuality|moderation|perplexity|perplexity-score|python|regex|rouge-n|ruby|similar|starts-with|tool-call-f1|skill-used|trace-error-spans|trace-span-count|trace-span-duration|search-rubric|webhook|word-count"
const EXPECTED_TYPE = new RegExp(`^(not-)?(${ASSERTION_TYPES})(?:\\((\\d+(?:\\.\\d+)?)\\))?(?::([\\s\\S]*))?$`)
/**
 * The types whose `__expected` form carries a threshold (promptfoo fills in its default when the cell has none);
 * `starts-with` is in promptfoo's list too, but ignores it.
 */
const THRESHOLD_TYPES = new Set([
  "answer-relevance",
  "classifier",
  "context-faithfulness",
  "context-recall",
  "context-relevance",
  "cost",
  "latency",
  "levenshtein",
  "perplexity-score",
  "perplexity",
  "rouge-n",
  "similar",
])
const LIST_TYPES = new Set(["contains-all", "contains-any", "icontains-all", "icontains-any"])

/** promptfoo's quoted comma-separated list: `a, "b, c"` is two items. */
const commaList = (text: string): ReadonlyArray<string> =>
  parseCsv(text, { relax_column_count: true, trim: true })[0] as ReadonlyArray<string>

/**
 * An `__expected` cell as the assertion promptfoo 0.123.1 makes of it (`assertionFromString`): `fn:`, `grade:` and
 * `python:` forms, `[not-]type[(threshold)][:value]` for a known type, else `equals` the whole cell. Types whose
 * thresholds promptfoo ignores (`starts-with` gets 0.75 there) get none here.
 */
export const assertionOfExpected = (cell: string): Record<string, unknown> => {
  const scripted = /^(javascript:|fn:|eval:)/.exec(cell)
  if (scripted !== null) return { type: "javascript", value: cell.slice(scripted[1]!.length).trim() }
  if (cell.startsWith("grade:") || cell.startsWith("llm-rubric:"))
    return { type: "llm-rubric", value: cell.slice(cell.indexOf(":") + 1) }
  if (cell.startsWith("python:")) return { type: "python", value: cell.slice("python:".length).trim() }
  if (cell.startsWith("file://")) return { type: "javascript", value: cell }
  const match = EXPECTED_TYPE.exec(cell)
  if (match === null) return { type: "equals", value: cell }
  const [, not = "", type = "", threshold, value] = match
  const assertion: Record<string, unknown> = { type: `${not}${type}` }
  if (LIST_TYPES.has(type)) {
    if (value) assertion.value = commaList(value)
  } else if (type === "is-json" || type === "contains-json") {
    if (value !== undefined) assertion.value = value
  } else if (value !== undefined) assertion.value = value.trim()
  if (THRESHOLD_TYPES.has(type))
    assertion.threshold = threshold === undefined ? (type === "similar" ? 0.8 : 0.75) : Number(threshold)
  return assertion
}

/** CSV rows as tests, as promptfoo reads them: columns are vars; `__expected…`, `__description`, `__threshold`, … theirs. */
const csvTests = (file: string, text: string, path: string): ReadonlyArray<Record<string, unknown>> => {
  let rows: Array<Record<string, string>>
  try {
    rows = parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, relax_quotes: true })
  } catch (error) {
    throw new ImportProblem(path, `${file}: ${(error as Error).message}`)
  }
  return rows.map((row, index) => {
    const vars: Record<string, unknown> = {}
    const assert: Array<Record<string, unknown>> = []
    const options: Record<string, unknown> = {}
    const test: Record<string, unknown> = { vars, assert, options }
    let metric: string | undefined
    for (const [rawColumn, cell] of Object.entries(row)) {
      const column = rawColumn.trim()
      if (column.startsWith("__expected")) {
        if (cell.trim() !== "") assert.push(assertionOfExpected(cell.trim()))
      } else if (column === "__prefix" || column === "__suffix") options[column.slice(2)] = cell
      else if (column === "__description") test.description = cell
      else if (column === "__metric") metric = cell
      else if (column === "__threshold") {
        if (cell.trim() !== "" && Number.isFinite(Number(cell))) test.threshold = Number(cell)
      } else if (column.startsWith("__metadata")) {
        // Metadata labels a test; it changes nothing a run asks or grades.
      } else if (column.startsWith("__"))
        throw new ImportProblem(`${path} (${file} row ${index + 1})`, `column ${column} is not supported`)
      else vars[column] = cell
    }
    if (metric !== undefined) for (const assertion of assert) assertion.metric = metric
    return test
  })
}

/** The tests one `file://` reference holds: CSV rows, JSONL lines, or a YAML/JSON list. */
const fileTests = (file: string, path: string): ReadonlyArray<unknown> => {
  const text = readText(file, path)
  if (/\.csv$/i.test(file)) return csvTests(file, text, path)
  if (/\.jsonl$/i.test(file)) {
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line, index) => {
        try {
          return JSON.parse(line)
        } catch (error) {
          throw new ImportProblem(`${path} (${file} line ${index + 1})`, `not JSON: ${(error as Error).message}`)
        }
      })
  }
  const parsed = parseYaml(text) as unknown
  if (!Array.isArray(parsed)) throw new ImportProblem(path, `${file} does not hold a list of tests`)
  return parsed
}

/** `tests:` (a list, a file, or a list mixing both) flattened, each test with where it came from. */
const listedTests = (tests: unknown, dir: string): ReadonlyArray<{ test: unknown; where: string }> => {
  const entries = typeof tests === "string" ? [tests] : tests
  if (!Array.isArray(entries))
    throw new ImportProblem("tests", `expected a list of tests or a file, not ${shown(tests)}`)
  const out: Array<{ test: unknown; where: string }> = []
  for (const [index, entry] of entries.entries()) {
    const file = typeof entry === "string" ? fileReference(entry, dir) : null
    if (typeof entry === "string" && file === null)
      throw new ImportProblem(
        `tests[${index}]`,
        `${shown(entry)} is not a test file (file://….csv, .jsonl, .yaml, .json)`,
      )
    if (file === null) {
      out.push({ test: entry, where: "" })
      continue
    }
    for (const [row, test] of fileTests(file, `tests[${index}]`).entries())
      out.push({ test, where: ` (${file.split("/").at(-1)} ${/\.csv$/i.test(file) ? "row" : "item"} ${row + 1})` })
  }
  return out
}

const tableOr = (value: unknown, path: string): Readonly<Record<string, unknown>> => {
  if (value === undefined) return {}
  if (!isRecord(value)) throw new ImportProblem(path, `expected a table, not ${shown(value)}`)
  return value
}

const listOr = (value: unknown, path: string): ReadonlyArray<unknown> => {
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new ImportProblem(path, `expected a list, not ${shown(value)}`)
  return value
}

const checkKeys = (table: Readonly<Record<string, unknown>>, allowed: ReadonlySet<string>, path: string) => {
  for (const key of Object.keys(table)) {
    if (!allowed.has(key)) throw new ImportProblem(`${path}.${key}`, "is not supported (proctor would not apply it)")
  }
}

const textOption = (options: Readonly<Record<string, unknown>>, key: string, path: string): string => {
  const value = options[key]
  if (value === undefined) return ""
  if (typeof value !== "string") throw new ImportProblem(`${path}.options.${key}`, "expected a string")
  return value
}

/**
 * promptfoo's tests with `defaultTest` merged into each as promptfoo merges it: its vars under the test's, its
 * assertions before the test's, its options and threshold where the test has none.
 */
export const promptfooTests = (tests: unknown, defaultTest: unknown, dir: string): ReadonlyArray<PromptfooTest> => {
  if (typeof defaultTest === "string")
    throw new ImportProblem("defaultTest", "a defaultTest in a file is not read yet: put it inline")
  const base = tableOr(defaultTest, "defaultTest")
  checkKeys(base, TEST_KEYS, "defaultTest")
  const baseOptions = tableOr(base.options, "defaultTest.options")
  checkKeys(baseOptions, OPTION_KEYS, "defaultTest.options")
  const baseVars = tableOr(base.vars, "defaultTest.vars")
  const baseAsserts = listOr(base.assert, "defaultTest.assert").map((assertion, index) => ({
    assertion,
    path: `defaultTest.assert[${index}]`,
  }))
  const baseThreshold = thresholdOf(base.threshold, "defaultTest")
  return listedTests(tests ?? [], dir).map(({ test, where }, index) => {
    const path = `tests[${index}]${where}`
    if (!isRecord(test)) throw new ImportProblem(path, `expected a test table, not ${shown(test)}`)
    checkKeys(test, TEST_KEYS, path)
    const options = { ...baseOptions, ...tableOr(test.options, `${path}.options`) }
    checkKeys(options, OPTION_KEYS, `${path}.options`)
    const description = test.description
    return {
      path,
      description: typeof description === "string" ? description : undefined,
      vars: { ...baseVars, ...tableOr(test.vars, `${path}.vars`) },
      asserts: [
        ...baseAsserts,
        ...listOr(test.assert, `${path}.assert`).map((assertion, n) => ({ assertion, path: `${path}.assert[${n}]` })),
      ],
      threshold: thresholdOf(test.threshold, path) ?? baseThreshold,
      prefix: textOption(options, "prefix", path),
      suffix: textOption(options, "suffix", path),
    }
  })
}
