import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Migrator, SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { EvalResult, ModelCall, RunSummary } from "@proctor/core"
import { Context, Effect, Layer, Redacted } from "effect"
import type { ApiKeyRecord } from "./ApiKey.js"
import { makeApiKeyQueries } from "./internal/apiKeyQueries.js"
import { makeJobQueries } from "./internal/jobQueries.js"
import { MIGRATIONS_TABLE, migrations } from "./internal/migrations.js"
import { makeResultQueries } from "./internal/resultQueries.js"
import type { StoredJobConfig } from "./JobConfig.js"
import type { JobStatus } from "./JobStatus.js"
import { type JobStoreError, jobStoreError } from "./JobStoreError.js"
import type { ResultStats, ResultTally, TallyRow } from "./ResultTally.js"
import { SqliteClient } from "./SqliteClient.js"

export const DATABASE_FILE = "proctor.db"

export interface JobRecord {
  readonly id: string
  readonly ownerKeyId: string
  readonly status: JobStatus
  readonly config: StoredJobConfig
  /** The request as the client sent it, secrets left out; null for jobs stored before it was kept. */
  readonly requested: Readonly<Record<string, unknown>> | null
  /** The sealed `JobSecrets`; null once the job has ended. */
  readonly secretsSealed: string | null
  /** Rollouts planned: seeds × attempts. */
  readonly planned: number
  readonly numSeeds: number
  readonly error: string | null
  readonly createdAt: string
  readonly startedAt: string | null
  readonly completedAt: string | null
  readonly summary: RunSummary | null
  /** The aggregate stored when the job ended; null while it runs (and for jobs ended before it was stored). */
  readonly stats: ResultStats | null
}

export interface NewJob {
  readonly id: string
  readonly ownerKeyId: string
  readonly config: StoredJobConfig
  readonly requested?: Readonly<Record<string, unknown>> | null | undefined
  readonly secretsSealed: string
  readonly planned: number
  readonly numSeeds: number
  readonly createdAt: string
}

export interface NewApiKey {
  readonly record: ApiKeyRecord
  readonly keyHash: string
}

/** A page position: the last (seed, attempt) already read. */
export interface RolloutCursor {
  readonly seed: number
  readonly attempt: number
}

export interface StoredRow extends RolloutCursor {
  /** The stored JSON text, handed to clients as it is. */
  readonly json: string
}

export interface ResultWrite {
  readonly result: EvalResult
  /** Its place in the viewer's order of the job's rows (kept from the first write of a key); 0 when unnumbered. */
  readonly seq?: number | undefined
}

export interface JobListFilter {
  /** null lists every owner's jobs (an admin key). */
  readonly ownerKeyId: string | null
  readonly statuses: ReadonlyArray<JobStatus> | null
  readonly limit: number
  /** Keyset position, newest first: the (created_at, id) of the last job of the previous page. */
  readonly before: { readonly createdAt: string; readonly id: string } | null
}

export interface JobStoreService {
  readonly dialect: "sqlite" | "pg"
  readonly ping: Effect.Effect<void, JobStoreError>
  /** The fingerprint of the secret key this database's task-app keys are sealed with; null before the first. */
  readonly secretKeyFingerprint: Effect.Effect<string | null, JobStoreError>
  /** Records `fingerprint` unless one is recorded already; returns the one recorded (first writer wins). */
  readonly claimSecretKeyFingerprint: (fingerprint: string) => Effect.Effect<string, JobStoreError>

  readonly insertApiKey: (key: NewApiKey) => Effect.Effect<void, JobStoreError>
  /** Only keys that are not revoked. */
  readonly findApiKeyByHash: (keyHash: string) => Effect.Effect<ApiKeyRecord | null, JobStoreError>
  readonly listApiKeys: Effect.Effect<ReadonlyArray<ApiKeyRecord>, JobStoreError>
  readonly revokeApiKey: (id: string, at: string) => Effect.Effect<boolean, JobStoreError>

