import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { Effect } from "effect"
import {
  apiKeyDisplayPrefix,
  createApiKey,
  DATABASE_FILE,
  generateApiKey,
  hashApiKey,
  JobDatabase,
  KeyStore,
  newApiKeyId,
  revokeApiKey,
} from "../src/index.js"
import { SqliteClient } from "../src/jobs/SqliteClient.js"
import {
  apiClient,
  startTestServer,
  startTestTaskApp,
  synthJobBody,
  TERMINAL,
  type TestServer,
  tempDir,
  waitForJob,
} from "./api.harness.js"

// The status route answers an ended job from memory once a key has been seen; these tests pin down that those
// answers are the ones the database would give, and that nothing is remembered that could change.

type Client = ReturnType<typeof apiClient>

const JSON_UTF8 = "application/json; charset=utf-8"

/** The status route's answer as sent: status, content type and the body's exact text. */
const rawStatus = async (client: Client, jobId: string) => {
  const response = await client.raw(`/api/eval/jobs/${jobId}`)
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
}

/** Waits for a job to end through the list route, so its status has not been asked for (nor remembered) yet. */
const waitForEndUnpolled = (client: Client, jobId: string) =>
  waitFor(`job ${jobId} to end`, async () => {
    const { body } = await client.get<{ jobs: Array<{ job_id: string; status: string }> }>("/api/eval/jobs")
    const job = body.jobs.find((j) => j.job_id === jobId)
    return job !== undefined && TERMINAL.has(job.status) ? job : undefined
  })

/** Runs SQL on a server's database behind its back, as another process would. */
const sqlOn = (dataDir: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, statement).pipe(
      Effect.provide(SqliteClient.layer({ filename: join(dataDir, DATABASE_FILE) })),
    ),
  )

/** Stores a key the way `proctor keys create` does, but one whose plaintext the test chose. */
const storeKey = (dataDir: string, key: string) =>
  Effect.runPromise(
    Effect.flatMap(KeyStore, (store) =>
      store.insertApiKey({
        record: {
          id: newApiKeyId(),
          name: "late",
          prefix: apiKeyDisplayPrefix(key),
          isAdmin: false,
          createdAt: new Date().toISOString(),
          revokedAt: null,
        },
        keyHash: hashApiKey(key),
      }),
    ).pipe(Effect.provide(JobDatabase.layerSqlite(dataDir))),
  )

const NO_SUCH_JOB = "eval-ffffffffffffffffffffffff"

describe("status polls of ended jobs", () => {
  let app: Awaited<ReturnType<typeof startTestTaskApp>>
  let server: TestServer
  let alice: Client
  let bob: Client
  let admin: Client

  beforeAll(async () => {
    app = await startTestTaskApp()
    server = await startTestServer({ cancelGraceMs: 50 })
    alice = apiClient(server.url, server.userKey)
    bob = apiClient(server.url, (await createApiKey({ dataDir: server.dataDir, name: "bob" })).key)
    admin = apiClient(server.url, (await createApiKey({ dataDir: server.dataDir, name: "ops", admin: true })).key)
  })
  afterAll(async () => {
    await server.close()
    await app.close()
  })

  it("are answered from memory, byte for byte what the database gives", async () => {
    const jobId = (await alice.post("/api/eval/jobs", synthJobBody(app.url, [0, 1, 2]))).body.job_id as string
    await waitForEndUnpolled(alice, jobId)
    const fromDatabase = await rawStatus(alice, jobId)
    const fromMemory = await rawStatus(alice, jobId)
    expect(fromDatabase).toMatchObject({ status: 200, type: JSON_UTF8 })
    expect(fromMemory).toEqual(fromDatabase)
    // The same view the list route builds and fastify serializes.
    const listed = await alice.get<{ jobs: Array<{ job_id: string }> }>("/api/eval/jobs")
    expect(JSON.stringify(listed.body.jobs.find((job) => job.job_id === jobId))).toBe(fromDatabase.text)

    // Proof the second answer came from memory: an edit behind the server's back shows in the list, not here.
    await sqlOn(server.dataDir, (sql) => sql`UPDATE jobs SET error = 'edited' WHERE id = ${jobId}`)
    const relisted = await alice.get<{ jobs: Array<{ job_id: string; error: string | null }> }>("/api/eval/jobs")
    expect(relisted.body.jobs.find((job) => job.job_id === jobId)?.error).toBe("edited")
    expect(await rawStatus(alice, jobId)).toEqual(fromDatabase)
  })

  it("are still a 404 for another key, the same as before they were remembered, and readable by an admin key", async () => {
    const jobId = (await alice.post("/api/eval/jobs", synthJobBody(app.url, [3]))).body.job_id as string
    await waitForEndUnpolled(alice, jobId)
    const refusedFromDatabase = await rawStatus(bob, jobId)
    expect(refusedFromDatabase.status).toBe(404)
    expect(JSON.parse(refusedFromDatabase.text)).toEqual({
      error: { code: "job_not_found", message: `no job ${jobId}` },
    })

    const owned = await rawStatus(alice, jobId)
    expect(owned.status).toBe(200)
    expect(await rawStatus(alice, jobId)).toEqual(owned)
    expect(await rawStatus(bob, jobId)).toEqual(refusedFromDatabase)
    expect(await rawStatus(bob, jobId)).toEqual(refusedFromDatabase)
    expect(await rawStatus(admin, jobId)).toEqual(owned)
  })

  it("with a body too big to keep (a long seed list) are read from the database every time", async () => {
    // Every rollout waits at the gate, so the job is cancelled with only a few of its 4,000 seeds started.
    const gated = await startTestTaskApp({ gateFrom: 0 })
    const seeds = Array.from({ length: 4_000 }, (_, i) => i)
    try {
      const jobId = (await alice.post("/api/eval/jobs", synthJobBody(gated.url, seeds))).body.job_id as string
      expect((await alice.post(`/api/eval/jobs/${jobId}/cancel`)).body.status).toBe("cancelled")
      const first = await rawStatus(alice, jobId)
      expect(first.status).toBe(200)
      expect(first.text.length).toBeGreaterThan(16_384)
      expect(await rawStatus(alice, jobId)).toEqual(first)
      await sqlOn(server.dataDir, (sql) => sql`UPDATE jobs SET error = 'edited' WHERE id = ${jobId}`)
      expect(JSON.parse((await rawStatus(alice, jobId)).text).error).toBe("edited")
    } finally {
      await gated.close()
    }
  })
})

