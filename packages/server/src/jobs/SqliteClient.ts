import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, SqlError, Statement } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import { Context, Effect, Layer, Scope } from "effect"
import { openSqlite, type SqliteStatement } from "./internal/sqliteDriver.js"

/** Statements kept prepared; the job store uses a few dozen distinct ones. */
const PREPARED_STATEMENTS = 200

/**
 * An `SqlClient` on one SQLite file, as `@effect/sql-sqlite-node`'s (one connection, one query at a time, WAL)
 * but on `node:sqlite` where Node has it and better-sqlite3 only on Node 20 (see `openSqlite`). The file is
 * closed, and every statement with it, when the layer's scope closes.
 */
export const SqliteClient = {
  layer: ({ filename }: { readonly filename: string }): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> =>
    Layer.scoped(
      SqlClient.SqlClient,
      Effect.gen(function* () {
        const db = yield* Effect.acquireRelease(
          Effect.try({
            try: () => openSqlite(filename),
            catch: (cause) => new SqlError.SqlError({ cause, message: `Failed to open ${filename}` }),
          }),
          (db) => Effect.sync(() => db.close()),
        )
        yield* Effect.try({
          try: () => db.exec("PRAGMA journal_mode = WAL"),
          catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to enable WAL" }),
        })

        const prepared = new Map<string, SqliteStatement>()
        const prepare = (sql: string) =>
          Effect.try({
            try: () => {
              const cached = prepared.get(sql)
              if (cached !== undefined) return cached
              const statement = db.prepare(sql)
              if (prepared.size >= PREPARED_STATEMENTS) prepared.delete(prepared.keys().next().value as string)
              prepared.set(sql, statement)
              return statement
            },
            catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to prepare statement" }),
          })
        const execute = <A>(sql: string, use: (statement: SqliteStatement, bigInts: boolean) => A) =>
          Effect.flatMap(prepare(sql), (statement) =>
            Effect.withFiberRuntime<A, SqlError.SqlError>((fiber) => {
              try {
                return Effect.succeed(use(statement, Context.get(fiber.currentContext, SqlClient.SafeIntegers)))
              } catch (cause) {
                return Effect.fail(new SqlError.SqlError({ cause, message: "Failed to execute statement" }))
              }
            }),
          )
        const rows = (sql: string, params: ReadonlyArray<unknown>) =>
          execute(sql, (statement, bigInts) => statement.all(params, { bigInts }))

        const connection: Connection = {
          execute: (sql, params, transformRows) =>
            transformRows === undefined ? rows(sql, params) : Effect.map(rows(sql, params), transformRows),
          executeRaw: (sql, params) => execute(sql, (statement) => statement.run(params)),
          executeValues: (sql, params) => execute(sql, (statement) => statement.values(params)),
          executeUnprepared: (sql, params, transformRows) =>
            transformRows === undefined ? rows(sql, params) : Effect.map(rows(sql, params), transformRows),
          executeStream: () => Effect.dieMessage("executeStream not implemented"),
        }

        const semaphore = yield* Effect.makeSemaphore(1)
        const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
          Effect.as(
            Effect.zipRight(
              restore(semaphore.take(1)),
              Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1))),
            ),
            connection,
          ),
        )
        return yield* SqlClient.make({
          acquirer: semaphore.withPermits(1)(Effect.succeed(connection)),
          compiler: Statement.makeCompilerSqlite(),
          transactionAcquirer,
          spanAttributes: [["db.system.name", "sqlite"]],
        })
      }),
    ).pipe(Layer.provide(Reactivity.layer)),
}
