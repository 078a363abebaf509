/** A JSON Schema, as effect's `JSONSchema.make` and the server's OpenAPI document write them. */
export interface JsonSchema {
  readonly type?: string
  readonly $ref?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly items?: JsonSchema
  readonly format?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly description?: string
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: JsonSchema | boolean
  readonly $defs?: Readonly<Record<string, JsonSchema>>
}

const parenthesised = (type: string) => (type.includes(" or ") ? `(${type})` : type)

/**
 * A schema's type in a few words: `integer > 0, ≤ 10000`, `"a" | "b"`, `list of string`, `string or null`.
 * `refName` says what a `$ref` is called (a link to its section, or a word like "integer").
 */
export const describeType = (schema: JsonSchema, refName: (ref: string) => string): string => {
  const describe = (s: JsonSchema): string => describeType(s, refName)
  if (schema.anyOf !== undefined) return [...new Set(schema.anyOf.map(describe))].join(" or ")
  if (schema.enum !== undefined) return schema.enum.map((value) => JSON.stringify(value)).join(" | ")
  if (schema.$ref !== undefined) return refName(schema.$ref)
  const base =
    schema.type === "array"
      ? schema.items === undefined ||
        (schema.items.type === undefined && schema.items.$ref === undefined && schema.items.anyOf === undefined)
        ? "list"
        : `list of ${parenthesised(describe(schema.items))}`
      : schema.type === "object"
        ? "object"
        : schema.format === "uri"
          ? "http(s) URL"
          : schema.type === "string" && (schema.minLength ?? 0) > 0
            ? "non-empty string"
            : (schema.type ?? "any value")
  const bounds = [
    schema.exclusiveMinimum === undefined ? null : `> ${schema.exclusiveMinimum}`,
    schema.minimum === undefined ? null : `≥ ${schema.minimum}`,
    schema.maximum === undefined ? null : `≤ ${schema.maximum}`,
    schema.maxLength === undefined ? null : `≤ ${schema.maxLength} chars`,
  ].filter((bound) => bound !== null)
  return bounds.length === 0 ? base : `${base} ${bounds.join(", ")}`
}

/**
 * A schema's type as `describeType` says it, a `$ref` to one of the `$defs` of `root` read as what it refers to,
 * under the referring schema's own keywords. effect's `JSONSchema.make` writes its refinements there (`Int`,
 * `NonEmptyTrimmedString`), and a refinement given a description as a `$ref` to the one it refines (a described
 * `NonEmptyTrimmedString` is `Trimmed` with `minLength: 1`), which a table of names would not know.
 */
export const describeWithDefs = (schema: JsonSchema, root: JsonSchema): string => {
  const definitionOf = (ref: string) => root.$defs?.[ref.split("/").pop() ?? ""]
  const definition = schema.$ref === undefined ? undefined : definitionOf(schema.$ref)
  if (definition === undefined) {
    return describeType(schema, (ref) => {
      const nested = definitionOf(ref)
      return nested === undefined ? "value" : describeWithDefs(nested, root)
    })
  }
  const { $ref: _ref, ...own } = schema
  return describeWithDefs({ ...definition, ...own }, root)
}
