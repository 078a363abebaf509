import { readFileSync } from "node:fs"
import { basename, dirname, resolve } from "node:path"
import { parse as parseYaml } from "yaml"
import { isRecord } from "../../internal/isRecord.js"
import type { ImportedEval, ImportedRow } from "../ImportedEval.js"
import { ImportProblem, shown } from "../ImportProblem.js"
import { renderVars } from "../VarsTemplate.js"
import { type CheckContext, promptfooChecks } from "./promptfooAssertion.js"
import { promptfooModel } from "./promptfooProvider.js"
import { pythonFunctionsOf } from "./promptfooPython.js"
import { promptfooAggregate } from "./promptfooScore.js"
import { type PromptfooTest, promptfooTests } from "./promptfooTests.js"

/** Top-level keys proctor reads, and those that change nothing a run asks or grades. */
const TOP_KEYS = new Set(["prompts", "providers", "tests", "defaultTest"])
const HARMLESS_KEYS = new Set(["description", "tags", "sharing", "outputPath", "writeLatestResults", "metadata"])

interface Prompt {
  readonly label: string
  readonly path: string
  readonly template: string
}

/** A prompt file's text: promptfoo splits a .txt or .md file into several prompts at lines of `---`. */
const filePrompts = (file: string, path: string): ReadonlyArray<Prompt> => {
  if (!/\.(txt|md)$/i.test(file))
    throw new ImportProblem(path, `${basename(file)}: only .txt and .md prompt files are read (not scripts or chats)`)
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (error) {
    throw new ImportProblem(path, `cannot read ${file}: ${(error as Error).message}`)
  }
  return text
    .split(/\n-{3,}\n/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((template, index) => ({ label: `${basename(file)}:${index + 1}`, path, template }))
}

const promptsOf = (prompts: unknown, dir: string): ReadonlyArray<Prompt> => {
  const entries = typeof prompts === "string" ? [prompts] : prompts
  if (!Array.isArray(entries) || entries.length === 0)
    throw new ImportProblem("prompts", "expected a prompt or a list of prompts")
  return entries.flatMap((entry, index): ReadonlyArray<Prompt> => {
    const path = `prompts[${index}]`
    const raw = isRecord(entry) ? (entry.raw ?? entry.id) : entry
    if (typeof raw !== "string" || raw === "") throw new ImportProblem(path, `expected a prompt, not ${shown(entry)}`)
    if (isRecord(entry)) {
      for (const key of Object.keys(entry)) {
        if (!["raw", "id", "label"].includes(key)) throw new ImportProblem(`${path}.${key}`, "is not supported")
      }
    }
    if (raw.startsWith("file://")) return filePrompts(resolve(dir, raw.slice("file://".length)), path)
    const label = isRecord(entry) && typeof entry.label === "string" ? entry.label : raw
    return [{ label, path, template: raw }]
  })
}

const SCRIPT = /\.(py|js|cjs|mjs|ts|cts|mts)$/i
const BINARY = /\.(pdf|png|jpe?g|gif|webp|bmp|tiff?|ico|avif|heic|svg|mp[34]|wav|m4a|ogg|flac|webm|mov)$/i

/**
 * A test's vars as promptfoo passes them to its templates: a `file://` var is the file's text (trimmed; a YAML file
 * as JSON), read relative to the config. A list of values (promptfoo runs the test once per value), a glob (once per
 * file), a script (promptfoo runs it) or an image, audio or PDF file are refused with their key.
 */
const varsOf = (test: PromptfooTest, dir: string): Readonly<Record<string, unknown>> => {
  const vars: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(test.vars)) {
    const where = `${test.path}.vars.${name}`
    if (Array.isArray(value))
      throw new ImportProblem(
        where,
        "a list of values (promptfoo runs the test once per value) is not expanded: write one test per value",
      )
    if (typeof value !== "string" || !value.startsWith("file://")) {
      vars[name] = value
      continue
    }
    const file = value.slice("file://".length)
    if (/[*?[\]{}]/.test(file))
      throw new ImportProblem(where, "a glob (promptfoo runs the test once per file) is not expanded: name one file")
    if (SCRIPT.test(file))
      throw new ImportProblem(where, "a var computed by a script (promptfoo runs it) is not run: inline its value")
    if (BINARY.test(file))
      throw new ImportProblem(
        where,
        "an image, audio or PDF file is not read into a prompt: proctor's prompts are text",
      )
    const path = resolve(dir, file)
    let text: string
    try {
      text = readFileSync(path, "utf8")
    } catch (error) {
      throw new ImportProblem(where, `cannot read ${path}: ${(error as Error).message}`)
    }
    vars[name] = /\.ya?ml$/i.test(file) ? JSON.stringify(parseYaml(text)) : text.trim()
  }
  return vars
}

