import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import type { ApiKeyRecord } from "./ApiKey.js"
import { num } from "./internal/storeRows.js"
import { type JobStoreError, jobStoreError } from "./JobStoreError.js"

export interface NewApiKey {
  readonly record: ApiKeyRecord
  readonly keyHash: string
}

/** API keys: only their hashes are stored. */
export interface KeyStoreService {
  readonly insertApiKey: (key: NewApiKey) => Effect.Effect<void, JobStoreError>
  /** Only keys that are not revoked. */
  readonly findApiKeyByHash: (keyHash: string) => Effect.Effect<ApiKeyRecord | null, JobStoreError>
  readonly listApiKeys: Effect.Effect<ReadonlyArray<ApiKeyRecord>, JobStoreError>
  readonly revokeApiKey: (id: string, at: string) => Effect.Effect<boolean, JobStoreError>
}

interface KeyRow {
  readonly id: string
  readonly name: string
  readonly prefix: string
  readonly is_admin: number | string
  readonly created_at: string
  readonly revoked_at: string | null
}

const keyOf = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  isAdmin: num(row.is_admin) === 1,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
})

export const makeKeyStore = Effect.map(
  SqlClient.SqlClient,
  (sql): KeyStoreService => ({
    insertApiKey: ({ record, keyHash }) =>
      sql`INSERT INTO api_keys (id, name, key_hash, prefix, is_admin, created_at, revoked_at)
        VALUES (${record.id}, ${record.name}, ${keyHash}, ${record.prefix}, ${record.isAdmin ? 1 : 0},
          ${record.createdAt}, ${record.revokedAt})`.pipe(
        Effect.asVoid,
        Effect.mapError(jobStoreError("cannot store the API key")),
      ),
    findApiKeyByHash: (keyHash) =>
      sql<KeyRow>`SELECT id, name, prefix, is_admin, created_at, revoked_at FROM api_keys
        WHERE key_hash = ${keyHash} AND revoked_at IS NULL`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? null : keyOf(rows[0]))),
        Effect.mapError(jobStoreError("cannot look up the API key")),
      ),
    listApiKeys: sql<KeyRow>`SELECT id, name, prefix, is_admin, created_at, revoked_at FROM api_keys
      ORDER BY created_at, id`.pipe(
      Effect.map((rows) => rows.map(keyOf)),
      Effect.mapError(jobStoreError("cannot list API keys")),
    ),
    revokeApiKey: (id, at) =>
      sql<{ id: string }>`UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL
        RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(jobStoreError("cannot revoke the API key")),
      ),
  }),
)

/** The API keys of the job database (see `JobDatabase`, which opens it). */
export class KeyStore extends Context.Tag("@proctor/server/KeyStore")<KeyStore, KeyStoreService>() {
  static readonly make = makeKeyStore
  static readonly layer: Layer.Layer<KeyStore, never, SqlClient.SqlClient> = Layer.effect(KeyStore, makeKeyStore)
}
