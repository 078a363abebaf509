/**
 * The JSON object a judge answered with: the last `{…}` in its text that parses (models wrap JSON in prose or a
 * code fence). Null when there is none.
 */
export const judgeJson = (text: string): Record<string, unknown> | null => {
  for (let end = text.lastIndexOf("}"); end !== -1; end = text.lastIndexOf("}", end - 1)) {
    for (let start = text.lastIndexOf("{", end); start !== -1; start = text.lastIndexOf("{", start - 1)) {
      try {
        const parsed: unknown = JSON.parse(text.slice(start, end + 1))
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
          return parsed as Record<string, unknown>
        }
      } catch {
        // Not this span: widen it to the previous brace.
      }
    }
  }
  return null
}

/** The answer's `reasoning` when it gave one. */
export const reasoningOf = (json: Record<string, unknown>): string | null =>
  typeof json.reasoning === "string" ? json.reasoning : null
