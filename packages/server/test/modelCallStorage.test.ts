import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  type EvalResult,
  MODEL_CALLS_FILE,
  type ModelCall,
  openRunReader,
  rolloutKeyId,
  startEvalRun,
} from "@proctor/core"
import type { RunningTaskApp } from "@proctor/task-app"
import { testRunConfig } from "@proctor/test-kit"
import { Chunk, Effect, Layer, Option, Redacted, Stream } from "effect"
import { createBaselineModel, type RunningBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { createMathApp } from "../../../examples/math/src/index.js"
import { startInterceptor } from "../src/index.js"
import { JobDatabase } from "../src/jobs/JobDatabase.js"
import { RolloutStore } from "../src/jobs/RolloutStore.js"
import { SqliteClient } from "../src/jobs/SqliteClient.js"
import { createTestDatabase, PG_ADMIN_URL } from "./jobs.pg.js"

/** The math demo's eval: its seeds, through the embedded interceptor, with every call seen as it was made. */
const SEEDS = Array.from({ length: 250 }, (_, seed) => seed)

let baseline: RunningBaselineModel
let math: RunningTaskApp
let runDir: string
let results: ReadonlyArray<EvalResult>
/** Each rollout's calls as the interceptor made them, in the order they finished (a rollout's calls are sequential). */
const made = new Map<string, Array<ModelCall>>()

const texts = (calls: ReadonlyArray<ModelCall>) => calls.map((call) => JSON.stringify(call))

beforeAll(async () => {
  baseline = await createBaselineModel({ latencyMs: 0 }).listen()
  math = await createMathApp({ auth: "none" }).listen()
  const interceptor = await startInterceptor({
    onCall: (call) => {
      const key = rolloutKeyId(call)
      made.set(key, [...(made.get(key) ?? []), call])
    },
  })
  runDir = join(mkdtempSync(join(tmpdir(), "proctor-calls-")), "run")
  try {
    const config = testRunConfig({
      app_id: "math",
      task_app_url: math.url,
      seeds: SEEDS,
      concurrency: 16,
      model: "baseline",
      policy_config: { model: "baseline", inference_url: baseline.url },
    })
    await Effect.runPromise(
      startEvalRun({
        config,
        runDir,
        interception: { interceptor: interceptor.interceptor, upstream: { baseUrl: baseline.url } },
      }),
    )
  } finally {
    await interceptor.close()
  }
  const reader = await Effect.runPromise(openRunReader(runDir))
  results = Chunk.toArray(await Effect.runPromise(Stream.runCollect(reader.results())))
}, 120_000)

afterAll(async () => {
  await Promise.all([baseline?.close(), math?.close()])
  if (runDir !== undefined) rmSync(join(runDir, ".."), { recursive: true, force: true })
})

describe("model calls stored as what is new since the rollout's previous call", () => {
  it("the math demo's run directory reads back every call byte-identical to the call as made, and is smaller", async () => {
    expect(results).toHaveLength(SEEDS.length)
    expect(made.size).toBe(SEEDS.length)
    const reader = await Effect.runPromise(openRunReader(runDir))
    let turns = 0
    for (const result of results) {
      const rollout = Option.getOrThrow(await Effect.runPromise(reader.rollout(result.seed, result.attempt)))
      expect(texts(rollout.calls)).toEqual(texts(made.get(rolloutKeyId(result))!))
      turns = Math.max(turns, rollout.calls.length)
    }
    expect(turns).toBeGreaterThan(1)
    const stored = readFileSync(join(runDir, MODEL_CALLS_FILE), "utf8")
    const asMade = Array.from(made.values(), (calls) => texts(calls).join("\n")).join("\n")
    expect(stored).toContain('"request_delta"')
    expect(stored.length).toBeLessThan(asMade.length * 0.85)
  })

  interface Backend {
    readonly layer: Layer.Layer<RolloutStore | SqlClient.SqlClient, unknown>
    readonly done: () => Promise<void>
  }
  const sqlite = async (): Promise<Backend> => {
    const dir = mkdtempSync(join(tmpdir(), "proctor-calls-db-"))
    const client = SqliteClient.layer({ filename: join(dir, "proctor.db") })
    return {
      layer: JobDatabase.layerFromClient.pipe(Layer.provideMerge(client)),
      done: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
  const postgres = async (): Promise<Backend> => {
    const database = await createTestDatabase()
    const client = PgClient.layer({ url: Redacted.make(database.url), maxConnections: 2 })
    return { layer: JobDatabase.layerFromClient.pipe(Layer.provideMerge(client)), done: database.drop }
  }
  /** Both backends of the job server, the SQL client beside the store so a test can write rows as older versions did. */
  const backends: ReadonlyArray<readonly [string, () => Promise<Backend>]> = [
    ["SQLite", sqlite],
    ...(PG_ADMIN_URL === null ? [] : [["PostgreSQL", postgres] as const]),
  ]

  for (const [name, backend] of backends) {
    it.effect(
      `the job server's model_calls table on ${name} stores the same form and reads it back through the same decode`,
      () =>
        Effect.promise(async () => {
          const { layer, done } = await backend()
          try {
            await Effect.runPromise(
              Effect.gen(function* () {
                const store = yield* RolloutStore
                const sql = yield* SqlClient.SqlClient
                for (const calls of made.values()) yield* store.appendModelCalls("job", calls)
                // Stored again (idempotent): the first rows stay, so calls stored relative to them still read.
                const [sample] = made.values()
                yield* store.appendModelCalls("job", [...sample!].reverse())
                for (const result of results) {
                  const read = yield* store.modelCallsOf("job", result)
                  expect(texts(read)).toEqual(texts(made.get(rolloutKeyId(result))!))
                }
                const [row] = yield* sql<{ call_json: string }>`SELECT call_json FROM model_calls
                WHERE job_id = 'job' AND call_json LIKE '%request_delta%'`
                expect(row).toBeDefined()
                // A job stored before the codec: whole calls, read back as they are.
                const old = made.get(rolloutKeyId(results[0]!))!
                for (const call of old) {
                  yield* sql`INSERT INTO model_calls (job_id, call_id, seed, attempt, call_json)
                  VALUES ('old', ${call.call_id}, ${call.seed}, ${call.attempt}, ${JSON.stringify(call)})`
                }
                expect(texts(yield* store.modelCallsOf("old", results[0]!))).toEqual(texts(old))
              }).pipe(Effect.provide(layer)),
            )
          } finally {
            await done()
          }
        }),
    )
  }
})
