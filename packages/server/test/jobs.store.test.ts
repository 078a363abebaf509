import { readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import {
  type AgentTrajectoryEvent,
  type EvalResult,
  type ModelCall,
  ResultStore,
  type RolloutStep,
  type RunSummary,
} from "@proctor/core"
import { testResult } from "@proctor/test-kit"
import { ConfigProvider, Effect, Either, Layer, Redacted } from "effect"
import {
  type ApiKeyRecord,
  apiKeyDisplayPrefix,
  ephemeralSecretBox,
  generateApiKey,
  hashApiKey,
  JobDatabase,
  JobResultStoreLayer,
  JobStore,
  type JobStoreError,
  type JobStores,
  KeyStore,
  type NewJob,
  RolloutStore,
  SECRET_KEY_FILE,
  SecretBox,
} from "../src/index.js"
import { emptyStats, emptyTally, statsOfTally, tallyRow } from "../src/jobs/ResultTally.js"
import { storedJobConfig, tempDir } from "./api.harness.js"
import { createTestDatabase, PG_ADMIN_URL } from "./jobs.pg.js"

const row = (seed: number, overrides: Partial<EvalResult> = {}): EvalResult =>
  testResult({ seed, score: seed % 2 === 0 ? 1 : 0, latency_ms: 5, tokens: 10, cost_usd: 0.5, ...overrides })

/** A rollout that failed with a server error, reporting no score, tokens or cost. */
const failedRow = (seed: number, overrides: Partial<EvalResult> = {}): EvalResult =>
  row(seed, {
    status: "error",
    score: null,
    error: "boom",
    error_kind: "http_5xx",
    tokens: null,
    cost_usd: null,
    ...overrides,
  })

const config = (seeds: ReadonlyArray<number>) => storedJobConfig(seeds)

const key = (id: string, isAdmin = false): ApiKeyRecord => ({
  id,
  name: id,
  prefix: "pk_abcdefgh",
  isAdmin,
  createdAt: "2025-01-01T00:00:00.000Z",
  revokedAt: null,
})

const job = (id: string, owner: string, createdAt: string, seeds: ReadonlyArray<number> = [0, 1, 2]): NewJob => ({
  id,
  ownerKeyId: owner,
  config: config(seeds),
  secretsSealed: "v1.sealed",
  planned: seeds.length,
  numSeeds: seeds.length,
  createdAt,
})

const call = (id: string, seed: number): ModelCall => ({
  call_id: id,
  run_id: "job",
  rollout_id: `r-${seed}`,
  seed,
  attempt: 0,
  api: "chat_completions",
  provider: "openai",
  model: "gpt-4o-mini",
  stream: false,
  request: { messages: [] },
  response_message: { role: "assistant", content: "hi" },
  status: 200,
  outcome: "ok",
  error: null,
  started_at: "2025-01-01T00:00:00.000Z",
  completed_at: "2025-01-01T00:00:00.100Z",
  latency_ms: 100,
  ttft_ms: null,
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cached_tokens: null, reasoning_tokens: null },
  finish_reason: "stop",
  cost_usd: 0.0001,
})

