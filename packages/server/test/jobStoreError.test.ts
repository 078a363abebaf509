import { SqlError } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Either, Logger } from "effect"
import { httpErrorOf } from "../src/api/httpError.js"
import { JobDatabase, JobStore, JobStoreError, jobStoreError } from "../src/index.js"
import { loggableCause } from "../src/internal/loggableCause.js"
import { storedJobConfig, tempDir } from "./api.harness.js"

const SEALED = "v1.SEALED-TASK-APP-KEY-CIPHERTEXT"

const job = {
  id: "job_dup",
  ownerKeyId: "key_a",
  config: storedJobConfig([0]),
  secretsSealed: SEALED,
  planned: 1,
  numSeeds: 1,
  createdAt: "2025-01-01T00:00:00.000Z",
}

/** What Effect's logger writes for `Effect.logError(message, cause)`. */
const logged = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    yield* Effect.logError("eval job could not be run", cause).pipe(
      Effect.provide(
        Logger.replace(
          Logger.defaultLogger,
          Logger.map(Logger.logfmtLogger, (line) => lines.push(line)),
        ),
      ),
    )
    return lines.join("\n")
  })

describe("JobStoreError", () => {
  it.effect(
    "keeps the failed statement's SqlError as its cause; its message, HTTP answer and log hold no parameter",
    () =>
      Effect.gen(function* () {
        const dir = tempDir()
        yield* Effect.addFinalizer(() => Effect.sync(dir.remove))
        const failed = yield* Effect.gen(function* () {
          const store = yield* JobStore
          yield* store.insertJob(job)
          return yield* Effect.either(store.insertJob(job))
        }).pipe(Effect.provide(JobDatabase.layerSqlite(dir.path)))
        expect(Either.isLeft(failed)).toBe(true)
        const error = (failed as Either.Left<JobStoreError, void>).left
        expect(error.reason).toBe("Unavailable")
        expect(error.message).toMatch(/^cannot store the job: /)
        expect(error.cause).toBeInstanceOf(SqlError.SqlError)
        expect(error.message).not.toContain(SEALED)
        const http = httpErrorOf(error)
        expect(http.status).toBe(503)
        expect(JSON.stringify(http.body)).not.toContain(SEALED)
        expect(JSON.stringify(http.body)).not.toContain(error.message)
        const log = yield* logged(loggableCause(Cause.fail(error)))
        expect(log).toContain(error.message)
        expect(log).not.toContain(SEALED)
      }).pipe(Effect.scoped),
  )

  it.effect("is logged by its message only, though a driver's error beneath it quotes a statement's values", () =>
    Effect.gen(function* () {
      const driver = new Error(`invalid input syntax for type bytea: "${SEALED}"`)
      const error = jobStoreError("cannot store the job")(
        new SqlError.SqlError({ cause: driver, message: "Failed to execute statement" }),
      )
      expect(error).toBeInstanceOf(JobStoreError)
      expect(error.message).toBe("cannot store the job: Failed to execute statement")
      // Effect's loggers render the whole cause chain: this is what loggableCause is for.
      expect(yield* logged(Cause.fail(error))).toContain(SEALED)
      for (const cause of [
        Cause.fail(error),
        Cause.die(error),
        Cause.sequential(Cause.fail(error), Cause.die(error)),
      ]) {
        const log = yield* logged(loggableCause(cause))
        expect(log).toContain("cannot store the job: Failed to execute statement")
        expect(log).not.toContain(SEALED)
      }
    }),
  )
})
