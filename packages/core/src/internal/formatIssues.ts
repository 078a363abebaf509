import { ParseResult } from "effect"

export const renderPath = (prefix: string, path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`),
    prefix,
  )

/**
 * One line per wrong key, `path: what was expected, got what`. `renderKey` lets callers name keys their
 * own way (a config key path such as `eval.seeds`, or a CLI flag such as `--seeds`).
 */
export const formatParseIssues = (
  error: ParseResult.ParseError,
  renderKey: (path: ReadonlyArray<PropertyKey>) => string,
): string => {
  const lines = new Map<string, string>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const where = renderKey(issue.path) || "(top level)"
    if (lines.has(where)) continue
    const message = issue.message.replace(/^Expected (.*), actual (.*)$/s, "expected $1, got $2")
    lines.set(where, `${where}: ${issue._tag === "Missing" ? "is required" : message}`)
  }
  return [...lines.values()].join("\n")
}
