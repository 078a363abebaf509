import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Migrator, SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { MIGRATIONS_TABLE, migrations } from "./internal/migrations.js"
import { JobStore } from "./JobStore.js"
import { type JobStoreError, jobStoreError } from "./JobStoreError.js"
import { KeyStore } from "./KeyStore.js"
import { RolloutStore } from "./RolloutStore.js"
import { SqliteClient } from "./SqliteClient.js"

export const DATABASE_FILE = "proctor.db"

/** The three stores of the job database, on its one SQL client. */
export type JobStores = JobStore | RolloutStore | KeyStore

/** Brings the schema up to date; done once, before any store is used. */
const prepare = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
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
})

/** The stores over an already provided `SqlClient`, once its schema is up to date. */
const layerFromClient: Layer.Layer<JobStores, JobStoreError, SqlClient.SqlClient> = Layer.mergeAll(
  JobStore.layer,
  RolloutStore.layer,
  KeyStore.layer,
).pipe(Layer.provide(Layer.effectDiscard(prepare)))

/** `{dataDir}/proctor.db`, in WAL mode. */
const layerSqlite = (dataDir: string): Layer.Layer<JobStores | SqlClient.SqlClient, JobStoreError> =>
  Layer.provideMerge(
    layerFromClient,
    Layer.unwrapEffect(
      Effect.try({
        try: () => {
          mkdirSync(dataDir, { recursive: true })
          return SqliteClient.layer({ filename: join(dataDir, DATABASE_FILE) })
        },
        catch: jobStoreError(`cannot create the data directory ${dataDir}`),
      }),
    ).pipe(Layer.mapError(jobStoreError(`cannot open ${join(dataDir, DATABASE_FILE)}`))),
  )

/** The same schema on PostgreSQL (`postgres://user@host:5432/db`); a cluster's stores share its pool. */
const layerPg = (url: string): Layer.Layer<JobStores | SqlClient.SqlClient, JobStoreError> =>
  Layer.provideMerge(
    layerFromClient,
    PgClient.layer({ url: Redacted.make(url), maxConnections: 10 }).pipe(
      // The URL may hold a password: say only which host failed.
      Layer.mapError(jobStoreError(`cannot connect to PostgreSQL at ${hostOf(url)}`)),
    ),
  )

const hostOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`
  } catch {
    return "(unparsable URL)"
  }
}

/**
 * The job database: where jobs (`JobStore`), their rollouts (`RolloutStore`) and API keys (`KeyStore`) live, on
 * one SQL client — an embedded SQLite file by default, or PostgreSQL — its schema brought up to date as it opens.
 */
export const JobDatabase = { layerFromClient, layerSqlite, layerPg } as const