  readonly insertJob: (job: NewJob) => Effect.Effect<void, JobStoreError>
  readonly getJob: (id: string) => Effect.Effect<JobRecord | null, JobStoreError>
  readonly listJobs: (query: JobListFilter) => Effect.Effect<ReadonlyArray<JobRecord>, JobStoreError>
  readonly countActiveJobs: (ownerKeyId: string) => Effect.Effect<number, JobStoreError>
  readonly countJobsByStatus: Effect.Effect<ReadonlyMap<string, number>, JobStoreError>
  /** Jobs a previous process left pending or running, oldest first. */
  readonly resumableJobs: Effect.Effect<ReadonlyArray<JobRecord>, JobStoreError>
  /** False when the job is no longer pending or running (it was cancelled meanwhile). */
  readonly markRunning: (id: string, startedAt: string) => Effect.Effect<boolean, JobStoreError>
  readonly cancelPending: (id: string, at: string) => Effect.Effect<boolean, JobStoreError>
  /** Ends a pending or running job and deletes its sealed secrets; false when it had already ended. */
  readonly finishJob: (
    id: string,
    outcome: {
      readonly status: JobStatus
      readonly error: string | null
      readonly completedAt: string
      /** The job's final aggregate, stored on its row so status polls of the ended job never scan its rows. */
      readonly stats?: ResultStats | undefined
    },
  ) => Effect.Effect<boolean, JobStoreError>
  readonly saveSummary: (id: string, summary: RunSummary) => Effect.Effect<void, JobStoreError>

  /**
   * Upserts rollouts' rows (and their traces) in one transaction: the last write of a key wins. Returns, for each
   * write in order, the row it replaced (null for a new key), so a live tally can take the old row's contribution
   * back out.
   */
  readonly upsertResults: (
    jobId: string,
    writes: ReadonlyArray<ResultWrite>,
  ) => Effect.Effect<ReadonlyArray<TallyRow | null>, JobStoreError>
  /** The highest `seq` of a job's rows (0 for none): where a resumed job's rows continue. */
  readonly maxResultSeq: (jobId: string) => Effect.Effect<number, JobStoreError>
  /**
   * Rows of a job in the viewer's order (seq, then seed and attempt) from position `offset`, each with its count of
   * model calls; with `maxSeq`, only rows up to it (those of a running job known to be committed in order).
   */
  readonly viewerRows: (
    jobId: string,
    page: { readonly offset: number; readonly limit: number; readonly maxSeq: number | null },
  ) => Effect.Effect<ReadonlyArray<{ readonly json: string; readonly calls: number }>, JobStoreError>
  /** One rollout's row, with its trace when one was stored. */
  readonly rolloutOf: (
    jobId: string,
    key: RolloutCursor,
  ) => Effect.Effect<{ readonly json: string; readonly trace: string | null } | null, JobStoreError>
  /** Every stored row of a job as JSON text, in (seed, attempt) order. */
  readonly resultRows: (jobId: string) => Effect.Effect<ReadonlyArray<string>, JobStoreError>
  readonly resultPage: (
    jobId: string,
    after: RolloutCursor | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<StoredRow>, JobStoreError>
  readonly tracePage: (
    jobId: string,
    after: RolloutCursor | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<StoredRow>, JobStoreError>
  readonly resultStats: (
    jobIds: ReadonlyArray<string>,
  ) => Effect.Effect<ReadonlyMap<string, ResultStats>, JobStoreError>
  /** One scan of a job's rows into a tally, taken once when a job (re)starts; kept up to date in memory after. */
  readonly resultTally: (jobId: string) => Effect.Effect<ResultTally, JobStoreError>

  /** The inference interceptor's records of a job's model calls (idempotent by call id). */
  readonly appendModelCalls: (jobId: string, calls: ReadonlyArray<ModelCall>) => Effect.Effect<void, JobStoreError>
  readonly modelCallsOf: (jobId: string, key: RolloutCursor) => Effect.Effect<ReadonlyArray<ModelCall>, JobStoreError>
}

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