/** The same behaviour on every backend. */
const storeSuite = (
  name: string,
  layer: () => Promise<{ layer: Layer.Layer<JobStores, JobStoreError>; done: () => Promise<void> }>,
) =>
  describe(`JobStore on ${name}`, () => {
    const withStore = <A>(program: Effect.Effect<A, unknown, JobStores>) =>
      Effect.promise(async () => {
        const backend = await layer()
        try {
          return await Effect.runPromise(Effect.provide(program, backend.layer))
        } finally {
          await backend.done()
        }
      })

    it.effect("stores API keys as hashes; revoked keys are not found", () =>
      withStore(
        Effect.gen(function* () {
          const store = yield* KeyStore
          const plaintext = generateApiKey()
          yield* store.insertApiKey({
            record: { ...key("key_a"), prefix: apiKeyDisplayPrefix(plaintext) },
            keyHash: hashApiKey(plaintext),
          })
          yield* store.insertApiKey({ record: key("key_admin", true), keyHash: hashApiKey("other") })
          const found = yield* store.findApiKeyByHash(hashApiKey(plaintext))
          expect(found).toMatchObject({ id: "key_a", isAdmin: false, revokedAt: null })
          expect((yield* store.findApiKeyByHash(hashApiKey("other")))?.isAdmin).toBe(true)
          expect(yield* store.findApiKeyByHash(hashApiKey("nope"))).toBeNull()
          expect(yield* store.revokeApiKey("key_a", "2025-02-01T00:00:00.000Z")).toBe(true)
          expect(yield* store.findApiKeyByHash(hashApiKey(plaintext))).toBeNull()
          const listed = yield* store.listApiKeys
          expect(listed.map((k) => [k.id, k.revokedAt])).toEqual([
            ["key_a", "2025-02-01T00:00:00.000Z"],
            ["key_admin", null],
          ])
        }),
      ),
    )

    it.effect("jobs: lifecycle updates are conditional, the sealed secrets go when a job ends", () =>
      withStore(
        Effect.gen(function* () {
          const store = yield* JobStore
          yield* store.insertJob(job("j1", "k1", "2025-01-01T00:00:01.000Z"))
          yield* store.insertJob(job("j2", "k1", "2025-01-01T00:00:02.000Z"))
          yield* store.insertJob(job("j3", "k2", "2025-01-01T00:00:03.000Z"))
          const j1 = yield* store.getJob("j1")
          expect(j1).toMatchObject({ status: "pending", secretsSealed: "v1.sealed", planned: 3, numSeeds: 3 })
          expect(j1?.config.seeds).toEqual([0, 1, 2])
          expect(yield* store.countActiveJobs("k1")).toBe(2)

          expect(yield* store.markRunning("j1", "2025-01-01T00:01:00.000Z")).toBe(true)
          // A resumed job keeps its first start time.
          expect(yield* store.markRunning("j1", "2025-01-01T00:09:00.000Z")).toBe(true)
          expect((yield* store.getJob("j1"))?.startedAt).toBe("2025-01-01T00:01:00.000Z")
          expect(yield* store.cancelPending("j1", "2025-01-01T00:02:00.000Z")).toBe(false)
          expect(yield* store.cancelPending("j2", "2025-01-01T00:02:00.000Z")).toBe(true)
          expect(yield* store.markRunning("j2", "2025-01-01T00:03:00.000Z")).toBe(false)
          expect((yield* store.getJob("j2"))?.secretsSealed).toBeNull()

          expect((yield* store.resumableJobs).map((j) => j.id)).toEqual(["j1", "j3"])
          const summary = { run_id: "j1", planned: 3 } as unknown as RunSummary
          yield* store.saveSummary("j1", summary)
          expect(
            yield* store.finishJob("j1", { status: "completed", error: null, completedAt: "2025-01-01T00:05:00.000Z" }),
          ).toBe(true)
          expect(
            yield* store.finishJob("j1", { status: "failed", error: "late", completedAt: "2025-01-01T00:06:00.000Z" }),
          ).toBe(false)
          const done = yield* store.getJob("j1")
          expect(done).toMatchObject({ status: "completed", error: null, secretsSealed: null, summary })
          expect(yield* store.countActiveJobs("k1")).toBe(0)
          const byStatus = yield* store.countJobsByStatus
          expect(Object.fromEntries(byStatus)).toEqual({ completed: 1, cancelled: 1, pending: 1 })
        }),
      ),
    )

    it.effect("jobs: listed newest first by keyset, per owner or all, filtered by status", () =>
      withStore(
        Effect.gen(function* () {
          const store = yield* JobStore
          for (let i = 0; i < 5; i++)
            yield* store.insertJob(job(`j${i}`, i % 2 === 0 ? "even" : "odd", "2025-01-01T00:00:00.000Z"))
          yield* store.markRunning("j4", "2025-01-01T00:00:01.000Z")
          const page1 = yield* store.listJobs({ ownerKeyId: null, statuses: null, limit: 2, before: null })
          // Same created_at: ties are broken by id, newest (largest) first.
          expect(page1.map((j) => j.id)).toEqual(["j4", "j3"])
          const page2 = yield* store.listJobs({
            ownerKeyId: null,
            statuses: null,
            limit: 10,
            before: { createdAt: page1[1]!.createdAt, id: page1[1]!.id },
          })
          expect(page2.map((j) => j.id)).toEqual(["j2", "j1", "j0"])
          const even = yield* store.listJobs({ ownerKeyId: "even", statuses: null, limit: 10, before: null })
          expect(even.map((j) => j.id)).toEqual(["j4", "j2", "j0"])
          const running = yield* store.listJobs({ ownerKeyId: null, statuses: ["running"], limit: 10, before: null })
          expect(running.map((j) => j.id)).toEqual(["j4"])
        }),
      ),
    )

    it.effect("a live tally fed by upserts (and the rows they replace) equals the SQL aggregate", () =>
      withStore(
        Effect.gen(function* () {
          const store = yield* RolloutStore
          const live = emptyTally()
          const put = (result: EvalResult) =>
            Effect.map(store.upsertResults("t", [{ result }]), ([replaced = null]) => {
              if (replaced !== null) tallyRow(live, replaced, -1)
              tallyRow(
                live,
                { status: result.status, score: result.score, tokens: result.tokens, costUsd: result.cost_usd },
                1,
              )
            })
          yield* put(failedRow(1))
          yield* put(row(1, { retries: 2 }))
          yield* put(row(0, { score: 0.25 }))
          yield* put(row(2, { status: "error", score: null, error: "x", error_kind: "auth" }))
          yield* put(row(0, { score: 0.75, tokens: 7 }))
          const fromSql = (yield* store.resultStats(["t"])).get("t")!
          expect(statsOfTally(live)).toEqual(fromSql)
          expect(statsOfTally(yield* store.resultTally("t"))).toEqual(fromSql)
          expect(statsOfTally(yield* store.resultTally("none"))).toEqual(emptyStats)
        }),
      ),
    )

    it.effect("results: the last write of a key wins, traces live apart, pages and stats come from SQL", () =>
      withStore(
        Effect.gen(function* () {
          const store = yield* RolloutStore
          yield* store.upsertResults("j", [{ result: failedRow(1, { trace: { v: "first" } }) }])
          yield* store.upsertResults("j", [{ result: row(1, { retries: 2, trace: { v: "second" } }) }])
          yield* store.upsertResults("j", [{ result: row(0) }])
          yield* store.upsertResults("j", [
            { result: row(2, { status: "error", score: null, error: "x", error_kind: "auth" }) },
          ])
          yield* store.upsertResults("other", [{ result: row(0) }])
          const rows = (yield* store.resultRows("j")).map((text) => JSON.parse(text) as EvalResult)
          expect(rows.map((r) => [r.seed, r.status, r.retries])).toEqual([
            [0, "ok", 0],
            [1, "ok", 2],
            [2, "error", 0],
          ])
          expect(rows.every((r) => r.trace === undefined)).toBe(true)
          const traces = yield* store.tracePage("j", null, 10)
          expect(traces.map((t) => [t.seed, JSON.parse(t.json)])).toEqual([[1, { v: "second" }]])
          // Rewritten without a trace: the old trace belonged to the overwritten result.
          yield* store.upsertResults("j", [{ result: row(1) }])
          expect(yield* store.tracePage("j", null, 10)).toEqual([])

          const stats = (yield* store.resultStats(["j", "other", "none"])).get("j")!
          // The mean is over ok rollouts (seeds 0 and 1: scores 1 and 0); tokens and cost over all that report them.
          expect(stats).toEqual({ completed: 3, ok: 2, meanScore: 0.5, totalTokens: 30, totalCostUsd: 1.5 })
          expect((yield* store.resultStats(["none"])).get("none")).toBeUndefined()

          // One transaction for all of them, in an order of its own.
          yield* store.upsertResults(
            "big",
            Array.from({ length: 250 }, (_, i) => ({ result: row(252 - i, { attempt: (252 - i) % 2 }) })),
          )
          const seen: Array<number> = []
          let after: { seed: number; attempt: number } | null = null
          for (;;) {
            const page: ReadonlyArray<{ seed: number; attempt: number }> = yield* store.resultPage("big", after, 100)
            if (page.length === 0) break
            for (const item of page) seen.push(item.seed)
            after = page[page.length - 1]!
          }
          expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i + 3))
        }),
      ),
    )

    it.effect(
      "one upsert of many rows: each write gets the row it replaced, in order; a key written twice keeps its last write",
      () =>
        withStore(
          Effect.gen(function* () {
            const store = yield* RolloutStore
            const stored = (score: number) => ({ status: "ok", score, tokens: 10, costUsd: 0.5 })
            expect(
              yield* store.upsertResults("b", [
                { result: row(0), seq: 1 },
                { result: row(1, { trace: { v: 1 } }), seq: 2 },
              ]),
            ).toEqual([null, null])
            const replaced = yield* store.upsertResults("b", [
              { result: row(2, { trace: { v: "dropped" } }), seq: 3 },
              { result: row(0, { status: "error", score: null, error: "x", error_kind: "auth" }), seq: 4 },
              { result: row(2, { retries: 1, trace: { v: 2 } }), seq: 5 },
              { result: row(1), seq: 6 },
            ])
            // Seed 2's second write replaces its first, written earlier in the same call.
            expect(replaced).toEqual([null, stored(1), stored(1), stored(0)])
            const rows = (yield* store.resultRows("b")).map((text) => JSON.parse(text) as EvalResult)
            expect(rows.map((r) => [r.seed, r.status, r.retries])).toEqual([
              [0, "error", 0],
              [1, "ok", 0],
              [2, "ok", 1],
            ])
            // Seed 1 was rewritten without a trace; seed 2's trace is its last write's.
            const traces = yield* store.tracePage("b", null, 10)
            expect(traces.map((t) => [t.seed, JSON.parse(t.json)])).toEqual([[2, { v: 2 }]])
            // Each key keeps the seq of its first write: seed 2 is the third row of the viewer's order.
            const upTo3 = yield* store.viewerRows("b", { offset: 0, limit: 10, maxSeq: 3 })
            expect(upTo3.map((r) => (JSON.parse(r.json) as EvalResult).seed)).toEqual([0, 1, 2])
            expect(statsOfTally(yield* store.resultTally("b"))).toEqual((yield* store.resultStats(["b"])).get("b"))
          }),
        ),
    )

    it.effect("core's ResultStore over a job: appended rows come back as `completed`; model calls are kept", () =>
      withStore(
        Effect.gen(function* () {
          const store = yield* RolloutStore
          const results = yield* Effect.provide(
            Effect.gen(function* () {
              const resultStore = yield* ResultStore
              yield* resultStore.appendModelCalls([call("c2", 1), call("c1", 1)])
              yield* resultStore.appendModelCalls([call("c1", 1)])
              yield* resultStore.append(row(1))
              yield* resultStore.append(row(0))
              expect(resultStore.location).toBeNull()
              return Array.from(yield* resultStore.completed)
            }),
            JobResultStoreLayer("jr"),
          )
          expect(results.map((r) => r.seed)).toEqual([0, 1])
          const calls = yield* store.modelCallsOf("jr", { seed: 1, attempt: 0 })
          expect(calls.map((c) => c.call_id)).toEqual(["c1", "c2"])
          expect(calls[0]?.usage?.total_tokens).toBe(5)
        }),
      ),
    )

    it.effect(
      "rollout steps: appended through core's ResultStore, kept once per (rollout, try, index), read back in order",
      () =>
        withStore(
          Effect.gen(function* () {
            const store = yield* RolloutStore
            const step = (index: number, retry: number, at: string, seed = 3): RolloutStep => ({
              rollout_id: "ro-1",
              seed,
              attempt: 0,
              retry,
              index,
              at,
              elapsed_ms: index * 10,
              kind: "command",
              command: `step ${retry}.${index}`,
              exit_code: 0,
            })
            yield* Effect.provide(
              Effect.gen(function* () {
                const resultStore = yield* ResultStore
                yield* resultStore.appendSteps([
                  step(0, 0, "2026-01-01T00:00:00.000Z"),
                  step(1, 0, "2026-01-01T00:00:01.000Z"),
                ])
                // A worker's redelivery stores the same step again: kept once.
                yield* resultStore.appendSteps([step(1, 0, "2026-01-01T00:00:01.000Z")])
                yield* resultStore.appendSteps([step(0, 1, "2026-01-01T00:00:02.000Z")])
                yield* resultStore.appendSteps([step(0, 0, "2026-01-01T00:00:00.000Z", 4)])
              }),
              JobResultStoreLayer("js"),
            )
            const steps = yield* store.stepsOf("js", { seed: 3, attempt: 0 })
            expect(steps.map((s) => s.command)).toEqual(["step 0.0", "step 0.1", "step 1.0"])
            expect(steps[0]).toMatchObject({ rollout_id: "ro-1", exit_code: 0, elapsed_ms: 0 })
            expect(yield* store.stepsOf("js", { seed: 5, attempt: 0 })).toEqual([])
          }),
        ),
    )

    it.effect(
      "agent events: appended through core's ResultStore, kept once per (rollout, try, index), read back in order",
      () =>
        withStore(
          Effect.gen(function* () {
            const store = yield* RolloutStore
            const event = (index: number, retry: number, at: string, seed = 3): AgentTrajectoryEvent => ({
              rollout_id: "ro-1",
              seed,
              attempt: 0,
              retry,
              index,
              at,
              agent: "codex",
              event: { type: "item.completed", n: `${retry}.${index}` },
            })
            yield* Effect.provide(
              Effect.gen(function* () {
                const resultStore = yield* ResultStore
                const append = resultStore.appendAgentEvents
                if (append === undefined) return yield* Effect.die("the job's result store keeps no agent events")
                yield* append([event(0, 0, "2026-01-01T00:00:00.000Z"), event(1, 0, "2026-01-01T00:00:01.000Z")])
                // A worker's redelivery stores the same event again: kept once.
                yield* append([event(1, 0, "2026-01-01T00:00:01.000Z")])
                yield* append([event(0, 1, "2026-01-01T00:00:02.000Z")])
                yield* append([event(0, 0, "2026-01-01T00:00:00.000Z", 4)])
              }),
              JobResultStoreLayer("js"),
            )
            const events = yield* store.agentEventsOf("js", { seed: 3, attempt: 0 })
            expect(events.map((e) => (e.event as { n: string }).n)).toEqual(["0.0", "0.1", "1.0"])
            expect(events[0]).toMatchObject({ rollout_id: "ro-1", agent: "codex", index: 0 })
            expect(yield* store.agentEventsOf("js", { seed: 5, attempt: 0 })).toEqual([])
          }),
        ),
    )

    it.effect("ping answers", () => withStore(Effect.flatMap(JobStore, (store) => store.ping)))
  })

