import { createHash, randomBytes } from "node:crypto"

/** An API key as the server keeps it: never the key itself, only its hash and a prefix to recognise it by. */
export interface ApiKeyRecord {
  readonly id: string
  readonly name: string
  readonly prefix: string
  readonly isAdmin: boolean
  readonly createdAt: string
  readonly revokedAt: string | null
}

/** What `proctor keys create` shows once: the plaintext key is not stored anywhere. */
export interface CreatedApiKey extends ApiKeyRecord {
  readonly key: string
}

export const API_KEY_PREFIX = "pk_"

/** `pk_` + 32 random bytes in base64url (43 characters). */
export const generateApiKey = (): string => API_KEY_PREFIX + randomBytes(32).toString("base64url")

/** Keys carry 256 bits of entropy, so a plain SHA-256 is enough: there is nothing to brute-force. */
export const hashApiKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

/** Enough of the key to tell keys apart in a listing, too little to matter if it leaks. */
export const apiKeyDisplayPrefix = (key: string): string => key.slice(0, API_KEY_PREFIX.length + 8)

export const newApiKeyId = (): string => `key_${randomBytes(8).toString("hex")}`

/** A well-formed key is `pk_` + 43 base64url characters; anything else is rejected before a database lookup. */
export const looksLikeApiKey = (key: string): boolean => /^pk_[A-Za-z0-9_-]{43}$/.test(key)
