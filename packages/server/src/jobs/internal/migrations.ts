import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * One DDL for SQLite and PostgreSQL: TEXT, INTEGER, BIGINT and DOUBLE PRECISION mean the same in both (SQLite
 * maps them to its affinities). JSON is kept as TEXT so rows stream back to clients without a re-parse.
 * Numbers the API aggregates (score, tokens, cost) are columns as well, so progress is one indexed query.
 */
const initial = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  )`
  yield* sql`CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    owner_key_id TEXT NOT NULL,
    status TEXT NOT NULL,
    config_json TEXT NOT NULL,
    secrets_enc TEXT,
    planned BIGINT NOT NULL,
    num_seeds BIGINT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    completed_at TEXT,
    summary_json TEXT
  )`
  yield* sql`CREATE INDEX IF NOT EXISTS jobs_owner_created ON jobs (owner_key_id, created_at, id)`
  yield* sql`CREATE INDEX IF NOT EXISTS jobs_created ON jobs (created_at, id)`
  yield* sql`CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status)`
  yield* sql`CREATE TABLE IF NOT EXISTS results (
    job_id TEXT NOT NULL,
    seed BIGINT NOT NULL,
    attempt INTEGER NOT NULL,
    status TEXT NOT NULL,
    score DOUBLE PRECISION,
    tokens DOUBLE PRECISION,
    cost_usd DOUBLE PRECISION,
    row_json TEXT NOT NULL,
    PRIMARY KEY (job_id, seed, attempt)
  )`
  yield* sql`CREATE TABLE IF NOT EXISTS traces (
    job_id TEXT NOT NULL,
    seed BIGINT NOT NULL,
    attempt INTEGER NOT NULL,
    trace_json TEXT NOT NULL,
    PRIMARY KEY (job_id, seed, attempt)
  )`
  yield* sql`CREATE TABLE IF NOT EXISTS model_calls (
    job_id TEXT NOT NULL,
    call_id TEXT NOT NULL,
    seed BIGINT,
    attempt INTEGER,
    call_json TEXT NOT NULL,
    PRIMARY KEY (job_id, call_id)
  )`
})

/**
 * A finished job's final aggregate, written when it ends, so polling a finished job never scans its result rows
 * (a 100,000-row aggregate costs ~80 ms per request). NULL for jobs that ended before this column existed.
 */
const jobStats = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE jobs ADD COLUMN stats_json TEXT`)

/** The job request as the client sent it (secrets left out), echoed as the status `config`. */
const jobRequest = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE jobs ADD COLUMN request_json TEXT`)

/**
 * Settings of the server as a whole, kept with its data: the fingerprint of the secret key that seals task-app
 * keys, so a server started with another key refuses to start instead of failing jobs one by one.
 */
const serverSettings = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`CREATE TABLE IF NOT EXISTS server_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
)

/**
 * The viewer's order of a job's rows: `seq` counts the rows of a job as they are stored (0 for rows stored before
 * it existed, which come first), so a page that follows a running job only ever sees rows appended after the last
 * one it read. Model calls get an index by rollout, which a rollout's view and the rows' call counts read by.
 */
const viewerRows = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE results ADD COLUMN seq BIGINT NOT NULL DEFAULT 0`
  yield* sql`CREATE INDEX IF NOT EXISTS results_job_seq ON results (job_id, seq, seed, attempt)`
  yield* sql`CREATE INDEX IF NOT EXISTS model_calls_rollout ON model_calls (job_id, seed, attempt)`
})

/**
 * Scale-out (`serve --redis-url`): the API replica dispatching a running job holds a lease on it until
 * `lease_until` (epoch ms on PostgreSQL's clock); another replica takes the job over once it lapses. Rows workers
 * commit are numbered by one sequence, since no single process numbers them (PostgreSQL only; SQLite never runs
 * workers).
 */
const clusterLeases = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN lease_owner TEXT`
  yield* sql`ALTER TABLE jobs ADD COLUMN lease_until BIGINT`
  yield* sql.onDialectOrElse({
    pg: () => sql`CREATE SEQUENCE IF NOT EXISTS result_seq`,
    orElse: () => Effect.void,
  })
})

/**
 * Steps of multi-step (agent) rollouts, as the CLI's `steps.jsonl` holds them: one row a step, keyed by its rollout,
 * try and index so a step stored twice (a worker's retry) is kept once.
 */
const rolloutSteps = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS rollout_steps (
    job_id TEXT NOT NULL,
    rollout_id TEXT NOT NULL,
    retry INTEGER NOT NULL,
    step_index INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    attempt INTEGER NOT NULL,
    step_json TEXT NOT NULL,
    PRIMARY KEY (job_id, rollout_id, retry, step_index)
  )`
  yield* sql`CREATE INDEX IF NOT EXISTS rollout_steps_rollout ON rollout_steps (job_id, seed, attempt)`
})

/**
 * Command-line agents' own output (the CLI's `agent_trajectory.jsonl`): one row an event, keyed like steps so an
 * event stored twice (a worker's retry of a batch) is kept once.
 */
const agentEvents = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS agent_events (
    job_id TEXT NOT NULL,
    rollout_id TEXT NOT NULL,
    retry INTEGER NOT NULL,
    event_index INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    attempt INTEGER NOT NULL,
    event_json TEXT NOT NULL,
    PRIMARY KEY (job_id, rollout_id, retry, event_index)
  )`
  yield* sql`CREATE INDEX IF NOT EXISTS agent_events_rollout ON agent_events (job_id, seed, attempt)`
})

/**
 * Task-app rollouts answered in the async form and not settled yet (the CLI's `async_rollouts.jsonl`): held before
 * the first poll, so whoever runs the key next (a restarted server, another worker) polls it again.
 */
const asyncRollouts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS async_rollouts (
    job_id TEXT NOT NULL,
    seed BIGINT NOT NULL,
    attempt INTEGER NOT NULL,
    app_rollout_id TEXT NOT NULL,
    status_path TEXT NOT NULL,
    accepted_at_ms BIGINT NOT NULL,
    PRIMARY KEY (job_id, seed, attempt)
  )`
})

export const migrations = {
  "0001_initial": initial,
  "0002_job_stats": jobStats,
  "0003_job_request": jobRequest,
  "0004_server_settings": serverSettings,
  "0005_viewer_rows": viewerRows,
  "0006_cluster_leases": clusterLeases,
  "0007_rollout_steps": rolloutSteps,
  "0008_agent_events": agentEvents,
  "0009_async_rollouts": asyncRollouts,
}

export const MIGRATIONS_TABLE = "proctor_migrations"
