import { SqlClient } from "@effect/sql"
import type { RunSummary } from "@proctor/core"
import { Context, Effect, Layer } from "effect"
import { num } from "./internal/storeRows.js"
import type { StoredJobConfig } from "./JobConfig.js"
import type { JobStatus } from "./JobStatus.js"
import { type JobStoreError, jobStoreError } from "./JobStoreError.js"
import type { ResultStats } from "./ResultTally.js"

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

export interface JobListFilter {
  /** null lists every owner's jobs (an admin key). */
  readonly ownerKeyId: string | null
  readonly statuses: ReadonlyArray<JobStatus> | null
  readonly limit: number
  /** Keyset position, newest first: the (created_at, id) of the last job of the previous page. */
  readonly before: { readonly createdAt: string; readonly id: string } | null
}

/**
 * The `jobs` rows and how a job moves between states, with what the database says of itself: whether it answers,
 * and the secret key the jobs' task-app keys are sealed with.
 */
export interface JobStoreService {
  readonly ping: Effect.Effect<void, JobStoreError>
  /** The fingerprint of the secret key this database's task-app keys are sealed with; null before the first. */
  readonly secretKeyFingerprint: Effect.Effect<string | null, JobStoreError>
  /** Records `fingerprint` unless one is recorded already; returns the one recorded (first writer wins). */
  readonly claimSecretKeyFingerprint: (fingerprint: string) => Effect.Effect<string, JobStoreError>

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
}

interface JobRow {
  readonly id: string
  readonly owner_key_id: string
  readonly status: string
  readonly config_json: string
  readonly secrets_enc: string | null
  readonly planned: number | string
  readonly num_seeds: number | string
  readonly error: string | null
  readonly created_at: string
  readonly started_at: string | null
  readonly completed_at: string | null
  readonly summary_json: string | null
  readonly stats_json: string | null
  readonly request_json: string | null
}

const jobOf = (row: JobRow): JobRecord => ({
  id: row.id,
  ownerKeyId: row.owner_key_id,
  status: row.status as JobStatus,
  config: JSON.parse(row.config_json) as StoredJobConfig,
  requested: row.request_json === null ? null : (JSON.parse(row.request_json) as Record<string, unknown>),
  secretsSealed: row.secrets_enc,
  planned: num(row.planned),
  numSeeds: num(row.num_seeds),
  error: row.error,
  createdAt: row.created_at,
  startedAt: row.started_at,
  completedAt: row.completed_at,
  summary: row.summary_json === null ? null : (JSON.parse(row.summary_json) as RunSummary),
  stats: row.stats_json === null ? null : (JSON.parse(row.stats_json) as ResultStats),
})

const FINGERPRINT_SETTING = "secret_key_fingerprint"

