import { SqlClient, type SqlError } from "@effect/sql"
import {
  type AgentTrajectoryEvent,
  decodeModelCalls,
  type EvalResult,
  encodeModelCalls,
  type ModelCall,
  type PendingRollout,
  type RolloutStep,
  rolloutKeyId,
} from "@proctor/core"
import { Context, Effect, Either, Layer } from "effect"
import { applyWrites, hasTrace, inStartOrder, type StoredTallyRow, tallyRowOfStored } from "./internal/resultWrites.js"
import { num, numOrNull } from "./internal/storeRows.js"
import { JobStoreError, jobStoreError } from "./JobStoreError.js"
import { emptyTally, finiteOrNull, type ResultStats, type ResultTally, type TallyRow } from "./ResultTally.js"

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

/** Result rows, their traces, and the model calls and steps of each rollout. */
export interface RolloutStoreService {
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
  /** Steps of agent rollouts as they happen; a step stored again (same rollout, try and index) is kept once. */
  readonly appendSteps: (jobId: string, steps: ReadonlyArray<RolloutStep>) => Effect.Effect<void, JobStoreError>
  /** A key's steps, every try's, in the order they happened. */
  readonly stepsOf: (jobId: string, key: RolloutCursor) => Effect.Effect<ReadonlyArray<RolloutStep>, JobStoreError>
  /** Command-line agents' own output as it arrives; an event stored again (same rollout, try and index) is kept once. */
  readonly appendAgentEvents: (
    jobId: string,
    events: ReadonlyArray<AgentTrajectoryEvent>,
  ) => Effect.Effect<void, JobStoreError>
  /** A task-app rollout answered in the async form, held until it settles (`PendingRollouts.hold`). */
  readonly holdAsyncRollout: (
    jobId: string,
    key: RolloutCursor,
    pending: PendingRollout,
  ) => Effect.Effect<void, JobStoreError>
  readonly releaseAsyncRollout: (jobId: string, key: RolloutCursor) => Effect.Effect<void, JobStoreError>
  /** The rollouts a job's task app still holds: every one, or only `key`'s. */
  readonly heldAsyncRollouts: (
    jobId: string,
    key: RolloutCursor | null,
  ) => Effect.Effect<ReadonlyArray<RolloutCursor & { readonly pending: PendingRollout }>, JobStoreError>
  /** A key's agent events, every try's, in the order they were written. */
  readonly agentEventsOf: (
    jobId: string,
    key: RolloutCursor,
  ) => Effect.Effect<ReadonlyArray<AgentTrajectoryEvent>, JobStoreError>
}

interface PageRow {
  readonly seed: number | string
  readonly attempt: number | string
  readonly json: string
}

const pageOf = (rows: ReadonlyArray<PageRow>): ReadonlyArray<StoredRow> =>
  rows.map((row) => ({ seed: num(row.seed), attempt: num(row.attempt), json: row.json }))

