import { ParseResult } from "effect"

export const renderPath = (prefix: string, path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`),
    prefix,
  )

const EXPECTED_ACTUAL = /^Expected (.*), actual (.*)$/s

/** Several "Expected X, actual Y" for one key come from a union: they read better as one list. */
const mergeMessages = (messages: ReadonlyArray<string>): string => {
  const parts = messages.map((m) => EXPECTED_ACTUAL.exec(m))
  if (parts.every((p) => p !== null) && parts.length > 1) {
    const expected = parts.map((p) => p![1]).join(" or ")
    return `expected ${expected}, got ${parts[0]![2]}`
  }
  const first = messages[0] ?? ""
  return first.replace(EXPECTED_ACTUAL, "expected $1, got $2")
}

/**
 * One line per wrong key, `path: what was expected, got what`. `renderKey` lets callers name keys their
 * own way (a config key path such as `eval.seeds`, or a CLI flag such as `--seeds`). `typoFor` names what most
 * likely stood for a missing key (a misspelt key beside it), said on the key's line.
 */
export const formatParseIssues = (
  error: ParseResult.ParseError,
  renderKey: (path: ReadonlyArray<PropertyKey>) => string,
  typoFor?: (path: ReadonlyArray<PropertyKey>) => string | undefined,
): string => {
  const byKey = new Map<string, Array<string>>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const where = renderKey(issue.path) || "(top level)"
    const messages = byKey.get(where) ?? []
    const typo = issue._tag === "Missing" ? typoFor?.(issue.path) : undefined
    messages.push(issue._tag === "Missing" ? `is required${typo === undefined ? "" : `; ${typo}`}` : issue.message)
    byKey.set(where, messages)
  }
  return [...byKey].map(([where, messages]) => `${where}: ${mergeMessages(messages)}`).join("\n")
}
