import { providerAliases } from "./providerAliases.js"

const BEDROCK_PREFIX = /^(?:[a-z]{2,6}\.)?anthropic\./

/**
 * `groq:m`, `openai/gpt-4o`, `openrouter/anthropic/claude-…`, Bedrock's `us.anthropic.claude-…`: each tail of
 * the lower-cased id is a candidate, longest first, with the provider its prefix names (if any).
 */
export const modelCandidates = (
  model: string,
): ReadonlyArray<{ readonly tail: string; readonly implied: string | undefined }> => {
  let rest = model.trim().toLowerCase()
  let implied: string | undefined
  if (BEDROCK_PREFIX.test(rest)) {
    rest = rest.replace(BEDROCK_PREFIX, "")
    implied = "anthropic"
  }
  const colon = /^([a-z0-9_-]+):(.+)$/.exec(rest)
  if (colon !== null && providerAliases[colon[1]!] !== undefined) {
    implied = providerAliases[colon[1]!]
    rest = colon[2]!
  }
  const segments = rest.split("/")
  return segments.map((_, i) => ({
    tail: segments.slice(i).join("/"),
    implied: i === 0 ? implied : providerAliases[segments[i - 1]!],
  }))
}
