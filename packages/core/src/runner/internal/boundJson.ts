import { isRecord } from "../../internal/isRecord.js"
/**
 * The most JSON (UTF-8 bytes) a result keeps of each of `details`, `final` and `info`: enough for any verdict,
 * answer or usage block, while a task app that puts a whole transcript there cannot swell every row of
 * results.jsonl, the output JSON and the job database.
 */
export const MAX_REPORTED_JSON_BYTES = 16 * 1024

/** Room kept for the `_truncated` marker itself. */
const MARKER_BYTES = 3 * 1024
const MAX_LISTED_KEYS = 20
const MAX_KEY_CHARS = 100

/** UTF-16 length × 3 bounds the UTF-8 length, so most texts never need counting. */
const fitsIn = (text: string, bytes: number) => text.length * 3 <= bytes || Buffer.byteLength(text) <= bytes

const prefixOf = (text: string, bytes: number) => Buffer.from(text.slice(0, bytes)).subarray(0, bytes).toString("utf8")

/**
 * `value` itself when its JSON fits in `limit` bytes (the usual case: one `JSON.stringify`); otherwise a cut
 * copy that says so. An object keeps the entries that fit, in order, and gains
 * `_truncated: {bytes, limit, omitted_keys, omitted_count}`; anything else becomes
 * `{_truncated: {bytes, limit}, json_prefix}`. `undefined` for nothing (absent, null, not JSON).
 */
export const boundJson = (value: unknown, limit: number = MAX_REPORTED_JSON_BYTES): unknown => {
  if (value === undefined || value === null) return undefined
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch {
    return { _truncated: { reason: "not serialisable as JSON" } }
  }
  if (text === undefined) return undefined
  if (fitsIn(text, limit)) return value
  const marker = { bytes: Buffer.byteLength(text), limit }
  const budget = Math.max(0, limit - MARKER_BYTES)
  if (!isRecord(value)) return { _truncated: marker, json_prefix: prefixOf(text, budget) }
  const kept: Record<string, unknown> = {}
  const omitted: Array<string> = []
  let used = 2
  for (const [key, inner] of Object.entries(value)) {
    const size = Buffer.byteLength(JSON.stringify(key)) + Buffer.byteLength(JSON.stringify(inner) ?? "") + 2
    if (used + size <= budget) {
      kept[key] = inner
      used += size
    } else {
      omitted.push(key)
    }
  }
  const omitted_keys = omitted.slice(0, MAX_LISTED_KEYS).map((key) => key.slice(0, MAX_KEY_CHARS))
  return { ...kept, _truncated: { ...marker, omitted_keys, omitted_count: omitted.length } }
}