export const makeRolloutStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const page = (table: "results" | "traces", column: "row_json" | "trace_json") =>
    Effect.fn(`RolloutStore.${table}Page`)(
      function* (jobId: string, after: RolloutCursor | null, limit: number) {
        const rows = yield* after === null
          ? sql<PageRow>`SELECT seed, attempt, ${sql(column)} AS json FROM ${sql(table)}
            WHERE job_id = ${jobId} ORDER BY seed, attempt LIMIT ${limit}`
          : sql<PageRow>`SELECT seed, attempt, ${sql(column)} AS json FROM ${sql(table)}
            WHERE job_id = ${jobId} AND (seed, attempt) > (${after.seed}, ${after.attempt})
            ORDER BY seed, attempt LIMIT ${limit}`
        return pageOf(rows)
      },
      Effect.mapError(jobStoreError(`cannot read ${table}`)),
    )

  const rowValues = (jobId: string, { result, seq }: ResultWrite) =>
    sql`(${jobId}, ${result.seed}, ${result.attempt}, ${result.status}, ${finiteOrNull(result.score)},
      ${finiteOrNull(result.tokens)}, ${finiteOrNull(result.cost_usd)},
      ${JSON.stringify(hasTrace(result) ? { ...result, trace: undefined } : result)}, ${seq ?? 0})`

  // Read inside the transaction, so the rows replaced are the ones these writes overwrite.
  const storedRows = (jobId: string, writes: ReadonlyArray<ResultWrite>) =>
    Effect.map(
      sql<StoredTallyRow>`SELECT seed, attempt, status, score, tokens, cost_usd FROM results
        WHERE job_id = ${jobId} AND ${sql.in(
          "seed",
          writes.map((write) => write.result.seed),
        )}`,
      (rows) =>
        new Map(
          rows.map((row) => [rolloutKeyId({ seed: num(row.seed), attempt: num(row.attempt) }), tallyRowOfStored(row)]),
        ),
    )

  const writeRows = (jobId: string, writes: ReadonlyArray<ResultWrite>, hadRow: (key: string) => boolean) => {
    let write: Effect.Effect<unknown, SqlError.SqlError> = sql`INSERT INTO results
        (job_id, seed, attempt, status, score, tokens, cost_usd, row_json, seq)
      VALUES ${sql.csv(writes.map((write) => rowValues(jobId, write)))}
      ON CONFLICT (job_id, seed, attempt) DO UPDATE SET status = excluded.status, score = excluded.score,
        tokens = excluded.tokens, cost_usd = excluded.cost_usd, row_json = excluded.row_json`
    const traced = writes.filter((write) => hasTrace(write.result))
    // The trace goes to its own table (like the CLI's traces/ folder) so result pages stay small.
    if (traced.length > 0) {
      write = Effect.zipRight(
        write,
        sql`INSERT INTO traces (job_id, seed, attempt, trace_json)
          VALUES ${sql.csv(
            traced.map(
              ({ result }) => sql`(${jobId}, ${result.seed}, ${result.attempt}, ${JSON.stringify(result.trace)})`,
            ),
          )}
          ON CONFLICT (job_id, seed, attempt) DO UPDATE SET trace_json = excluded.trace_json`,
      )
    }
    // A key's last write wins: a trace left by an earlier write of the key would belong to another attempt.
    for (const { result } of writes) {
      if (hasTrace(result) || !hadRow(rolloutKeyId(result))) continue
      write = Effect.zipRight(
        write,
        sql`DELETE FROM traces WHERE job_id = ${jobId} AND seed = ${result.seed} AND attempt = ${result.attempt}`,
      )
    }
    return write
  }

  const service: RolloutStoreService = {
    upsertResults: (jobId, writes) => {
      if (writes.length === 0) return Effect.succeed([])
      const keys = writes.map(({ result }) => rolloutKeyId(result))
      return sql
        .withTransaction(
          Effect.flatMap(storedRows(jobId, writes), (stored) => {
            const hadRow = new Set(stored.keys())
            const { replaced, unique } = applyWrites(writes, keys, stored)
            return Effect.as(
              writeRows(jobId, unique, (key) => hadRow.has(key)),
              replaced,
            )
          }),
        )
        .pipe(Effect.mapError(jobStoreError("cannot store the results")))
    },
    resultRows: (jobId) =>
      sql<{ row_json: string }>`SELECT row_json FROM results WHERE job_id = ${jobId} ORDER BY seed, attempt`.pipe(
        Effect.map((rows) => rows.map((row) => row.row_json)),
        Effect.mapError(jobStoreError("cannot read results")),
      ),
    maxResultSeq: (jobId) =>
      sql<{ seq: number | string | null }>`SELECT MAX(seq) AS seq FROM results WHERE job_id = ${jobId}`.pipe(
        Effect.map((rows) => num(rows[0]?.seq ?? 0)),
        Effect.mapError(jobStoreError("cannot read results")),
      ),
    viewerRows: (jobId, { offset, limit, maxSeq }) =>
      sql<{ json: string; calls: number | string }>`SELECT r.row_json AS json,
          (SELECT COUNT(*) FROM model_calls m
            WHERE m.job_id = r.job_id AND m.seed = r.seed AND m.attempt = r.attempt) AS calls
        FROM results r WHERE r.job_id = ${jobId}
          ${maxSeq === null ? sql.literal("") : sql`AND r.seq <= ${maxSeq}`}
        ORDER BY r.seq, r.seed, r.attempt LIMIT ${limit} OFFSET ${offset}`.pipe(
        Effect.map((rows) => rows.map((row) => ({ json: row.json, calls: num(row.calls) }))),
        Effect.mapError(jobStoreError("cannot read results")),
      ),
    rolloutOf: (jobId, key) =>
      sql<{ json: string; trace: string | null }>`SELECT r.row_json AS json, t.trace_json AS trace
        FROM results r LEFT JOIN traces t
          ON t.job_id = r.job_id AND t.seed = r.seed AND t.attempt = r.attempt
        WHERE r.job_id = ${jobId} AND r.seed = ${key.seed} AND r.attempt = ${key.attempt}`.pipe(
        Effect.map((rows) => rows[0] ?? null),
        Effect.mapError(jobStoreError("cannot read the rollout")),
      ),
    resultPage: page("results", "row_json"),
    tracePage: page("traces", "trace_json"),
    resultStats: (jobIds) => {
      if (jobIds.length === 0) return Effect.succeed(new Map())
      return sql<{
        job_id: string
        completed: number | string
        ok: number | string | null
        mean_score: number | string | null
        total_tokens: number | string | null
        total_cost_usd: number | string | null
      }>`SELECT job_id, COUNT(*) AS completed,
          SUM(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) AS ok,
          AVG(CASE WHEN status = 'ok' THEN score END) AS mean_score,
          SUM(tokens) AS total_tokens, SUM(cost_usd) AS total_cost_usd
        FROM results WHERE ${sql.in("job_id", jobIds)} GROUP BY job_id`.pipe(
        Effect.map(
          (rows) =>
            new Map(
              rows.map((row) => [
                row.job_id,
                {
                  completed: num(row.completed),
                  ok: num(row.ok ?? 0),
                  meanScore: numOrNull(row.mean_score),
                  totalTokens: numOrNull(row.total_tokens),
                  totalCostUsd: numOrNull(row.total_cost_usd),
                },
              ]),
            ),
        ),
        Effect.mapError(jobStoreError("cannot aggregate results")),
      )
    },

    resultTally: (jobId) =>
      sql<{
        completed: number | string
        ok: number | string | null
        score_sum: number | string | null
        scored: number | string
        tokens_sum: number | string | null
        tokens_count: number | string
        cost_sum: number | string | null
        cost_count: number | string
      }>`SELECT COUNT(*) AS completed,
          SUM(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) AS ok,
          SUM(CASE WHEN status = 'ok' THEN score END) AS score_sum,
          COUNT(CASE WHEN status = 'ok' THEN score END) AS scored,
          SUM(tokens) AS tokens_sum, COUNT(tokens) AS tokens_count,
          SUM(cost_usd) AS cost_sum, COUNT(cost_usd) AS cost_count
        FROM results WHERE job_id = ${jobId}`.pipe(
        Effect.map((rows): ResultTally => {
          const row = rows[0]
          if (row === undefined) return emptyTally()
          return {
            completed: num(row.completed),
            ok: num(row.ok ?? 0),
            scoreSum: num(row.score_sum ?? 0),
            scored: num(row.scored),
            tokensSum: num(row.tokens_sum ?? 0),
            tokensCount: num(row.tokens_count),
            costSum: num(row.cost_sum ?? 0),
            costCount: num(row.cost_count),
          }
        }),
        Effect.mapError(jobStoreError("cannot aggregate results")),
      ),

    // Stored as core's codec stores them (each call relative to the previous one of its rollout) and never
    // rewritten: a call stored again keeps its first row, so every call relative to it stays readable.
    appendModelCalls: (jobId, calls) =>
      calls.length === 0
        ? Effect.void
        : sql
            .withTransaction(
              Effect.forEach(
                encodeModelCalls(calls),
                (call) =>
                  sql`INSERT INTO model_calls (job_id, call_id, seed, attempt, call_json)
                    VALUES (${jobId}, ${call.call_id}, ${call.seed}, ${call.attempt}, ${JSON.stringify(call)})
                    ON CONFLICT (job_id, call_id) DO NOTHING`,
                { discard: true },
              ),
            )
            .pipe(Effect.mapError(jobStoreError("cannot store model calls"))),
    modelCallsOf: (jobId, key) =>
      sql<{ call_json: string }>`SELECT call_json FROM model_calls
        WHERE job_id = ${jobId} AND seed = ${key.seed} AND attempt = ${key.attempt} ORDER BY call_id`.pipe(
        Effect.mapError(jobStoreError("cannot read model calls")),
        Effect.flatMap((rows) => {
          const where = `job ${jobId} seed ${key.seed} attempt ${key.attempt}`
          const decoded = Either.flatMap(
            Either.try({
              try: () => rows.map((row): unknown => JSON.parse(row.call_json)),
              catch: () => "a stored call is not JSON",
            }),
            decodeModelCalls,
          )
          return Either.isLeft(decoded)
            ? Effect.fail(new JobStoreError({ reason: "Corrupt", message: `model calls of ${where}: ${decoded.left}` }))
            : Effect.succeed(inStartOrder(decoded.right))
        }),
      ),
    appendSteps: (jobId, steps) =>
      steps.length === 0
        ? Effect.void
        : sql
            .withTransaction(
              Effect.forEach(
                steps,
                (step) =>
                  sql`INSERT INTO rollout_steps (job_id, rollout_id, retry, step_index, seed, attempt, step_json)
                    VALUES (${jobId}, ${step.rollout_id}, ${step.retry}, ${step.index}, ${step.seed}, ${step.attempt},
                      ${JSON.stringify(step)})
                    ON CONFLICT (job_id, rollout_id, retry, step_index) DO NOTHING`,
                { discard: true },
              ),
            )
            .pipe(Effect.mapError(jobStoreError("cannot store rollout steps"))),
    stepsOf: (jobId, key) =>
      sql<{ step_json: string }>`SELECT step_json FROM rollout_steps
        WHERE job_id = ${jobId} AND seed = ${key.seed} AND attempt = ${key.attempt}`.pipe(
        Effect.mapError(jobStoreError("cannot read rollout steps")),
        Effect.flatMap((rows) =>
          Effect.try({
            try: () =>
              rows
                .map((row) => JSON.parse(row.step_json) as RolloutStep)
                .sort((a, b) => a.at.localeCompare(b.at) || a.retry - b.retry || a.index - b.index),
            catch: () =>
              new JobStoreError({
                reason: "Corrupt",
                message: `steps of job ${jobId} seed ${key.seed} attempt ${key.attempt}: a stored step is not JSON`,
              }),
          }),
        ),
      ),
    holdAsyncRollout: (jobId, key, pending) =>
      sql`INSERT INTO async_rollouts (job_id, seed, attempt, app_rollout_id, status_path, accepted_at_ms)
        VALUES (${jobId}, ${key.seed}, ${key.attempt}, ${pending.appRolloutId}, ${pending.statusPath},
          ${pending.acceptedAtMs})
        ON CONFLICT (job_id, seed, attempt) DO UPDATE SET app_rollout_id = excluded.app_rollout_id,
          status_path = excluded.status_path, accepted_at_ms = excluded.accepted_at_ms`.pipe(
        Effect.asVoid,
        Effect.mapError(jobStoreError("cannot hold the async rollout")),
      ),
    releaseAsyncRollout: (jobId, key) =>
      sql`DELETE FROM async_rollouts WHERE job_id = ${jobId} AND seed = ${key.seed} AND attempt = ${key.attempt}`.pipe(
        Effect.asVoid,
        Effect.mapError(jobStoreError("cannot release the async rollout")),
      ),
    heldAsyncRollouts: (jobId, key) =>
      sql<{
        seed: number | string
        attempt: number | string
        app_rollout_id: string
        status_path: string
        accepted_at_ms: number | string
      }>`SELECT seed, attempt, app_rollout_id, status_path, accepted_at_ms FROM async_rollouts
        WHERE job_id = ${jobId}
          ${key === null ? sql.literal("") : sql`AND seed = ${key.seed} AND attempt = ${key.attempt}`}`.pipe(
        Effect.map((rows) =>
          rows.map((row) => ({
            seed: num(row.seed),
            attempt: num(row.attempt),
            pending: {
              appRolloutId: row.app_rollout_id,
              statusPath: row.status_path,
              acceptedAtMs: num(row.accepted_at_ms),
            },
          })),
        ),
        Effect.mapError(jobStoreError("cannot read async rollouts")),
      ),
    appendAgentEvents: (jobId, events) =>
      events.length === 0
        ? Effect.void
        : sql`INSERT INTO agent_events (job_id, rollout_id, retry, event_index, seed, attempt, event_json)
            VALUES ${sql.csv(
              events.map(
                (event) =>
                  sql`(${jobId}, ${event.rollout_id}, ${event.retry}, ${event.index}, ${event.seed}, ${event.attempt},
                    ${JSON.stringify(event)})`,
              ),
            )}
            ON CONFLICT (job_id, rollout_id, retry, event_index) DO NOTHING`.pipe(
            Effect.asVoid,
            Effect.mapError(jobStoreError("cannot store agent events")),
          ),
    agentEventsOf: (jobId, key) =>
      sql<{ event_json: string }>`SELECT event_json FROM agent_events
        WHERE job_id = ${jobId} AND seed = ${key.seed} AND attempt = ${key.attempt}`.pipe(
        Effect.mapError(jobStoreError("cannot read agent events")),
        Effect.flatMap((rows) =>
          Effect.try({
            try: () =>
              rows
                .map((row) => JSON.parse(row.event_json) as AgentTrajectoryEvent)
                .sort((a, b) => a.at.localeCompare(b.at) || a.retry - b.retry || a.index - b.index),
            catch: () =>
              new JobStoreError({
                reason: "Corrupt",
                message: `agent events of job ${jobId} seed ${key.seed} attempt ${key.attempt}: a stored event is not JSON`,
              }),
          }),
        ),
      ),
  }
  return service
})

/** The rollouts of the job database's jobs (see `JobDatabase`, which opens it). */
export class RolloutStore extends Context.Tag("@proctor/server/RolloutStore")<RolloutStore, RolloutStoreService>() {
  static readonly make = makeRolloutStore
  static readonly layer: Layer.Layer<RolloutStore, never, SqlClient.SqlClient> = Layer.effect(
    RolloutStore,
    makeRolloutStore,
  )
}
