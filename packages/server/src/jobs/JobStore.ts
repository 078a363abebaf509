import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Migrator, SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted } from "effect"
import { makeApiKeyQueries } from "./internal/apiKeyQueries.js"
import { makeJobQueries } from "./internal/jobQueries.js"
import { MIGRATIONS_TABLE, migrations } from "./internal/migrations.js"
import { makeResultQueries } from "./internal/resultQueries.js"
import { type JobStoreError, jobStoreError } from "./JobStoreError.js"
import type { JobStoreService } from "./JobStoreService.js"
import { SqliteClient } from "./SqliteClient.js"

export type * from "./JobStoreService.js"

export const DATABASE_FILE = "proctor.db"

/** Builds the store over whichever SQL client is provided, after bringing its schema up to date. */
export const makeJobStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const dialect = sql.onDialectOrElse({ pg: () => "pg" as const, orElse: () => "sqlite" as const })

  // NORMAL in WAL mode survives a killed process (the CLI journal's guarantee) without an fsync per rollout.
  yield* sql
    .onDialectOrElse({
      sqlite: () =>
        Effect.zipRight(sql`PRAGMA synchronous = NORMAL`.raw, sql`PRAGMA busy_timeout = 5000`.raw).pipe(Effect.asVoid),
      orElse: () => Effect.void,
    })
    .pipe(Effect.mapError(jobStoreError("cannot configure the database")))

  yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: MIGRATIONS_TABLE }).pipe(
    Effect.mapError(jobStoreError("database migration failed", "Migration")),
  )

  const FINGERPRINT_SETTING = "secret_key_fingerprint"
  const secretKeyFingerprint = sql<{ readonly value: string }>`SELECT value FROM server_settings
    WHERE name = ${FINGERPRINT_SETTING}`.pipe(
    Effect.map((rows) => rows[0]?.value ?? null),
    Effect.mapError(jobStoreError("cannot read the secret key's fingerprint")),
  )

  const service: JobStoreService = {
    dialect,
    ping: sql`SELECT 1 AS one`.pipe(Effect.asVoid, Effect.mapError(jobStoreError("database unreachable"))),
    secretKeyFingerprint,
    claimSecretKeyFingerprint: (fingerprint) =>
      sql`INSERT INTO server_settings (name, value) VALUES (${FINGERPRINT_SETTING}, ${fingerprint})
        ON CONFLICT (name) DO NOTHING`.pipe(
        Effect.mapError(jobStoreError("cannot record the secret key's fingerprint")),
        Effect.zipRight(secretKeyFingerprint),
        Effect.map((stored) => stored ?? fingerprint),
      ),

    ...makeApiKeyQueries(sql),
    ...makeJobQueries(sql),
    ...makeResultQueries(sql),
  }
  return service
})

/** Where jobs, results, traces and keys live: an embedded SQLite file by default, or PostgreSQL. */
export class JobStore extends Context.Tag("@proctor/server/JobStore")<JobStore, JobStoreService>() {
  /** Over an already provided `SqlClient`. */
  static readonly layerFromClient: Layer.Layer<JobStore, JobStoreError, SqlClient.SqlClient> = Layer.effect(
    JobStore,
    makeJobStore,
  )

  /** `{dataDir}/proctor.db`, in WAL mode. */
  static readonly layerSqlite = (dataDir: string): Layer.Layer<JobStore, JobStoreError> =>
    JobStore.layerFromClient.pipe(
      Layer.provide(
        Layer.unwrapEffect(
          Effect.try({
            try: () => {
              mkdirSync(dataDir, { recursive: true })
              return SqliteClient.layer({ filename: join(dataDir, DATABASE_FILE) })
            },
            catch: jobStoreError(`cannot create the data directory ${dataDir}`),
          }),
        ).pipe(Layer.mapError(jobStoreError(`cannot open ${join(dataDir, DATABASE_FILE)}`))),
      ),
    )

  /** The same schema on PostgreSQL (`postgres://user@host:5432/db`). */
  static readonly layerPg = (url: string): Layer.Layer<JobStore, JobStoreError> =>
    JobStore.layerFromClient.pipe(Layer.provide(pgClientLayer(url)))

  /** `layerPg` that also provides its `SqlClient`, for stores of the cluster that share the connection pool. */
  static readonly layerPgWithClient = (url: string): Layer.Layer<JobStore | SqlClient.SqlClient, JobStoreError> =>
    JobStore.layerFromClient.pipe(Layer.provideMerge(pgClientLayer(url)))
}

const pgClientLayer = (url: string) =>
  PgClient.layer({ url: Redacted.make(url), maxConnections: 10 }).pipe(
    // The URL may hold a password: say only which host failed.
    Layer.mapError(jobStoreError(`cannot connect to PostgreSQL at ${hostOf(url)}`)),
  )

const hostOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`
  } catch {
    return "(unparsable URL)"
  }
}
