import { isRecord } from "../../internal/isRecord.js"

/** Hand checks for upstream JSON: bodies are read on the hot path, so no Schema decode. */

export type JsonRecord = Record<string, unknown>

export const numberOrNull = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null

export const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null)

export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The message of an error object in OpenAI's (`{message}`) or Anthropic's (`{type, message}`) shape. */
export const errorMessageOf = (error: unknown): string => {
  if (typeof error === "string") return error
  if (isRecord(error)) {
    if (typeof error.message === "string") return error.message
    if (isRecord(error.error)) return errorMessageOf(error.error)
    if (typeof error.type === "string") return error.type
  }
  return "upstream reported an error"
}
