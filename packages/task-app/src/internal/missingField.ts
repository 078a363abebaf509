import { isRecord } from "@proctor/core"
import type { RequiredField } from "../TaskAppDefinition.js"

const valueAt = (root: unknown, path: string): unknown => {
  let node = root
  for (const key of path.split(".")) {
    if (!isRecord(node)) return undefined
    node = node[key]
  }
  return node
}

const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "")

/** The first of the fields the task requires that the request lacks (absent, null or blank), if any. */
export const missingField = (request: unknown, required: ReadonlyArray<RequiredField>): RequiredField | undefined =>
  required.find((field) => isMissing(valueAt(request, field)))
