import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { jobStoreError } from "../JobStoreError.js"
import type { JobRowStoreService } from "../JobStoreService.js"
import { type JobRow, jobOf, num } from "./storeRows.js"

/** The jobs aggregate of the job store: the `jobs` rows and how a job moves between states. */
export const makeJobQueries = (sql: SqlClient.SqlClient): JobRowStoreService => {
  const JOB_COLUMNS = sql.literal(
    "id, owner_key_id, status, config_json, secrets_enc, planned, num_seeds, error, created_at, started_at, completed_at, summary_json, stats_json, request_json",
  )
  const ACTIVE = ["pending", "running"]
  return {
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
}
