import { randomBytes } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"

/** PostgreSQL on this machine (trust auth); the user that answers is used. */
const CANDIDATE_URLS = ["postgres://postgres@127.0.0.1:5432/test", "postgres://root@127.0.0.1:5432/test"]

/** One statement (or a few) on the database at `url`, over a connection of its own. */
export const runPg = <A>(url: string, f: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.flatMap(PgClient.PgClient, f).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), connectTimeout: "2 seconds", maxConnections: 1 })),
    ),
  )

const adminUrl = async (): Promise<string | null> => {
  for (const url of CANDIDATE_URLS) {
    try {
      await runPg(url, (sql) => sql`SELECT 1`)
      return url
    } catch {
      // try the next user
    }
  }
  return null
}

export const PG_ADMIN_URL = await adminUrl()

/** A database of its own for one test run, dropped afterwards: tests never see each other's rows. */
export const createTestDatabase = async (): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  if (PG_ADMIN_URL === null) throw new Error("PostgreSQL is not reachable")
  const name = `proctor_test_${randomBytes(6).toString("hex")}`
  await runPg(PG_ADMIN_URL, (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  const url = PG_ADMIN_URL.replace(/\/test$/, `/${name}`)
  return {
    url,
    drop: () => runPg(PG_ADMIN_URL, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  }
}
