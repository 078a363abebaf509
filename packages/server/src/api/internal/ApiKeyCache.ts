import { Context, Effect, Layer } from "effect"
import type { ApiKeyRecord } from "../../jobs/ApiKey.js"
import type { JobStoreError } from "../../jobs/JobStoreError.js"
import { KeyStore } from "../../jobs/KeyStore.js"
import { makeLruMap } from "./LruMap.js"

export const DEFAULT_API_KEY_CACHE_TTL_MS = 1_000

/** Far more keys than a server sees at once; past it the least recently used are dropped. */
const MAX_CACHED_KEYS = 10_000

export interface ApiKeyCacheOptions {
  /** How long a key found in the database is trusted without asking again; 0 never trusts it. */
  readonly ttlMs: number
}

export interface ApiKeyCacheService {
  /**
   * The record of a key the database returned less than the TTL ago, without asking it again. Null means only
   * "not remembered": unknown keys are never remembered, so a key created a moment ago is looked up.
   */
  readonly cached: (keyHash: string) => ApiKeyRecord | null
  /** Asks the database (which finds no revoked key) and remembers a key it finds; a key it does not is forgotten. */
  readonly lookup: (keyHash: string) => Effect.Effect<ApiKeyRecord | null, JobStoreError>
}

/**
 * Keys are revoked by another process writing the database (`proctor keys revoke`), which this one cannot hear
 * of: a remembered key is trusted for at most `ttlMs`, so a revoked key stops working within it. Entries are
 * keyed by the key's hash, so the cache holds nothing a key could be recovered from.
 */
export const makeApiKeyCache = (options: ApiKeyCacheOptions) =>
  Effect.map(KeyStore, (store): ApiKeyCacheService => {
    const keys = makeLruMap<string, { readonly record: ApiKeyRecord; readonly expiresAt: number }>(MAX_CACHED_KEYS)
    return {
      cached: (keyHash) => {
        const entry = keys.get(keyHash)
        if (entry === undefined) return null
        // Monotonic: a wall-clock step back must not extend a revoked key's life.
        if (performance.now() < entry.expiresAt) return entry.record
        keys.delete(keyHash)
        return null
      },
      lookup: (keyHash) =>
        Effect.map(store.findApiKeyByHash(keyHash), (record) => {
          if (record === null) keys.delete(keyHash)
          else keys.set(keyHash, { record, expiresAt: performance.now() + options.ttlMs })
          return record
        }),
    }
  })

/** Answers "which key is this?" from memory for the routes clients poll, within a TTL of the database's answer. */
export class ApiKeyCache extends Context.Tag("@proctor/server/ApiKeyCache")<ApiKeyCache, ApiKeyCacheService>() {
  static readonly make = makeApiKeyCache
  static readonly layer = (options: ApiKeyCacheOptions): Layer.Layer<ApiKeyCache, never, KeyStore> =>
    Layer.effect(ApiKeyCache, makeApiKeyCache(options))
}
