import {
  type ConfigKeyDoc,
  configKeyDocOf,
  EvalTomlSection,
  loadEvalConfig,
  policyTableKeys,
  publicConfig,
  synthAiRenamedKeys,
  synthAiUnusedKeys,
} from "@proctor/core"
import { Effect, JSONSchema, Schema, SchemaAST } from "effect"
import { code, page, table, text } from "./markdown.js"
import { describeWithDefs, type JsonSchema } from "./schemaType.js"

/** One key of the eval config, as the reference lists it. */
export interface ConfigKey {
  /** As written in TOML below `[eval]`: `concurrency`, `policy_config.inference_url`. */
  readonly path: string
  readonly doc: ConfigKeyDoc
  readonly type: string
  /** Markdown: the default value in code, or words (`required`, `none`, a `defaultText`). */
  readonly default: string
}

const typeOf = (signature: SchemaAST.PropertySignature): string => {
  const field = Schema.Struct({ [signature.name]: Schema.make(signature.type) })
  const json = JSONSchema.make(field) as JsonSchema & { properties: Record<string, JsonSchema> }
  const property = json.properties[String(signature.name)]
  const type = property === undefined ? "any value" : describeWithDefs(property, json)
  return type === "object" ? "table" : type
}

/** What an unset key resolves to: read from the config that a run with no file and no flags gets. */
const resolvedDefaults = (): Readonly<Record<string, unknown>> => {
  const loaded = Effect.runSync(loadEvalConfig({ flags: { url: "http://127.0.0.1:8000", seeds: "0" }, env: {} }))
  return publicConfig(loaded.config)
}

const REQUIRED = new Set(["url", "seeds"])
/** Keys the probe in `resolvedDefaults` sets, whose resolved values are the probe's, not defaults. */
const PROBED = new Set(["task_app_url"])

const defaultOf = (path: string, doc: ConfigKeyDoc, defaults: Readonly<Record<string, unknown>>): string => {
  if (doc.defaultText !== undefined) return text(doc.defaultText)
  if (REQUIRED.has(path)) return "required"
  if (PROBED.has(path)) return "none"
  const value = defaults[path]
  const empty =
    value === undefined ||
    value === null ||
    (typeof value === "object" && Object.keys(value as object).length === 0 && !Array.isArray(value))
  return empty ? "none" : code(JSON.stringify(value))
}

const keysOf = (
  signatures: ReadonlyArray<SchemaAST.PropertySignature>,
  prefix: string,
  defaults: Readonly<Record<string, unknown>>,
): ReadonlyArray<ConfigKey> =>
  signatures.map((signature) => {
    const path = `${prefix}${String(signature.name)}`
    const doc = configKeyDocOf(signature)
    if (doc === undefined) throw new Error(`config key ${path} has no configKeyDoc annotation (EvalRunConfig.ts)`)
    return { path, doc, type: typeOf(signature), default: defaultOf(path, doc, defaults) }
  })

const tableOf = (ast: SchemaAST.AST): SchemaAST.TypeLiteral => {
  if (SchemaAST.isTypeLiteral(ast)) return ast
  throw new Error(`expected a table schema, got ${ast._tag}`)
}

/** The `[eval]` keys that are tables of keys of their own, each documented key by key. */
const SUBTABLES = ["policy_config", "judge"] as const

/** Every key of `[eval]` and of its tables (`[eval.policy_config]`, `[eval.judge]`), from `EvalTomlSection` and its annotations. */
export const configKeys = (): ReadonlyArray<ConfigKey> => {
  const defaults = resolvedDefaults()
  const section = tableOf(EvalTomlSection.ast).propertySignatures
  const subtables = SUBTABLES.map((name) => {
    const signature = section.find((each) => each.name === name)
    if (signature === undefined) throw new Error(`EvalTomlSection has no ${name}`)
    return keysOf(tableOf(signature.type).propertySignatures, `${name}.`, defaults)
  })
  return [...keysOf(section, "", defaults), ...subtables.flat()]
}