storeSuite("SQLite", async () => {
  const dir = tempDir()
  return { layer: JobDatabase.layerSqlite(dir.path), done: async () => dir.remove() }
})

describe.skipIf(PG_ADMIN_URL === null)("PostgreSQL", () => {
  storeSuite("PostgreSQL", async () => {
    const database = await createTestDatabase()
    return { layer: JobDatabase.layerPg(database.url), done: database.drop }
  })
})

describe("JobStore on SQLite specifically", () => {
  it.effect("uses WAL and reopens an existing database (migrations are idempotent)", () =>
    Effect.promise(async () => {
      const dir = tempDir()
      try {
        const open = (program: Effect.Effect<unknown, unknown, JobStore>) =>
          Effect.runPromise(Effect.provide(program, JobDatabase.layerSqlite(dir.path)))
        await open(Effect.flatMap(JobStore, (store) => store.insertJob(job("keep", "k", "2025-01-01T00:00:00.000Z"))))
        await open(
          Effect.flatMap(JobStore, (store) =>
            Effect.map(store.getJob("keep"), (found) => expect(found?.id).toBe("keep")),
          ),
        )
        // Bytes 18 and 19 of a SQLite header are 2 in WAL mode (1 for a rollback journal).
        const header = readFileSync(join(dir.path, "proctor.db")).subarray(0, 20)
        expect([header[18], header[19]]).toEqual([2, 2])
      } finally {
        dir.remove()
      }
    }),
  )

  it.effect("an unusable data directory is a JobStoreError, not a crash", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      writeFileSync(join(dir.path, "a-file"), "")
      const result = yield* Effect.either(
        Effect.provide(
          Effect.flatMap(JobStore, (store) => store.ping),
          JobDatabase.layerSqlite(join(dir.path, "a-file", "data")),
        ),
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("JobStoreError")
      dir.remove()
    }),
  )
})

