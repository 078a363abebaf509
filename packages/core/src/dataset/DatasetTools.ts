import { readFile } from "node:fs/promises"
import { Effect } from "effect"
import type { ToolSpec } from "../agent/PromptTurn.js"
import { ConfigError } from "../config/ConfigError.js"
import { isRecord } from "../internal/isRecord.js"
import { compileItemTemplate, type ItemTemplate } from "./ItemTemplate.js"

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** A tool definition whose strings may be templates over the row: each string leaf compiled once. */
type Templated = string | number | boolean | null | ItemTemplate | ReadonlyArray<Templated> | TemplatedObject
interface TemplatedObject {
  readonly [key: string]: Templated
}

const isTemplate = (value: unknown): value is ItemTemplate =>
  isRecord(value) && typeof value.render === "function" && typeof value.source === "string"

const compileLeaves = (value: unknown): Templated => {
  if (typeof value === "string") return value.includes("{") ? compileItemTemplate(value) : value
  if (Array.isArray(value)) return value.map(compileLeaves)
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, leaf]) => [key, compileLeaves(leaf)]))
  return value as Templated
}

const renderLeaves = (value: Templated, item: Readonly<Record<string, unknown>>): unknown => {
  if (isTemplate(value)) return value.render(item)
  if (Array.isArray(value)) return value.map((leaf) => renderLeaves(leaf, item))
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([key, leaf]) => [key, renderLeaves(leaf, item)]))
  return value
}

/**
 * One tool in proctor's neutral form, from any of the three shapes users copy from their providers' docs: OpenAI chat
 * (`{ type: "function", function: { name, description, parameters } }`), Responses (`{ type: "function", name, … }`)
 * and Anthropic (`{ name, description, input_schema }`). Null when it is none of them.
 */
const toolSpecOf = (tool: unknown): ToolSpec | null => {
  if (!isRecord(tool)) return null
  const declared = isRecord(tool.function) ? tool.function : tool
  const name = declared.name
  if (typeof name !== "string" || name === "") return null
  const parameters = declared.parameters ?? declared.input_schema ?? { type: "object", properties: {} }
  if (!isRecord(parameters)) return null
  return { name, description: typeof declared.description === "string" ? declared.description : "", parameters }
}

export interface DatasetTools {
  /** The tools for a row, their templates filled in; throws a `TemplateProblem` when the row lacks a column. */
  readonly render: (item: Readonly<Record<string, unknown>>) => ReadonlyArray<ToolSpec>
}

/**
 * A dataset eval's tools (`tools`, a JSON file): read and checked once, before anything runs — a file that is not a
 * list of function tools is one line naming the file and the entry.
 */
export const loadDatasetTools = Effect.fn("DatasetTools.load")(function* (path: string) {
  const text = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => invalid(`tools: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`),
  })
  const parsed = yield* Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: (error) => invalid(`tools: ${path} is not JSON: ${(error as Error).message}`),
  })
  if (!Array.isArray(parsed)) return yield* invalid(`tools: ${path} holds ${typeof parsed}, not a list of tools`)
  const templated = yield* Effect.forEach(parsed, (tool, index) => {
    const spec = toolSpecOf(tool)
    if (spec === null) {
      return invalid(
        `tools: ${path}[${index}] is not a function tool (expected { type: "function", function: { name, parameters } }, { name, parameters } or { name, input_schema })`,
      )
    }
    return Effect.try({
      try: () => compileLeaves(spec),
      catch: (error) => invalid(`tools: ${path}[${index}]: a template ${(error as Error).message}`),
    })
  })
  return {
    render: (item) => templated.map((tool) => renderLeaves(tool, item) as ToolSpec),
  } satisfies DatasetTools
})
