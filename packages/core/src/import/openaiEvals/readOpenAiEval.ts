import { readFileSync } from "node:fs"
import { basename } from "node:path"
import { Ajv } from "ajv"
import { SCORE_GRADER } from "../../grader/GraderSet.js"
import { isRecord } from "../../internal/isRecord.js"
import type { ImportedAggregate, ImportedEval, ImportedModel, ImportedRow } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"
import { renderVars } from "../VarsTemplate.js"
import { contentText, criterionChecks } from "./openAiCriterion.js"

/** Keys of the eval's JSON proctor reads (`POST /v1/evals`'s body, and a run's `data_source`) or that label it. */
const KEYS = new Set([
  "name",
  "metadata",
  "data_source_config",
  "testing_criteria",
  "data_source",
  "object",
  "id",
  "created_at",
])
const DATA_SOURCE_KEYS = new Set(["type", "input_messages", "model", "sampling_params"])
const SAMPLING_KEYS: Readonly<Record<string, string>> = {
  temperature: "temperature",
  top_p: "top_p",
  seed: "seed",
  max_completion_tokens: "max_completion_tokens",
}

const readJson = (file: string, path: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"))
  } catch (error) {
    throw new ImportProblem(path, (error as Error).message)
  }
}

/** `--data`: JSONL lines, each `{"item": {…}}` (OpenAI's upload format, `sample` not used) or the item itself. */
const readItems = (file: string): ReadonlyArray<Readonly<Record<string, unknown>>> => {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (error) {
    throw new ImportProblem("--data", (error as Error).message)
  }
  const items: Array<Readonly<Record<string, unknown>>> = []
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new ImportProblem(`--data ${file} line ${index + 1}`, `not JSON: ${(error as Error).message}`)
    }
    if (!isRecord(value)) throw new ImportProblem(`--data ${file} line ${index + 1}`, "expected a JSON object")
    const item = isRecord(value.item) ? value.item : value
    items.push(item)
  }
  if (items.length === 0) throw new ImportProblem(`--data ${file}`, "no items")
  return items
}

interface MessageTemplates {
  readonly system: ReadonlyArray<string>
  readonly user: string
}

/** The run's `input_messages` template: system and developer messages, then one user message. */
const messageTemplates = (dataSource: Readonly<Record<string, unknown>>): MessageTemplates => {
  const input = dataSource.input_messages
  if (!isRecord(input) || input.type !== "template" || !Array.isArray(input.template))
    throw new ImportProblem(
      "data_source.input_messages",
      'expected { "type": "template", "template": [messages] }: proctor samples the model from a template (item_reference trajectories are not supported)',
    )
  const system: Array<string> = []
  let user: string | undefined
  for (const [index, message] of input.template.entries()) {
    const path = `data_source.input_messages.template[${index}]`
    if (!isRecord(message)) throw new ImportProblem(path, "expected a message")
    const text = contentText(message.content, `${path}.content`)
    if ((message.role === "system" || message.role === "developer") && user === undefined) system.push(text)
    else if (message.role === "user" && user === undefined) user = text
    else
      throw new ImportProblem(
        `${path}.role`,
        `${shown(message.role)} here is not supported: proctor asks system/developer messages and then one user message`,
      )
  }
  if (user === undefined) throw new ImportProblem("data_source.input_messages.template", "no user message")
  return { system, user }
}

const modelOf = (dataSource: Readonly<Record<string, unknown>>): ImportedModel => {
  const params = dataSource.sampling_params === undefined ? {} : dataSource.sampling_params
  if (!isRecord(params)) throw new ImportProblem("data_source.sampling_params", "expected a table")
  const sampling: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(params)) {
    const setting = SAMPLING_KEYS[key]
    if (setting === undefined)
      throw new ImportProblem(`data_source.sampling_params.${key}`, "is not supported (proctor would not send it)")
    sampling[setting] = value
  }
  const model = dataSource.model
  if (model !== undefined && typeof model !== "string")
    throw new ImportProblem("data_source.model", "expected a model name")
  return { ...(model === undefined ? {} : { model }), provider: "openai", sampling }
}

