import type { RunSummary } from "@proctor/core"
import type { ApiKeyRecord } from "../ApiKey.js"
import type { StoredJobConfig } from "../JobConfig.js"
import type { JobStatus } from "../JobStatus.js"
import type { JobRecord, StoredRow } from "../JobStoreService.js"
import type { ResultStats } from "../ResultTally.js"

/** The job database's rows as both dialects return them, and how they become records. */

/** PostgreSQL returns BIGINT and COUNT as strings; SQLite as numbers. */
export const num = (value: unknown): number => (typeof value === "number" ? value : Number(value))
export const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : num(value))

export interface KeyRow {
  readonly id: string
  readonly name: string
  readonly prefix: string
  readonly is_admin: number | string
  readonly created_at: string
  readonly revoked_at: string | null
}

export const keyOf = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  isAdmin: num(row.is_admin) === 1,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
})

export interface JobRow {
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

export const jobOf = (row: JobRow): JobRecord => ({
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

export interface PageRow {
  readonly seed: number | string
  readonly attempt: number | string
  readonly json: string
}

export const pageOf = (rows: ReadonlyArray<PageRow>): ReadonlyArray<StoredRow> =>
  rows.map((row) => ({ seed: num(row.seed), attempt: num(row.attempt), json: row.json }))
