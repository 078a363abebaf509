import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { jobStoreError } from "../JobStoreError.js"
import type { ApiKeyStoreService } from "../JobStoreService.js"
import { type KeyRow, keyOf } from "./storeRows.js"

/** The API keys aggregate of the job store. */
export const makeApiKeyQueries = (sql: SqlClient.SqlClient): ApiKeyStoreService => ({
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
})
