import { GraderSpec } from "@proctor/core"
import { JSONSchema, Schema, SchemaAST } from "effect"
import { code, page, table, text } from "./markdown.js"
import { describeType, type JsonSchema } from "./schemaType.js"

const REFS: Readonly<Record<string, string>> = {
  NonEmptyTrimmedString: "non-empty string",
  NonEmptyString: "non-empty string",
}
const refName = (ref: string) => REFS[ref.split("/").pop() ?? ""] ?? "value"

const typeOf = (signature: SchemaAST.PropertySignature): string => {
  const json = JSONSchema.make(Schema.Struct({ [signature.name]: Schema.make(signature.type) })) as {
    properties: Record<string, JsonSchema>
  }
  const property = json.properties[String(signature.name)]
  return property === undefined ? "any value" : describeType(property, refName)
}

const descriptionOf = (annotated: SchemaAST.Annotated): string =>
  String(SchemaAST.getDescriptionAnnotation(annotated).pipe((option) => (option._tag === "Some" ? option.value : "")))

/** The grader reference: every grader type and its keys, generated from the grader schemas (core's GraderSpec). */
export const graderReference = (): string =>
  page({
    title: "Graders",
    source: "packages/core/src/grader/GraderSpec.ts (GraderSpec)",
    body: [
      "Graders grade each rollout's answer: `[[eval.graders]]` tables in the config file, `--grader` on the command",
      'line (a type alone, `--grader equals`, or the same table inline, `--grader \'{ type = "regex", pattern = "^4$" }\'`),',
      "or `ctx.grade(…)` in `evaluate()`. Every grader has a `type`, an optional `name` (its metric's name; default the",
      "type) and `weight`. Each verdict is a score from 0 to 1 and whether it passed; the run's score is the grader",
      "named `score`, else the weighted mean. Templates are Liquid over the dataset row: `{{ item.answer }}`.",
      "The model graders (`rubric`, `label`, `fact`, `pairwise`) are documented with the judges.",
      "",
      ...GraderSpec.members.flatMap((member) => {
        const ast = member.ast as SchemaAST.TypeLiteral
        const type = member.fields.type.literals[0]
        const keys = ast.propertySignatures.filter((signature) => signature.name !== "type")
        return [
          `## ${code(type)}`,
          "",
          text(descriptionOf(ast)),
          "",
          table(
            ["Key", "Type", "Meaning"],
            keys.map((signature) => [
              code(String(signature.name)),
              typeOf(signature),
              text(descriptionOf(signature) || descriptionOf(signature.type)),
            ]),
          ),
          "",
        ]
      }),
    ].join("\n"),
  })
