import { GraderSpec } from "@proctor/core"
import { JSONSchema, Schema, SchemaAST } from "effect"
import { code, page, table, text } from "./markdown.js"
import { describeWithDefs, type JsonSchema } from "./schemaType.js"

const typeOf = (signature: SchemaAST.PropertySignature): string => {
  const json = JSONSchema.make(Schema.Struct({ [signature.name]: Schema.make(signature.type) })) as JsonSchema & {
    properties: Record<string, JsonSchema>
  }
  const property = json.properties[String(signature.name)]
  return property === undefined ? "any value" : describeWithDefs(property, json)
}

const descriptionOf = (annotated: SchemaAST.Annotated): string =>
  String(SchemaAST.getDescriptionAnnotation(annotated).pipe((option) => (option._tag === "Some" ? option.value : "")))

/**
 * A grader's struct as written (its encoded side, where defaults are still optional), under the checks a spec adds
 * (a label grader's `passing` among its `labels`).
 */
const structOf = (ast: SchemaAST.AST, side: "from" | "to" = "from"): SchemaAST.TypeLiteral =>
  SchemaAST.isRefinement(ast)
    ? structOf(ast.from, side)
    : SchemaAST.isTransformation(ast)
      ? structOf(ast[side], side)
      : (ast as SchemaAST.TypeLiteral)

const typeLiteralOf = (ast: SchemaAST.TypeLiteral): string => {
  const type = ast.propertySignatures.find((signature) => signature.name === "type")?.type
  return type !== undefined && SchemaAST.isLiteral(type) ? String(type.literal) : "?"
}

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
      "The model graders (`rubric`, `label`, `fact`, `pairwise`) ask a judge model (`[eval.judge]`, `--judge`, or",
      "their own `judge`); how far to trust one is in the judges guide. A key a grader's type does not read is a warning",
      "naming the key it most likely meant (an error with `strict`), as in the rest of the config; in `ctx.grade` it is",
      "an error (the call rejects with that line), as is any other problem of the specs it is given.",
      "",
      ...GraderSpec.members.flatMap((member) => {
        const ast = member.ast
        const fields = structOf(ast)
        const type = typeLiteralOf(fields)
        const keys = fields.propertySignatures.filter((signature) => signature.name !== "type")
        // A key with a default keeps its description on the decoded side only.
        const decoded = new Map(structOf(ast, "to").propertySignatures.map((signature) => [signature.name, signature]))
        return [
          `## ${code(type)}`,
          "",
          text(descriptionOf(ast) || descriptionOf(fields)),
          "",
          table(
            ["Key", "Type", "Meaning"],
            keys.map((signature) => [
              code(String(signature.name)),
              text(typeOf(signature)),
              text(
                descriptionOf(signature) ||
                  descriptionOf(decoded.get(signature.name) ?? signature) ||
                  descriptionOf(signature.type),
              ),
            ]),
          ),
          "",
        ]
      }),
    ].join("\n"),
  })
