import { Effect } from "effect"
import { apiKeyDisplayPrefix, type CreatedApiKey, generateApiKey, hashApiKey, newApiKeyId } from "./ApiKey.js"
import { KeyStore } from "./KeyStore.js"

/** Stores a new key's hash and returns the plaintext key, the only time it exists outside its owner's hands. */
export const issueApiKey = Effect.fn("ApiKeys.issue")(function* (options: {
  readonly name: string
  readonly admin: boolean
}) {
  const store = yield* KeyStore
  const key = generateApiKey()
  const record = {
    id: newApiKeyId(),
    name: options.name,
    prefix: apiKeyDisplayPrefix(key),
    isAdmin: options.admin,
    createdAt: new Date().toISOString(),
    revokedAt: null,
  }
  yield* store.insertApiKey({ record, keyHash: hashApiKey(key) })
  return { ...record, key } satisfies CreatedApiKey
})
