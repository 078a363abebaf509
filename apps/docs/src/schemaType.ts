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
  readonly maxLength?: number
  readonly description?: string
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: JsonSchema | boolean
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
          : (schema.type ?? "any value")
  const bounds = [
    schema.exclusiveMinimum === undefined ? null : `> ${schema.exclusiveMinimum}`,
    schema.minimum === undefined ? null : `≥ ${schema.minimum}`,
    schema.maximum === undefined ? null : `≤ ${schema.maximum}`,
    schema.maxLength === undefined ? null : `≤ ${schema.maxLength} chars`,
  ].filter((bound) => bound !== null)
  return bounds.length === 0 ? base : `${base} ${bounds.join(", ")}`
}
