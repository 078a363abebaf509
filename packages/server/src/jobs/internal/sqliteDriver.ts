import { createRequire } from "node:module"

/** One prepared statement, whichever driver made it; parameters are positional (`?`). */
export interface SqliteStatement {
  /** The rows it returns; none for a statement that returns none. */
  readonly all: (params: ReadonlyArray<unknown>, options?: { readonly bigInts?: boolean }) => ReadonlyArray<object>
  /** The same rows as arrays, in column order. */
  readonly values: (params: ReadonlyArray<unknown>) => ReadonlyArray<ReadonlyArray<unknown>>
  /** Runs it for its effect: `{ changes, lastInsertRowid }`. */
  readonly run: (params: ReadonlyArray<unknown>) => unknown
}

export interface SqliteDatabase {
  readonly driver: "node:sqlite" | "better-sqlite3"
  readonly exec: (sql: string) => void
  readonly prepare: (sql: string) => SqliteStatement
  /** Finalizes every statement it prepared and closes the file. */
  readonly close: () => void
}

interface NodeSqliteStatement {
  all(...params: Array<unknown>): Array<object>
  run(...params: Array<unknown>): unknown
  setReadBigInts(enabled: boolean): void
}
interface NodeSqliteModule {
  DatabaseSync: new (
    path: string,
  ) => { exec(sql: string): void; prepare(sql: string): NodeSqliteStatement; close(): void }
}

interface BetterSqliteStatement {
  readonly reader: boolean
  all(...params: Array<unknown>): Array<object>
  run(...params: Array<unknown>): unknown
  raw(enabled: boolean): BetterSqliteStatement
  safeIntegers(enabled: boolean): BetterSqliteStatement
}
type BetterSqliteConstructor = new (
  path: string,
) => { exec(sql: string): void; prepare(sql: string): BetterSqliteStatement; close(): void }

/**
 * `node:sqlite`, where it is there without a flag (Node 22.13 and later). better-sqlite3 is only Node 20's:
 * under Node 24 and 26 its statements are node::ObjectWrap objects that, collected by a garbage collection
 * with no Node environment current (at exit, or between two callbacks), abort the process
 * (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook; WiseLibs/better-sqlite3#1515, not
 * fixed in 12.x). Node's own driver has no such objects.
 */
const nodeSqlite = (): NodeSqliteModule | undefined => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
  if (major < 22 || (major === 22 && minor < 13)) return undefined
  // Node 22 calls it experimental on every start; the choice is made here, so the user need not be told.
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: Array<unknown>) => {
    if (!String(warning).startsWith("SQLite is an experimental feature"))
      (emitWarning as (...args: Array<unknown>) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    return process.getBuiltinModule("node:sqlite") as NodeSqliteModule | undefined
  } finally {
    process.emitWarning = emitWarning
  }
}

const openWithNodeSqlite = (module: NodeSqliteModule, filename: string): SqliteDatabase => {
  const db = new module.DatabaseSync(filename)
  return {
    driver: "node:sqlite",
    exec: (sql) => db.exec(sql),
    prepare: (sql) => {
      const statement = db.prepare(sql)
      return {
        all: (params, options) => {
          statement.setReadBigInts(options?.bigInts === true)
          return statement.all(...params)
        },
        values: (params) => statement.all(...params).map((row) => Object.values(row)),
        run: (params) => statement.run(...params),
      }
    },
    close: () => db.close(),
  }
}

const openWithBetterSqlite = (filename: string): SqliteDatabase => {
  let BetterSqlite: BetterSqliteConstructor
  try {
    BetterSqlite = createRequire(import.meta.url)("better-sqlite3") as BetterSqliteConstructor
  } catch (cause) {
    throw new Error(
      `Node ${process.versions.node} has no node:sqlite, and better-sqlite3 (its SQLite driver for Node 20) ` +
        "is not installed or not built: install it, or run Node 22.13 or later",
      { cause },
    )
  }
  const db = new BetterSqlite(filename)
  return {
    driver: "better-sqlite3",
    exec: (sql) => db.exec(sql),
    prepare: (sql) => {
      const statement = db.prepare(sql)
      return {
        // better-sqlite3's `all` refuses a statement that returns no rows: such a statement runs instead.
        all: (params, options) => {
          if (!statement.reader) {
            statement.run(...params)
            return []
          }
          return statement.safeIntegers(options?.bigInts === true).all(...params)
        },
        values: (params) => {
          if (!statement.reader) {
            statement.run(...params)
            return []
          }
          try {
            return statement.raw(true).all(...params) as Array<Array<unknown>>
          } finally {
            statement.raw(false)
          }
        },
        run: (params) => statement.run(...params),
      }
    },
    close: () => db.close(),
  }
}

/** Opens (creating) a SQLite file with the driver this Node has; see `nodeSqlite` for why two. */
export const openSqlite = (filename: string): SqliteDatabase => {
  const module = nodeSqlite()
  return module === undefined ? openWithBetterSqlite(filename) : openWithNodeSqlite(module, filename)
}
