import { RolloutRequestSchema } from "@proctor/core"
import { Either, ParseResult, Schema } from "effect"

/** One entry of FastAPI's 422 body, the shape synth-ai's own clients already print. */
export interface ValidationIssue {
  readonly type: string
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
}

const decode = Schema.decodeUnknownEither(RolloutRequestSchema, { errors: "all", onExcessProperty: "ignore" })

const issueType = (tag: ParseResult.ParseIssue["_tag"]) =>
  tag === "Missing" ? "missing" : tag === "Unexpected" ? "extra_forbidden" : "value_error"

const issueMessage = (issue: ParseResult.ArrayFormatterIssue) =>
  issue._tag === "Missing"
    ? "Field required"
    : issue.message.replace(/^Expected (.*), actual (.*)$/s, "expected $1, got $2")

/**
 * Decodes a `POST /rollout` body, or lists every wrong field with its path under `body`: one entry per
 * field, because an optional field reports each member of its union (`number`, then `undefined`).
 */
export const decodeRolloutRequest = (
  body: unknown,
): Either.Either<typeof RolloutRequestSchema.Type, ReadonlyArray<ValidationIssue>> =>
  Either.mapLeft(decode(body), (error) => {
    const byField = new Map<string, ValidationIssue>()
    for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
      const loc = ["body", ...issue.path.map((key) => (typeof key === "number" ? key : String(key)))]
      const field = JSON.stringify(loc)
      if (!byField.has(field)) byField.set(field, { type: issueType(issue._tag), loc, msg: issueMessage(issue) })
    }
    return [...byField.values()]
  })
