import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { createJobServer, type JobServerOptions } from "../src/api/createJobServer.js"
import { JobDatabase } from "../src/jobs/JobDatabase.js"
import { JobStore } from "../src/jobs/JobStore.js"
import { SECRET_KEY_FILE, SecretBox } from "../src/jobs/SecretBox.js"
import { storedJobConfig, tempDir } from "./api.harness.js"
import { createTestDatabase, PG_ADMIN_URL } from "./jobs.pg.js"

/** The server's secret key lives in PROCTOR_SECRET_KEY or the data directory, and a wrong one is found at start. */

const savedEnvKey = process.env.PROCTOR_SECRET_KEY
beforeAll(() => {
  delete process.env.PROCTOR_SECRET_KEY
})
afterAll(() => {
  if (savedEnvKey !== undefined) process.env.PROCTOR_SECRET_KEY = savedEnvKey
})

const dirs: Array<{ readonly remove: () => void }> = []
const dir = () => {
  const made = tempDir("proctor-secret-key-")
  dirs.push(made)
  return made.path
}
afterEach(() => {
  for (const made of dirs.splice(0)) made.remove()
})

/** Starts a server and closes it again: all a start-up check needs. */
const startAndClose = async (options: JobServerOptions) => {
  const server = await createJobServer({ rateLimit: false, intercept: false, ...options })
  await server.close()
}

const WRONG_KEY =
  /this server's secret key \(from (.+), fingerprint [0-9a-f]{16}\) is not the one this database's task-app keys were sealed with/

describe("the server secret key", () => {
  it("a server given another key than the one the database's keys are sealed with refuses to start", async () => {
    const dataDir = dir()
    await startAndClose({ dataDir, secretKey: "key-one" })
    const refused = createJobServer({ dataDir, secretKey: "key-two", rateLimit: false })
    await expect(refused).rejects.toThrow(WRONG_KEY)
    await expect(refused).rejects.toThrow(/sealed with \(fingerprint [0-9a-f]{16}\)/)
    await startAndClose({ dataDir, secretKey: "key-one" })
  })

  it("a database from before fingerprints, holding a running job's sealed key, is checked against that key", async () => {
    const dataDir = dir()
    const program = Effect.gen(function* () {
      const store = yield* JobStore
      const box = yield* SecretBox.make({ secretKey: Redacted.make("key-one") })
      yield* store.insertJob({
        id: "job-1",
        ownerKeyId: "key_x",
        config: storedJobConfig([0]),
        secretsSealed: box.seal("{}", "job-1"),
        planned: 1,
        numSeeds: 1,
        createdAt: new Date().toISOString(),
      })
      expect(yield* store.secretKeyFingerprint).toBeNull()
    })
    await Effect.runPromise(program.pipe(Effect.provide(JobDatabase.layerSqlite(dataDir))))
    await expect(createJobServer({ dataDir, secretKey: "key-two", rateLimit: false })).rejects.toThrow(WRONG_KEY)
  })
})

describe.skipIf(PG_ADMIN_URL === null)("the server secret key with PostgreSQL", () => {
  it("a second server with another data directory neither mints a key nor starts; the first one's key opens", async () => {
    const database = await createTestDatabase()
    try {
      const first = dir()
      await startAndClose({ databaseUrl: database.url, dataDir: first })
      expect(existsSync(join(first, SECRET_KEY_FILE))).toBe(true)

      const second = dir()
      const refused = createJobServer({ databaseUrl: database.url, dataDir: second, rateLimit: false })
      await expect(refused).rejects.toThrow(/secret\.key does not exist/)
      await expect(refused).rejects.toThrow(/sealed with the key of fingerprint [0-9a-f]{16}/)
      expect(readdirSync(second)).toEqual([])

      await expect(
        createJobServer({ databaseUrl: database.url, secretKey: "some-other-key", rateLimit: false }),
      ).rejects.toThrow(WRONG_KEY)
      await startAndClose({ databaseUrl: database.url, dataDir: first })
    } finally {
      await database.drop()
    }
  })

  it("without PROCTOR_SECRET_KEY or a data directory, says what to set and writes no file", async () => {
    const database = await createTestDatabase()
    // From an empty folder of its own: the default data directory (.proctor) is relative, and the checkout's
    // may hold a user's real one.
    const cwd = process.cwd()
    const empty = dir()
    process.chdir(empty)
    try {
      await expect(createJobServer({ databaseUrl: database.url, rateLimit: false })).rejects.toThrow(
        /PROCTOR_SECRET_KEY \(32 random bytes in base64/,
      )
      expect(readdirSync(empty)).toEqual([])
    } finally {
      process.chdir(cwd)
      await database.drop()
    }
  })
})