export const makeJobStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const secretKeyFingerprint = sql<{ readonly value: string }>`SELECT value FROM server_settings
    WHERE name = ${FINGERPRINT_SETTING}`.pipe(
    Effect.map((rows) => rows[0]?.value ?? null),
    Effect.mapError(jobStoreError("cannot read the secret key's fingerprint")),
  )
  const JOB_COLUMNS = sql.literal(
    "id, owner_key_id, status, config_json, secrets_enc, planned, num_seeds, error, created_at, started_at, completed_at, summary_json, stats_json, request_json",
  )
  const ACTIVE = ["pending", "running"]
  const service: JobStoreService = {
    ping: sql`SELECT 1 AS one`.pipe(Effect.asVoid, Effect.mapError(jobStoreError("database unreachable"))),
    secretKeyFingerprint,
    claimSecretKeyFingerprint: (fingerprint) =>
      sql`INSERT INTO server_settings (name, value) VALUES (${FINGERPRINT_SETTING}, ${fingerprint})
        ON CONFLICT (name) DO NOTHING`.pipe(
        Effect.mapError(jobStoreError("cannot record the secret key's fingerprint")),
        Effect.zipRight(secretKeyFingerprint),
        Effect.map((stored) => stored ?? fingerprint),
      ),
    insertJob: (job) =>
      sql`INSERT INTO jobs (id, owner_key_id, status, config_json, secrets_enc, planned, num_seeds, created_at,
          request_json)
        VALUES (${job.id}, ${job.ownerKeyId}, 'pending', ${JSON.stringify(job.config)}, ${job.secretsSealed},
          ${job.planned}, ${job.numSeeds}, ${job.createdAt},
          ${job.requested === undefined || job.requested === null ? null : JSON.stringify(job.requested)})`.pipe(
        Effect.asVoid,
        Effect.mapError(jobStoreError("cannot store the job")),
      ),
    getJob: (id) =>
      sql<JobRow>`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ${id}`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? null : jobOf(rows[0]))),
        Effect.mapError(jobStoreError("cannot read the job")),
      ),
    listJobs: (query) => {
      const clauses = [
        ...(query.ownerKeyId === null ? [] : [sql`owner_key_id = ${query.ownerKeyId}`]),
        ...(query.statuses === null ? [] : [sql.in("status", query.statuses)]),
        ...(query.before === null
          ? []
          : [
              sql`(created_at < ${query.before.createdAt} OR (created_at = ${query.before.createdAt} AND id < ${query.before.id}))`,
            ]),
      ]
      const where = clauses.length === 0 ? sql.literal("") : sql`WHERE ${sql.and(clauses)}`
      return sql<JobRow>`SELECT ${JOB_COLUMNS} FROM jobs ${where}
        ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(
        Effect.map((rows) => rows.map(jobOf)),
        Effect.mapError(jobStoreError("cannot list jobs")),
      )
    },
    countActiveJobs: (ownerKeyId) =>
      sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM jobs
        WHERE owner_key_id = ${ownerKeyId} AND ${sql.in("status", ACTIVE)}`.pipe(
        Effect.map((rows) => num(rows[0]?.n ?? 0)),
        Effect.mapError(jobStoreError("cannot count jobs")),
      ),
    countJobsByStatus: sql<{ status: string; n: number | string }>`SELECT status, COUNT(*) AS n FROM jobs
      GROUP BY status`.pipe(
      Effect.map((rows) => new Map(rows.map((row) => [row.status, num(row.n)]))),
      Effect.mapError(jobStoreError("cannot count jobs")),
    ),
    resumableJobs: sql<JobRow>`SELECT ${JOB_COLUMNS} FROM jobs WHERE ${sql.in("status", ACTIVE)}
      ORDER BY created_at, id`.pipe(
      Effect.map((rows) => rows.map(jobOf)),
      Effect.mapError(jobStoreError("cannot list resumable jobs")),
    ),
    markRunning: (id, startedAt) =>
      sql<{ id: string }>`UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, ${startedAt})
        WHERE id = ${id} AND ${sql.in("status", ACTIVE)} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(jobStoreError("cannot update the job")),
      ),
    cancelPending: (id, at) =>
      sql<{ id: string }>`UPDATE jobs SET status = 'cancelled', completed_at = ${at}, secrets_enc = NULL
        WHERE id = ${id} AND status = 'pending' RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(jobStoreError("cannot cancel the job")),
      ),
    finishJob: (id, outcome) =>
      sql<{ id: string }>`UPDATE jobs SET status = ${outcome.status}, error = ${outcome.error},
        completed_at = ${outcome.completedAt}, secrets_enc = NULL,
        stats_json = ${outcome.stats === undefined ? null : JSON.stringify(outcome.stats)}
        WHERE id = ${id} AND ${sql.in("status", ACTIVE)} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(jobStoreError("cannot finish the job")),
      ),
    saveSummary: (id, summary) =>
      sql`UPDATE jobs SET summary_json = ${JSON.stringify(summary)} WHERE id = ${id}`.pipe(
        Effect.asVoid,
        Effect.mapError(jobStoreError("cannot save the job summary")),
      ),
  }
  return service
})

/** The jobs of the job database (see `JobDatabase`, which opens it). */
export class JobStore extends Context.Tag("@proctor/server/JobStore")<JobStore, JobStoreService>() {
  static readonly make = makeJobStore
  static readonly layer: Layer.Layer<JobStore, never, SqlClient.SqlClient> = Layer.effect(JobStore, makeJobStore)
}
