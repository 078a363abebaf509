import { isRecord } from "../../internal/isRecord.js"
import type { TokenUsage } from "../../result/ModelCall.js"
import { numberOrNull } from "./json.js"

const sumOrNull = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b)

/** Chat completions: `prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`. */
export const chatUsage = (usage: unknown): TokenUsage | null => {
  if (!isRecord(usage)) return null
  const prompt = numberOrNull(usage.prompt_tokens)
  const completion = numberOrNull(usage.completion_tokens)
  const promptDetails = usage.prompt_tokens_details
  const completionDetails = usage.completion_tokens_details
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: numberOrNull(usage.total_tokens) ?? sumOrNull(prompt, completion),
    cached_tokens: isRecord(promptDetails) ? numberOrNull(promptDetails.cached_tokens) : null,
    reasoning_tokens: isRecord(completionDetails) ? numberOrNull(completionDetails.reasoning_tokens) : null,
  }
}

/** Responses API: `input_tokens`/`output_tokens` with `input_tokens_details` / `output_tokens_details`. */
export const responsesUsage = (usage: unknown): TokenUsage | null => {
  if (!isRecord(usage)) return null
  const prompt = numberOrNull(usage.input_tokens)
  const completion = numberOrNull(usage.output_tokens)
  const inputDetails = usage.input_tokens_details
  const outputDetails = usage.output_tokens_details
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: numberOrNull(usage.total_tokens) ?? sumOrNull(prompt, completion),
    cached_tokens: isRecord(inputDetails) ? numberOrNull(inputDetails.cached_tokens) : null,
    reasoning_tokens: isRecord(outputDetails) ? numberOrNull(outputDetails.reasoning_tokens) : null,
  }
}

/**
 * Anthropic counts cache reads and cache writes outside `input_tokens`; they are added back so that
 * `prompt_tokens` means every input token on all three APIs, with the cache reads in `cached_tokens`.
 */
export const messagesUsage = (usage: unknown): TokenUsage | null => {
  if (!isRecord(usage)) return null
  const input = numberOrNull(usage.input_tokens)
  const cacheRead = numberOrNull(usage.cache_read_input_tokens)
  const cacheWrite = numberOrNull(usage.cache_creation_input_tokens)
  const completion = numberOrNull(usage.output_tokens)
  const prompt = input === null ? null : input + (cacheRead ?? 0) + (cacheWrite ?? 0)
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: sumOrNull(prompt, completion),
    cached_tokens: cacheRead,
    reasoning_tokens: null,
  }
}