const flagLink = (flag: string) => `[${code(flag)}](./cli#proctor-eval)`

const keySection = (key: ConfigKey): string => {
  const { doc } = key
  const subtable = SUBTABLES.find((name) => key.path.startsWith(`${name}.`))
  const [table_, name] =
    subtable === undefined ? ["[eval]", key.path] : [`[eval.${subtable}]`, key.path.slice(subtable.length + 1)]
  return [
    `### ${key.path}`,
    "",
    text(doc.description),
    "",
    table(
      ["Type", "Default", "synth-ai", "Flag", "Example"],
      [
        [
          text(key.type),
          key.default,
          doc.synthAi === null ? "proctor's own" : code(doc.synthAi),
          doc.flag === undefined ? "none" : flagLink(doc.flag),
          `${code(`${name} = ${doc.example}`)} in ${code(table_)}`,
        ],
      ],
    ),
  ].join("\n")
}

const SOURCE =
  "packages/core/src/config/EvalRunConfig.ts (EvalTomlSection and its annotations) and internal/reviewConfigKeys.ts"

/** The config reference page. */
export const configReference = (): string => {
  const keys = configKeys()
  const synthAi = keys.filter((key) => !key.path.includes(".") && key.doc.synthAi !== null)
  const own = keys.filter((key) => !key.path.includes(".") && key.doc.synthAi === null)
  const policy = keys.filter((key) => key.path.startsWith("policy_config."))
  const judge = keys.filter((key) => key.path.startsWith("judge."))
  const body = [
    "An eval config is synth-ai's `[eval]` TOML table (or the same keys at the top level of the file), plus",
    "keys of proctor's own. Precedence: flags, then the config file, then the environment (`ENVIRONMENT_API_KEY`;",
    "`OPENAI_BASE_URL` for the model endpoint), then the defaults below. A bad value names the key and what was",
    "expected; a key proctor does not read is a warning (an error with `strict`), naming the key it most likely",
    "meant. `examples/math/eval.toml` is a complete config.",
    "",
    "## synth-ai's keys",
    "",
    synthAi.map(keySection).join("\n\n"),
    "",
    "## proctor's keys",
    "",
    own.map(keySection).join("\n\n"),
    "",
    "## [eval.policy_config]",
    "",
    "Sent to the task app as `policy.config`. These keys are checked; any other key is passed on as given",
    "(policies take arbitrary settings). Keys that look secret (`api_key`, `*_token`, …) never reach the run",
    "directory, and a resumed run reads them again from its config file.",
    "",
    policy.map(keySection).join("\n\n"),
    "",
    "## [eval.judge]",
    "",
    "The judge of model graders, on an upstream of its own; see the guide [How far to trust your judge](../guide/judges).",
    "",
    judge.map(keySection).join("\n\n"),
    "",
    "## synth-ai's other names",
    "",
    "Read under proctor's name; a config that uses synth-ai's gets a warning naming the key proctor reads.",
    "",
    table(
      ["synth-ai writes", "proctor reads"],
      Object.entries(synthAiRenamedKeys).map(([from, to]) => [code(from), code(to)]),
    ),
    "",
    "## synth-ai keys proctor does not use",
    "",
    "A note, not a warning: synth-ai configs run as they are.",
    "",
    table(
      ["Key", "Why"],
      Object.entries(synthAiUnusedKeys).map(([key, why]) => [code(key), text(why)]),
    ),
    "",
    "## Policy keys in the wrong table",
    "",
    "synth-ai once read these from `[eval]` itself; proctor reads them only in `[eval.policy_config]` and warns",
    "when they sit in `[eval]`:",
    [...policyTableKeys].map(code).join(", "),
    "",
  ].join("\n")
  return page({ title: "Config keys", source: SOURCE, body })
}
