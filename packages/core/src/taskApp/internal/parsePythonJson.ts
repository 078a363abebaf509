/** Strings no task app means (they begin with NUL), standing in for Python's non-finite literals. */
const NON_FINITE: ReadonlyMap<string, number> = new Map([
  ["\u0000NaN", Number.NaN],
  ["\u0000Infinity", Number.POSITIVE_INFINITY],
  ["\u0000-Infinity", Number.NEGATIVE_INFINITY],
])

// A JSON string (left as it is) or a bare non-finite literal (replaced).
const TOKEN = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g

/**
 * JSON as Python's `json.dumps` writes it by default: bare `NaN`, `Infinity` and `-Infinity` are numbers.
 * Task apps written in Python send them when a score is not a number; read as numbers, they become a
 * `no_score` answer instead of a body that looks corrupt (and is retried in vain). Undefined when the text
 * is not JSON even then. Only called once `JSON.parse` has failed, so well-formed bodies never pay for it.
 */
export const parsePythonJson = (text: string): unknown => {
  let replaced = false
  const escaped = text.replace(TOKEN, (token) => {
    if (token.startsWith('"')) return token
    replaced = true
    return `"\\u0000${token}"`
  })
  if (!replaced) return undefined
  try {
    return JSON.parse(escaped, (_key, value) =>
      typeof value === "string" && NON_FINITE.has(value) ? NON_FINITE.get(value) : value,
    )
  } catch {
    return undefined
  }
}
