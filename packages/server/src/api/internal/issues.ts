import { ParseResult } from "effect"
import type { FieldIssue } from "../ApiErrors.js"

/** `policy.temperature`, `seeds[3]`: the path of a wrong value the way a JSON author would write it. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`),
    "",
  ) || "body"

const EXPECTED_ACTUAL = /^Expected (.*), actual (.*)$/s

/** Long "actual" values (a 1 MB string) are cut so an error body stays small. */
const shorten = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text)

const readable = (messages: ReadonlyArray<string>): string => {
  const parts = messages.map((m) => EXPECTED_ACTUAL.exec(m))
  if (parts.length > 1 && parts.every((p) => p !== null)) {
    return shorten(`expected ${[...new Set(parts.map((p) => p![1]))].join(" or ")}, got ${parts[0]![2]}`)
  }
  return shorten((messages[0] ?? "is invalid").replace(EXPECTED_ACTUAL, "expected $1, got $2"))
}

/** One issue per wrong field, in the order they were found. */
export const issuesOf = (error: ParseResult.ParseError): ReadonlyArray<FieldIssue> => {
  const byField = new Map<string, Array<string>>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const field = fieldPath(issue.path)
    const messages = byField.get(field) ?? []
    messages.push(issue._tag === "Missing" ? "is required" : issue.message)
    byField.set(field, messages)
  }
  return [...byField].map(([field, messages]) => ({ field, message: readable(messages) }))
}
