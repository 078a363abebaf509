import { isRecord } from "../../internal/isRecord.js"

/** Loose readers of an agent's JSON output: a field of the wanted type, or a neutral value. */
export const field = (value: unknown, key: string): unknown => (isRecord(value) ? value[key] : undefined)
export const text = (value: unknown, key: string): string => {
  const found = field(value, key)
  return typeof found === "string" ? found : ""
}
export const num = (value: unknown, key: string): number | null => {
  const found = field(value, key)
  return typeof found === "number" && Number.isFinite(found) ? found : null
}
export const items = (value: unknown, key: string): ReadonlyArray<unknown> => {
  const found = field(value, key)
  return Array.isArray(found) ? found : []
}
