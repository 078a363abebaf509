import { buildOpenApi } from "@proctor/server"
import { code, page, slug, table, text } from "./markdown.js"
import { describeType, type JsonSchema } from "./schemaType.js"

interface Parameter {
  readonly name: string
  readonly in: string
  readonly required?: boolean
  readonly description?: string
  readonly schema?: JsonSchema
}
interface Response {
  readonly description: string
  readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>>
}
interface Operation {
  readonly summary: string
  readonly security?: ReadonlyArray<unknown>
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: { readonly content: Readonly<Record<string, { readonly schema?: JsonSchema }>> }
  readonly responses: Readonly<Record<string, Response>>
}
interface OpenApi {
  readonly info: { readonly title: string; readonly description: string }
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>
  readonly components: { readonly schemas: Readonly<Record<string, JsonSchema>> }
}

/** The server's OpenAPI document, as `GET /api/openapi.json` serves it. */
export const openApiDocument = (): OpenApi => buildOpenApi({ version: "0.1.0" }) as unknown as OpenApi

/** Every operation of the document: `GET /api/eval/jobs/{id}`. */
export const operations = (document: OpenApi = openApiDocument()) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  )

const schemaName = (ref: string) => ref.split("/").pop() ?? ref
const refLink = (ref: string) => `[${schemaName(ref)}](#${slug(schemaName(ref))})`
const typeOf = (schema: JsonSchema | undefined) => (schema === undefined ? "" : text(describeType(schema, refLink)))
// describeType's links are markdown: `text()` must not escape them, so types are built from escaped parts only.
const typeCell = (schema: JsonSchema | undefined) =>
  schema === undefined ? "" : describeType(schema, refLink).replaceAll("|", "\\|")

/** An object's fields as rows, nested objects flattened with dotted names (`policy.model`). */
const fieldRows = (schema: JsonSchema, prefix = "", depth = 0): ReadonlyArray<ReadonlyArray<string>> => {
  const inner = schema.anyOf?.find((s) => s.type === "object") ?? schema
  if (inner.properties === undefined) return []
  const required = new Set(inner.required ?? [])
  return Object.entries(inner.properties).flatMap(([name, field]) => {
    const path = `${prefix}${name}`
    const nested = depth < 2 ? fieldRows(field, `${path}.`, depth + 1) : []
    return [[code(path), typeCell(field), required.has(name) ? "yes" : "", text(field.description ?? "")], ...nested]
  })
}

const contentRows = (content: Readonly<Record<string, { readonly schema?: JsonSchema }>> | undefined) =>
  Object.entries(content ?? {}).map(([type, { schema }]) => `${code(type)} ${typeCell(schema)}`.trim())

const operationSection = (method: string, path: string, operation: Operation): string => {
  const parameters = operation.parameters ?? []
  const body = operation.requestBody
  return [
    `### ${method} ${path}`,
    "",
    text(operation.summary),
    "",
    operation.security === undefined ? "No API key." : "Needs an API key: `Authorization: Bearer pk_…`.",
    ...(parameters.length === 0
      ? []
      : [
          "",
          table(
            ["Parameter", "In", "Type", "Meaning"],
            parameters.map((p) => [
              code(p.name),
              p.in,
              typeOf(p.schema),
              text([p.required === true ? "required" : "", p.description ?? ""].filter(Boolean).join("; ")),
            ]),
          ),
        ]),
    ...(body === undefined ? [] : ["", `Request body: ${contentRows(body.content).join(", ")}`]),
    "",
    table(
      ["Status", "Meaning", "Body"],
      Object.entries(operation.responses).map(([status, response]) => [
        status,
        text(response.description),
        contentRows(response.content).join(", "),
      ]),
    ),
  ].join("\n")
}

const schemaSection = (name: string, schema: JsonSchema): string => {
  const rows = fieldRows(schema)
  return [
    `### ${name}`,
    "",
    ...(schema.description === undefined ? [] : [text(schema.description), ""]),
    rows.length === 0 ? typeOf(schema) : table(["Field", "Type", "Required", "Meaning"], rows),
  ].join("\n")
}

/** The HTTP API reference page. */
export const httpReference = (): string => {
  const document = openApiDocument()
  const all = operations(document)
  const body = [
    text(document.info.description),
    "",
    "A running server serves this document at `GET /api/openapi.json` and renders it at `/docs` (a page of the",
    'server\'s own: it works offline). Errors have one shape, `{"error": {"code", "message",',
    '"field"?}}` ([ErrorResponse](#errorresponse)); a 429 carries `Retry-After`. Keys are made with',
    "`proctor keys create` ([running a team server](../guide/team-server)).",
    "",
    "## Endpoints",
    "",
    table(
      ["Method", "Path", "What"],
      all.map(({ method, path, operation }) => [
        method,
        `[${code(path)}](#${slug(`${method} ${path}`)})`,
        text(operation.summary),
      ]),
    ),
    "",
    "## Operations",
    "",
    all.map(({ method, path, operation }) => operationSection(method, path, operation)).join("\n\n"),
    "",
    "## Schemas",
    "",
    Object.entries(document.components.schemas)
      .map(([name, schema]) => schemaSection(name, schema))
      .join("\n\n"),
  ].join("\n")
  return page({ title: "HTTP API", source: "packages/server/src/api/openapi.ts (buildOpenApi)", body })
}