describe("status polls of jobs that have not ended", () => {
  it("follow the job pending → running → completed; nothing is remembered before it ends", async () => {
    // Seeds from 100 up wait for the gate; one job runs at a time, so a second one stays pending behind the first.
    const app = await startTestTaskApp({ gateFrom: 100 })
    const server = await startTestServer({ maxRunningJobs: 1, cancelGraceMs: 100 })
    try {
      const client = apiClient(server.url, server.userKey)
      const status = async (jobId: string) => {
        const { status, body } = await client.get<{ status: string; results: { completed: number } }>(
          `/api/eval/jobs/${jobId}`,
        )
        expect(status).toBe(200)
        return { status: body.status, completed: body.results.completed }
      }
      const blocker = (await client.post("/api/eval/jobs", synthJobBody(app.url, [100]))).body.job_id as string
      await waitFor("the first job to run", async () =>
        (await status(blocker)).status === "running" ? true : undefined,
      )

      const jobId = (await client.post("/api/eval/jobs", synthJobBody(app.url, [1, 101]))).body.job_id as string
      expect(await status(jobId)).toEqual({ status: "pending", completed: 0 })
      expect(await status(jobId)).toEqual({ status: "pending", completed: 0 })

      expect((await client.post(`/api/eval/jobs/${blocker}/cancel`)).body.status).toBe("cancelled")
      expect((await status(blocker)).status).toBe("cancelled")
      // Seed 1 finishes; seed 101 waits at the gate.
      await waitFor("the second job to run", async () => {
        const now = await status(jobId)
        return now.status === "running" && now.completed === 1 ? true : undefined
      })
      expect(await status(jobId)).toEqual({ status: "running", completed: 1 })

      app.open()
      expect(await waitForJob(client, jobId)).toMatchObject({ status: "completed", results: { completed: 2 } })
      expect(await status(jobId)).toEqual({ status: "completed", completed: 2 })
    } finally {
      await server.close()
      await app.close()
    }
  })
})

describe("status polls of a job this process runs", () => {
  it("are its stored row with live counts, byte for byte the list route's view, and a 404 for another key", async () => {
    const app = await startTestTaskApp({ gateFrom: 100 })
    const server = await startTestServer({ cancelGraceMs: 100 })
    try {
      const client = apiClient(server.url, server.userKey)
      const other = apiClient(server.url, (await createApiKey({ dataDir: server.dataDir, name: "other" })).key)
      const jobId = (await client.post("/api/eval/jobs", synthJobBody(app.url, [1, 2, 101]))).body.job_id as string
      const polled = await waitFor("two of its rollouts to finish", async () => {
        const now = await rawStatus(client, jobId)
        const body = JSON.parse(now.text) as { status: string; results: { completed: number } }
        return body.status === "running" && body.results.completed === 2 ? now : undefined
      })
      expect(polled.type).toBe(JSON_UTF8)
      const listed = await client.get<{ jobs: Array<{ job_id: string }> }>("/api/eval/jobs")
      expect(JSON.stringify(listed.body.jobs.find((job) => job.job_id === jobId))).toBe(polled.text)
      expect((await rawStatus(other, jobId)).status).toBe(404)

      app.open()
      expect(await waitForJob(client, jobId)).toMatchObject({ status: "completed", results: { completed: 3 } })
    } finally {
      await server.close()
      await app.close()
    }
  })
})

