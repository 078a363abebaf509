import { SqlClient } from "@effect/sql"
import type { EvalResult } from "@proctor/core"
import { Context, Effect, Layer } from "effect"
import { type JobStoreError, jobStoreError } from "../jobs/JobStoreError.js"
import { finiteOrNull } from "../jobs/ResultTally.js"
import { type RolloutKeyText, rolloutKeyText } from "./RolloutKey.js"

export interface ClusterStoreService {
  /**
   * Takes up to `limit` pending or running jobs whose lease is free or lapsed (oldest first), marks them running
   * and leases them to `owner` for `ttlMs`. Returns their ids.
   */
  readonly acquireLeases: (
    owner: string,
    ttlMs: number,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<string>, JobStoreError>
  /** Extends `owner`'s leases on `ids`; returns the ids still held (a job missing was ended or taken over). */
  readonly renewLeases: (
    owner: string,
    ids: ReadonlyArray<string>,
    ttlMs: number,
  ) => Effect.Effect<ReadonlySet<string>, JobStoreError>
  /**
   * Gives `owner`'s leases (or its lease on `jobId`) up at once, so another replica takes the jobs over without
   * waiting for the lease to lapse.
   */
  readonly releaseLeases: (owner: string, jobId?: string) => Effect.Effect<void, JobStoreError>
  /**
   * Commits workers' results, each unless its key already has one: the first committed answer wins and a late one
   * changes nothing. Returns, in order, whether each was stored by this call. One statement for the whole batch.
   */
  readonly commitResults: (
    results: ReadonlyArray<{ readonly jobId: string; readonly result: EvalResult }>,
  ) => Effect.Effect<ReadonlyArray<boolean>, JobStoreError>
  /** The keys of a job that have a committed result. */
  readonly committedKeys: (jobId: string) => Effect.Effect<Set<RolloutKeyText>, JobStoreError>
  readonly committedCount: (jobId: string) => Effect.Effect<number, JobStoreError>
}

const ACTIVE = ["pending", "running"]

/** The jobs' lease and the workers' commits, on PostgreSQL (the only database a cluster runs on). */
export const makeClusterStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // PostgreSQL's clock, so replicas whose clocks disagree still agree on when a lease lapses.
  const nowMs = sql.literal("(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT")

  const service: ClusterStoreService = {
    acquireLeases: (owner, ttlMs, limit) =>
      limit <= 0
        ? Effect.succeed([])
        : sql<{ id: string }>`UPDATE jobs SET lease_owner = ${owner}, lease_until = ${nowMs} + ${ttlMs},
            status = 'running', started_at = COALESCE(started_at, ${new Date().toISOString()})
          WHERE id IN (SELECT id FROM jobs WHERE ${sql.in("status", ACTIVE)}
            AND (lease_owner IS NULL OR lease_until IS NULL OR lease_until < ${nowMs})
            ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING id`.pipe(
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.mapError(jobStoreError("cannot lease jobs")),
          ),
    renewLeases: (owner, ids, ttlMs) =>
      ids.length === 0
        ? Effect.succeed(new Set())
        : sql<{ id: string }>`UPDATE jobs SET lease_until = ${nowMs} + ${ttlMs}
          WHERE lease_owner = ${owner} AND ${sql.in("id", ids)} AND ${sql.in("status", ACTIVE)} RETURNING id`.pipe(
            Effect.map((rows) => new Set(rows.map((row) => row.id))),
            Effect.mapError(jobStoreError("cannot renew job leases")),
          ),
    releaseLeases: (owner, jobId) =>
      sql`UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ${owner}
        ${jobId === undefined ? sql.literal("") : sql`AND id = ${jobId}`}`.pipe(
        Effect.asVoid,
        Effect.mapError(jobStoreError("cannot release job leases")),
      ),
    // One statement per batch (a trace is inserted only with a row that was): a round trip for many rollouts.
    commitResults: (batch) => {
      if (batch.length === 0) return Effect.succeed([])
      const rows = batch.map(({ jobId, result }) => {
        const { trace, ...row } = result
        return sql`(${jobId}, ${result.seed}, ${result.attempt}, ${result.status}, ${finiteOrNull(result.score)},
          ${finiteOrNull(result.tokens)}, ${finiteOrNull(result.cost_usd)}, ${JSON.stringify(row)},
          ${trace === undefined || trace === null ? null : JSON.stringify(trace)})`
      })
      return sql<{ job_id: string; seed: string | number; attempt: string | number }>`WITH incoming
          (job_id, seed, attempt, status, score, tokens, cost_usd, row_json, trace_json) AS (VALUES ${sql.csv(rows)}),
        inserted AS (
          INSERT INTO results (job_id, seed, attempt, status, score, tokens, cost_usd, row_json, seq)
          SELECT job_id, seed::BIGINT, attempt::INTEGER, status, score::DOUBLE PRECISION, tokens::DOUBLE PRECISION,
            cost_usd::DOUBLE PRECISION, row_json, nextval('result_seq') FROM incoming
          ON CONFLICT (job_id, seed, attempt) DO NOTHING RETURNING job_id, seed, attempt
        ),
        traced AS (
          INSERT INTO traces (job_id, seed, attempt, trace_json)
          SELECT i.job_id, i.seed, i.attempt, c.trace_json::TEXT FROM inserted i
          JOIN incoming c ON c.job_id = i.job_id AND c.seed::BIGINT = i.seed AND c.attempt::INTEGER = i.attempt
          WHERE c.trace_json IS NOT NULL
          ON CONFLICT (job_id, seed, attempt) DO NOTHING
        )
        SELECT job_id, seed, attempt FROM inserted`.pipe(
        Effect.map((stored) => {
          const keys = new Set(stored.map((row) => `${row.job_id}:${row.seed}:${row.attempt}`))
          return batch.map(({ jobId, result }) => keys.has(`${jobId}:${result.seed}:${result.attempt}`))
        }),
        Effect.mapError(jobStoreError("cannot store results")),
      )
    },
    committedKeys: (jobId) =>
      sql<{ seed: string | number; attempt: string | number }>`SELECT seed, attempt FROM results
        WHERE job_id = ${jobId}`.pipe(
        Effect.map((rows) => new Set(rows.map((row) => rolloutKeyText(Number(row.seed), Number(row.attempt))))),
        Effect.mapError(jobStoreError("cannot read results")),
      ),
    committedCount: (jobId) =>
      sql<{ n: string | number }>`SELECT COUNT(*) AS n FROM results WHERE job_id = ${jobId}`.pipe(
        Effect.map((rows) => Number(rows[0]?.n ?? 0)),
        Effect.mapError(jobStoreError("cannot count results")),
      ),
  }
  return service
})

export class ClusterStore extends Context.Tag("@proctor/server/ClusterStore")<ClusterStore, ClusterStoreService>() {
  static readonly layer: Layer.Layer<ClusterStore, never, SqlClient.SqlClient> = Layer.effect(
    ClusterStore,
    makeClusterStore,
  )
}
