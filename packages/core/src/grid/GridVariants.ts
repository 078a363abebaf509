import { Either, Schema } from "effect"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { HttpUrl } from "../config/HttpUrl.js"

const opt = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })
/** One value, or several: a list makes the table a matrix over it. */
const OneOrMore = <S extends Schema.Schema<string>>(item: S) => Schema.Union(item, Schema.NonEmptyArray(item))

/**
 * One `[[eval.variants]]` table: the settings that differ from the run's. Lists multiply: `model = ["a", "b"]`
 * with `prompt = ["p", "q"]` is four variants. A `name` is given to a table that makes one variant only.
 */
export const GridVariantSpec = Schema.Struct({
  name: opt(
    Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._+@-]*$/, {
        message: () => "expected a name of letters, digits and . _ + @ - (it names the variant's run directory)",
      }),
    ),
  ),
  model: opt(OneOrMore(Schema.NonEmptyTrimmedString)),
  prompt: opt(OneOrMore(Schema.NonEmptyString)),
  system: opt(OneOrMore(Schema.NonEmptyString)),
  /** One endpoint for the table's variants: models served elsewhere (another provider) in one grid. */
  inference_url: opt(HttpUrl),
})
export type GridVariantSpec = typeof GridVariantSpec.Type

export const GridVariantSpecs = Schema.NonEmptyArray(GridVariantSpec)

/** A variant of a grid run, expanded: its directory's name and what it sets over the run's config. */
export interface GridVariant {
  readonly name: string
  readonly model?: string | undefined
  readonly prompt?: string | undefined
  readonly system?: string | undefined
  /** The model's endpoint when it is not the run's. */
  readonly inference_url?: string | undefined
}

const listOf = (value: string | ReadonlyArray<string> | undefined): ReadonlyArray<string | undefined> =>
  value === undefined ? [undefined] : typeof value === "string" ? [value] : value

const DIMENSIONS = ["model", "prompt", "system"] as const
/** What names a variant when it differs: its dimensions, then its endpoint (`e1`, `e2` … in order). */
const NAMING = [...DIMENSIONS, "inference_url"] as const

/** A model name as part of a directory name: what is not a name character becomes `_`. */
const nameOfModel = (model: string) => model.replace(/[^A-Za-z0-9._@-]/g, "_")

/**
 * The variants of a grid run, in order: each table's matrix, named by what differs between them (the model's
 * name, `p1`, `p2` … for prompts, `s1` … for system messages and `e1` … for endpoints in order of first appearance,
 * joined by `+`) unless a table names its one variant. Two variants with one name are an error naming the second.
 */
export const expandGridVariants = (
  config: Pick<EvalRunConfig, "model" | "prompt" | "system">,
  specs: ReadonlyArray<GridVariantSpec>,
): Either.Either<ReadonlyArray<GridVariant>, string> => {
  const expanded: Array<{ readonly table: number; readonly named?: string; readonly values: GridVariant }> = []
  for (const [table, spec] of specs.entries()) {
    const matrix = DIMENSIONS.map((key) => listOf(spec[key]))
    const count = matrix.reduce((n, values) => n * values.length, 1)
    if (spec.name !== undefined && count > 1) {
      return Either.left(
        `variants[${table}].name: this table makes ${count} variants; a name names one (drop it, or split the table)`,
      )
    }
    for (const model of matrix[0]!)
      for (const prompt of matrix[1]!)
        for (const system of matrix[2]!)
          expanded.push({
            table,
            ...(spec.name === undefined ? {} : { named: spec.name }),
            values: {
              name: "",
              model: model ?? config.model ?? undefined,
              prompt: prompt ?? config.prompt,
              system: system ?? config.system,
              ...(spec.inference_url === undefined ? {} : { inference_url: spec.inference_url }),
            },
          })
  }
  const varying = NAMING.filter((key) => new Set(expanded.map((v) => v.values[key])).size > 1)
  const ordinal = (key: (typeof NAMING)[number], value: string | undefined) =>
    [...new Set(expanded.map((v) => v.values[key]))].indexOf(value) + 1
  const letter = { prompt: "p", system: "s", inference_url: "e" } as const
  const autoName = (v: GridVariant) =>
    varying
      .map((key) => (key === "model" ? nameOfModel(v.model ?? "default") : `${letter[key]}${ordinal(key, v[key])}`))
      .join("+") || "default"
  const seen = new Map<string, number>()
  const variants: Array<GridVariant> = []
  for (const { table, named, values } of expanded) {
    const name = named ?? autoName(values)
    if (seen.has(name)) {
      return Either.left(
        `variants[${table}]: a second variant named ${JSON.stringify(name)} (variants[${seen.get(name)}] has it); give each a name`,
      )
    }
    seen.set(name, table)
    variants.push({ ...values, name })
  }
  return Either.right(variants)
}

/**
 * A variant's own run config: the run's, with the variant's model (in the policy table too), prompt, system and
 * endpoint.
 */
export const variantConfig = (config: EvalRunConfig, variant: GridVariant): EvalRunConfig => {
  const { variants: _, ...base } = config
  const model = variant.model ?? config.model
  return {
    ...base,
    model: model ?? null,
    policy_config: {
      ...config.policy_config,
      ...(model == null ? {} : { model }),
      ...(variant.inference_url === undefined ? {} : { inference_url: variant.inference_url }),
    },
    ...(variant.prompt === undefined ? {} : { prompt: variant.prompt }),
    ...(variant.system === undefined ? {} : { system: variant.system }),
  }
}