/** An item's verdict from its criteria's: it passes when every criterion passes (OpenAI's per-item result), scored by their mean. */
const allCriteria: ImportedAggregate = (verdicts) => {
  const score = verdicts.reduce((sum, { verdict }) => sum + verdict.score, 0) / Math.max(1, verdicts.length)
  const failed = verdicts.filter(({ verdict }) => !verdict.passed).map(({ check }) => check.name)
  return failed.length === 0
    ? { score, passed: true }
    : { score, passed: false, reason: `failed: ${failed.join(", ")}` }
}

/**
 * An OpenAI Evals definition (the body of `POST /v1/evals` — `data_source_config`, `testing_criteria` — with the run's
 * `data_source`: its `input_messages` template, `model` and `sampling_params`) and its items (`--data`) as an
 * imported eval: each item a row, asked of the model with the template filled from `{{ item.x }}`, graded by its
 * criteria. Items are checked against `data_source_config.item_schema` first.
 */
export const readOpenAiEval = (file: string, dataFile: string): ImportedEval => {
  const definition = readJson(file, "")
  if (!isRecord(definition)) throw new ImportProblem("", "expected an eval definition (a JSON object)")
  for (const key of Object.keys(definition)) {
    if (!KEYS.has(key)) throw new ImportProblem(key, "is not supported (proctor would not apply it)")
  }
  const config = definition.data_source_config
  if (!isRecord(config) || config.type !== "custom")
    throw new ImportProblem(
      "data_source_config.type",
      `${shown(isRecord(config) ? config.type : config)} is not supported: proctor runs "custom" data sources (items from --data), not logs or stored completions`,
    )
  const schema = config.item_schema ?? config.schema
  const validate = isRecord(schema) ? new Ajv({ strict: false }).compile(schema) : null
  const dataSource = definition.data_source
  if (!isRecord(dataSource))
    throw new ImportProblem(
      "data_source",
      "missing: add the run's data source ({ type: completions, input_messages: { type: template, … }, model }) to the file",
    )
  for (const key of Object.keys(dataSource)) {
    if (!DATA_SOURCE_KEYS.has(key))
      throw new ImportProblem(
        `data_source.${key}`,
        key === "source" ? "give the items with --data" : "is not supported",
      )
  }
  if (dataSource.type !== "completions")
    throw new ImportProblem(
      "data_source.type",
      `${shown(dataSource.type)} is not supported: proctor samples the model ("completions")`,
    )
  const templates = messageTemplates(dataSource)
  const criteria = definition.testing_criteria
  if (!Array.isArray(criteria) || criteria.length === 0)
    throw new ImportProblem("testing_criteria", "expected a list of graders")
  const names = criteria.map((criterion, index) => {
    const name = isRecord(criterion) && typeof criterion.name === "string" ? criterion.name : `criterion ${index + 1}`
    return name === SCORE_GRADER ? `criterion ${name}` : name
  })
  const checksOf = criteria.map((criterion, n) => criterionChecks(criterion, `testing_criteria[${n}]`))
  const items = readItems(dataFile)
  const rows: Array<ImportedRow> = items.map((item, index) => {
    if (validate !== null && !validate(item)) {
      const first = validate.errors?.[0]
      throw new ImportProblem(
        `--data ${dataFile} item ${index + 1}`,
        `does not match data_source_config.item_schema: ${first?.instancePath || "/"} ${first?.message ?? ""}`,
      )
    }
    const fill = (source: string, path: string) => {
      try {
        return renderVars(source, { item })
      } catch (error) {
        throw new ImportProblem(path, `for item ${index + 1}: the template ${(error as Error).message}`)
      }
    }
    const seen = new Map<string, number>()
    return {
      id: typeof item.id === "string" || typeof item.id === "number" ? item.id : index + 1,
      item,
      system: templates.system.map((text) => fill(text, "data_source.input_messages")).join("\n\n"),
      user: fill(templates.user, "data_source.input_messages"),
      checks: checksOf.map((checkOf, n) => {
        const base = names[n]!
        const count = (seen.get(base) ?? 0) + 1
        seen.set(base, count)
        return { name: count === 1 ? base : `${base}#${count}`, weight: 1, ...checkOf(item) }
      }),
      aggregate: allCriteria,
    }
  })
  const name = typeof definition.name === "string" && definition.name.trim() !== "" ? definition.name : basename(file)
  return { source: file, name: name.replace(/\.json$/i, ""), rows, model: modelOf(dataSource) }
}