/** A rendered prompt as the messages promptfoo sends: text is one user message; a JSON chat, its system and user. */
const messagesOf = (text: string, path: string): { readonly system: string; readonly user: string } => {
  const trimmed = text.trim()
  if (!trimmed.startsWith("[")) return { system: "", user: text }
  let chat: unknown
  try {
    chat = JSON.parse(trimmed)
  } catch {
    return { system: "", user: text }
  }
  const roles = Array.isArray(chat) ? chat.map((message) => (isRecord(message) ? message.role : undefined)) : []
  const textual =
    Array.isArray(chat) && chat.every((message) => isRecord(message) && typeof message.content === "string")
  const [first, second] = Array.isArray(chat) ? (chat as Array<{ content: string }>) : []
  if (textual && roles.length === 1 && roles[0] === "user" && first !== undefined)
    return { system: "", user: first.content }
  if (textual && roles.length === 2 && roles[0] === "system" && roles[1] === "user" && first && second)
    return { system: first.content, user: second.content }
  throw new ImportProblem(path, "a chat prompt is run when it is a user message, or a system and a user message")
}

/**
 * A `promptfooconfig.yaml` (or .json) as an imported eval: each test × prompt is a row (seed `test × prompts +
 * prompt`), asked of the config's one provider, its assertions graded by proctor's graders with promptfoo's rules.
 * Whatever promptfoo would do that proctor would not is an `ImportProblem` naming its key.
 */
export const readPromptfooConfig = (file: string): ImportedEval => {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (error) {
    throw new ImportProblem("", (error as Error).message)
  }
  let config: unknown
  try {
    config = parseYaml(text)
  } catch (error) {
    throw new ImportProblem("", `not YAML: ${(error as Error).message.split("\n")[0]}`)
  }
  if (!isRecord(config)) throw new ImportProblem("", "expected a promptfoo config (a table)")
  for (const key of Object.keys(config)) {
    if (!TOP_KEYS.has(key) && !HARMLESS_KEYS.has(key))
      throw new ImportProblem(key, "is not supported (proctor would not apply it)")
  }
  const dir = dirname(resolve(file))
  const prompts = promptsOf(config.prompts, dir)
  const model = promptfooModel(config.providers)
  const tests = promptfooTests(config.tests, config.defaultTest, dir)
  const context: CheckContext = { dir, functions: pythonFunctionsOf("python") }
  if (tests.length === 0) throw new ImportProblem("tests", "no tests")
  const rows: Array<ImportedRow> = []
  for (const [testIndex, listed] of tests.entries()) {
    const test = { ...listed, vars: varsOf(listed, dir) }
    const checks = promptfooChecks(test.asserts, test.vars, context)
    const aggregate = promptfooAggregate(test.threshold)
    for (const [promptIndex, prompt] of prompts.entries()) {
      let filled: string
      try {
        filled = renderVars(prompt.template, test.vars)
      } catch (error) {
        throw new ImportProblem(`${prompt.path}`, `for ${test.path}: the template ${(error as Error).message}`)
      }
      const { system, user } = messagesOf(filled, prompt.path)
      rows.push({
        id: prompts.length === 1 ? testIndex + 1 : `${testIndex + 1}/${promptIndex + 1}`,
        item: {
          ...test.vars,
          ...(test.description === undefined ? {} : { __description: test.description }),
          ...(prompts.length === 1 ? {} : { __prompt: prompt.label }),
        },
        system,
        user: `${test.prefix}${user}${test.suffix}`,
        checks,
        aggregate,
      })
    }
  }
  return { source: file, name: basename(file).replace(/\.[^.]+$/, ""), rows, model }
}
