import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { createApiKey, JobListResponse, listApiKeys, revokeApiKey } from "../src/index.js"
import {
  apiClient,
  startTestServer,
  startTestTaskApp,
  synthJobBody,
  type TestServer,
  waitForJob,
} from "./api.harness.js"

describe("API keys and isolation", () => {
  let app: Awaited<ReturnType<typeof startTestTaskApp>>
  let server: TestServer
  let alice: ReturnType<typeof apiClient>
  let bob: ReturnType<typeof apiClient>
  let admin: ReturnType<typeof apiClient>
  let aliceJob: string
  let bobJob: string

  beforeAll(async () => {
    app = await startTestTaskApp()
    server = await startTestServer()
    alice = apiClient(server.url, server.userKey)
    bob = apiClient(server.url, (await createApiKey({ dataDir: server.dataDir, name: "bob" })).key)
    admin = apiClient(server.url, (await createApiKey({ dataDir: server.dataDir, name: "ops", admin: true })).key)
    aliceJob = (await alice.post("/api/eval/jobs", synthJobBody(app.url, [1, 2]))).body.job_id as string
    bobJob = (await bob.post("/api/eval/jobs", synthJobBody(app.url, [3]))).body.job_id as string
    await waitForJob(alice, aliceJob)
    await waitForJob(bob, bobJob)
  })
  afterAll(async () => {
    await server.close()
    await app.close()
  })

  it("keys are pk_ + 32 random bytes in base64url, shown once and stored only as a hash", async () => {
    const created = await createApiKey({ dataDir: server.dataDir, name: "carol" })
    expect(created.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/)
    expect(created.prefix).toBe(created.key.slice(0, 11))
    expect(created.isAdmin).toBe(false)
    const listed = await listApiKeys({ dataDir: server.dataDir })
    expect(listed.map((key) => key.name)).toEqual(expect.arrayContaining(["user", "bob", "ops", "carol"]))
    expect(JSON.stringify(listed)).not.toContain(created.key)
    await expect(createApiKey({ dataDir: server.dataDir, name: " " })).rejects.toThrow(/--name/)
  })

  it("another key gets 404 for a job it does not own, on every job route", async () => {
    for (const path of ["", "/results", "/traces", "/events"]) {
      const response = await bob.get(`/api/eval/jobs/${aliceJob}${path}`)
      expect(response.status, path).toBe(404)
      expect((response.body as { error: { code: string } }).error.code).toBe("job_not_found")
    }
    expect((await bob.post(`/api/eval/jobs/${aliceJob}/cancel`)).status).toBe(404)
    // The same answer as for a job that does not exist: nothing tells the two apart.
    const missing = await bob.get("/api/eval/jobs/eval-ffffffffffffffffffffffff")
    const foreign = await bob.get(`/api/eval/jobs/${aliceJob}`)
    expect({ ...(foreign.body as object) }).toEqual({
      error: { ...(missing.body as { error: object }).error, message: expect.any(String) },
    })
  })

  it("each key lists only its own jobs; an admin key lists and reads everyone's", async () => {
    const aliceList = Schema.decodeUnknownSync(JobListResponse)((await alice.get("/api/eval/jobs")).body)
    expect(aliceList.jobs.map((job) => job.job_id)).toEqual([aliceJob])
    const bobList = Schema.decodeUnknownSync(JobListResponse)((await bob.get("/api/eval/jobs")).body)
    expect(bobList.jobs.map((job) => job.job_id)).toEqual([bobJob])
    const all = Schema.decodeUnknownSync(JobListResponse)((await admin.get("/api/eval/jobs")).body)
    expect(all.jobs.map((job) => job.job_id).sort()).toEqual([aliceJob, bobJob].sort())
    expect((await admin.get(`/api/eval/jobs/${aliceJob}`)).status).toBe(200)
    expect((await admin.get(`/api/eval/jobs/${bobJob}/results`)).status).toBe(200)
    expect((await admin.raw(`/api/eval/jobs/${bobJob}/traces`)).status).toBe(200)
  })

  it("401 without a key or with a bad one; a revoked key stops working at once", async () => {
    expect((await apiClient(server.url, null).get("/api/eval/jobs")).status).toBe(401)
    expect((await apiClient(server.url, "pk_nope").get("/api/eval/jobs")).status).toBe(401)
    const dave = await createApiKey({ dataDir: server.dataDir, name: "dave" })
    const client = apiClient(server.url, dave.key)
    expect((await client.get("/api/eval/jobs")).status).toBe(200)
    expect(await revokeApiKey({ dataDir: server.dataDir, id: dave.id })).toBe(true)
    const revoked = await client.get("/api/eval/jobs")
    expect(revoked.status).toBe(401)
    expect(revoked.headers.get("www-authenticate")).toMatch(/^Bearer/)
    expect(await revokeApiKey({ dataDir: server.dataDir, id: dave.id })).toBe(false)
  })
})
