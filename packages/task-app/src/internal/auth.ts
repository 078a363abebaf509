import { createHash, timingSafeEqual } from "node:crypto"
import type { IncomingHttpHeaders } from "node:http"

const headerList = (value: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  value === undefined ? [] : typeof value === "string" ? [value] : value

/**
 * Every key a request presents: `X-API-Key`, `X-API-Keys` and `Authorization: Bearer`, each split on commas
 * (synth-ai splits all three, so a client may send its key and its aliases in any of them).
 */
export const presentedKeys = (headers: IncomingHttpHeaders): string[] => {
  const bearer = headerList(headers.authorization).flatMap((value) =>
    value.toLowerCase().startsWith("bearer ") ? [value.slice(7).trim()] : [],
  )
  return [...headerList(headers["x-api-key"]), ...headerList(headers["x-api-keys"]), ...bearer]
    .flatMap((value) => value.split(","))
    .map((part) => part.trim())
    .filter((part) => part !== "")
}

/** Hashing first gives equal-length buffers, so the comparison leaks neither the key nor its length. */
const digest = (key: string) => createHash("sha256").update(key).digest()

export const makeKeyCheck = (allowed: ReadonlyArray<string>) => {
  const digests = allowed.map(digest)
  return (headers: IncomingHttpHeaders): boolean =>
    presentedKeys(headers).some((candidate) => {
      const presented = digest(candidate)
      return digests.some((expected) => timingSafeEqual(presented, expected))
    })
}