describe("the status route's API key cache", () => {
  // A 404 for a job that does not exist means the key was accepted; a 401 that it was refused.

  it("a revoked key is refused once the cache TTL has passed", async () => {
    const server = await startTestServer({ apiKeyCacheTtlMs: 50 })
    try {
      const carol = await createApiKey({ dataDir: server.dataDir, name: "carol" })
      const client = apiClient(server.url, carol.key)
      expect((await client.get(`/api/eval/jobs/${NO_SUCH_JOB}`)).status).toBe(404)
      expect(await revokeApiKey({ dataDir: server.dataDir, id: carol.id })).toBe(true)
      // Refused as soon as the 50 ms cache entry has expired: polled for, not slept on.
      const refused = await waitFor("the revoked key to be refused", async () => {
        const answer = await client.get(`/api/eval/jobs/${NO_SUCH_JOB}`)
        return answer.status === 404 ? undefined : answer
      })
      expect(refused.status).toBe(401)
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/)
    } finally {
      await server.close()
    }
  })

  it("within the TTL a revoked key still reads statuses, until any other route finds it revoked", async () => {
    const server = await startTestServer({ apiKeyCacheTtlMs: 60_000 })
    try {
      const dave = await createApiKey({ dataDir: server.dataDir, name: "dave" })
      const client = apiClient(server.url, dave.key)
      expect((await client.get(`/api/eval/jobs/${NO_SUCH_JOB}`)).status).toBe(404)
      expect(await revokeApiKey({ dataDir: server.dataDir, id: dave.id })).toBe(true)
      expect((await client.get(`/api/eval/jobs/${NO_SUCH_JOB}`)).status).toBe(404)
      // Every other route asks the database, and what it learns is not forgotten by the status route.
      expect((await client.get("/api/eval/jobs")).status).toBe(401)
      expect((await client.get(`/api/eval/jobs/${NO_SUCH_JOB}`)).status).toBe(401)
    } finally {
      await server.close()
    }
  })

  it("an unknown key is never remembered: a key stored after it was refused works at once", async () => {
    const server = await startTestServer({ apiKeyCacheTtlMs: 60_000 })
    try {
      const key = generateApiKey()
      const client = apiClient(server.url, key)
      expect((await client.get(`/api/eval/jobs/${NO_SUCH_JOB}`)).status).toBe(401)
      await storeKey(server.dataDir, key)
      expect((await client.get(`/api/eval/jobs/${NO_SUCH_JOB}`)).status).toBe(404)
    } finally {
      await server.close()
    }
  })
})

describe("the status route's rate limit", () => {
  it("each request takes exactly one token, answered from memory or not; an empty bucket is a 429", async () => {
    const dir = tempDir()
    const app = await startTestTaskApp()
    try {
      // The job is run by a server without a rate limit, so the limited one starts with a full bucket.
      const setup = await startTestServer({ dataDir: dir.path })
      const key = setup.userKey
      const jobId = (await apiClient(setup.url, key).post("/api/eval/jobs", synthJobBody(app.url, [0]))).body
        .job_id as string
      await waitForJob(apiClient(setup.url, key), jobId)
      await setup.close()

      const server = await startTestServer({ dataDir: dir.path, rateLimit: { burst: 4, perSecond: 0.01 } })
      try {
        const client = apiClient(server.url, key)
        const statuses: Array<number> = []
        // The key from the database, the job from it; both from memory; a job the database is asked for; memory.
        for (const id of [jobId, jobId, NO_SUCH_JOB, jobId])
          statuses.push((await client.get(`/api/eval/jobs/${id}`)).status)
        expect(statuses).toEqual([200, 200, 404, 200])
        for (const id of [jobId, NO_SUCH_JOB]) {
          const limited = await client.get<{ error: { code: string } }>(`/api/eval/jobs/${id}`)
          expect(limited.status).toBe(429)
          expect(limited.body.error.code).toBe("rate_limited")
          expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        }
      } finally {
        await server.close()
      }
    } finally {
      await app.close()
      dir.remove()
    }
  })
})