describe("SecretBox", () => {
  it.effect("AES-256-GCM bound to its context: the same ciphertext does not open for another job", () =>
    Effect.gen(function* () {
      const box = ephemeralSecretBox()
      const sealed = box.seal("task-app-key", "job-1")
      expect(sealed).toMatch(/^v1\./)
      expect(sealed).not.toContain("task-app-key")
      expect(box.seal("task-app-key", "job-1")).not.toBe(sealed)
      expect(yield* box.open(sealed, "job-1")).toBe("task-app-key")
      const swapped = yield* Effect.either(box.open(sealed, "job-2"))
      expect(Either.isLeft(swapped) && swapped.left.reason).toBe("Decrypt")
      const tampered = yield* Effect.either(box.open(`${sealed.slice(0, -2)}AA`, "job-1"))
      expect(Either.isLeft(tampered)).toBe(true)
      const otherKey = yield* Effect.either(ephemeralSecretBox().open(sealed, "job-1"))
      expect(Either.isLeft(otherKey)).toBe(true)
    }),
  )

  it.effect("without PROCTOR_SECRET_KEY a 0600 key file is created in the data dir, and reused", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const noEnv = Layer.setConfigProvider(ConfigProvider.fromMap(new Map()))
      const first = yield* Effect.provide(SecretBox, SecretBox.layerConfig(dir.path).pipe(Layer.provide(noEnv)))
      expect(statSync(join(dir.path, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600)
      const sealed = first.seal("secret", "ctx")
      const second = yield* Effect.provide(SecretBox, SecretBox.layerConfig(dir.path).pipe(Layer.provide(noEnv)))
      expect(yield* second.open(sealed, "ctx")).toBe("secret")
      // PROCTOR_SECRET_KEY takes precedence over the file.
      const fromEnv = Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["PROCTOR_SECRET_KEY", "passphrase"]])))
      const third = yield* Effect.provide(SecretBox, SecretBox.layerConfig(dir.path).pipe(Layer.provide(fromEnv)))
      expect(Either.isLeft(yield* Effect.either(third.open(sealed, "ctx")))).toBe(true)
      const explicit = yield* Effect.provide(SecretBox, SecretBox.layer({ secretKey: Redacted.make("passphrase") }))
      expect(yield* explicit.open(third.seal("x", "c"), "c")).toBe("x")
      dir.remove()
    }),
  )

  it.effect("no key and no data dir is an error that says what to set", () =>
    Effect.gen(function* () {
      const result = yield* Effect.either(SecretBox.make({}))
      expect(Either.isLeft(result) && result.left.message).toMatch(/PROCTOR_SECRET_KEY/)
    }),
  )
})
