import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { EvalResult } from "@proctor/core"
import { waitFor } from "@proctor/test-kit"
import { Schema } from "effect"
import { unzipSync } from "fflate"
import {
  API_DOCS_PATH,
  ErrorResponse,
  JobCreatedResponse,
  JobListResponse,
  JobResultsResponse,
  JobStatusResponse,
  registeredRoutes,
} from "../src/index.js"
import {
  apiClient,
  readEvents,
  startTestServer,
  startTestTaskApp,
  synthJobBody,
  TASK_APP_KEY,
  type TestServer,
  waitForJob,
} from "./api.harness.js"

type TaskApp = Awaited<ReturnType<typeof startTestTaskApp>>

const expectError = (response: { status: number; body: unknown }, status: number, field?: string) => {
  expect(response.status).toBe(status)
  const body = Schema.decodeUnknownSync(ErrorResponse)(response.body)
  if (field !== undefined) {
    expect(body.error.field === field || body.error.field?.startsWith(`${field}[`), body.error.field).toBe(true)
    expect(body.error.message).toContain(field)
  }
  return body
}

describe("eval job API contract", () => {
  let app: TaskApp
  let server: TestServer
  let client: ReturnType<typeof apiClient>

  beforeAll(async () => {
    app = await startTestTaskApp({ delayMs: 10 })
    server = await startTestServer()
    client = apiClient(server.url, server.userKey)
  })
  afterAll(async () => {
    await server.close()
    await app.close()
  })

  it("POST /api/eval/jobs → 200 {job_id, status}, committed before the answer", async () => {
    const created = await client.post("/api/eval/jobs", synthJobBody(app.url, [0, 1, 2]))
    expect(created.status).toBe(200)
    const body = Schema.decodeUnknownSync(JobCreatedResponse)(created.body)
    expect(body.status).toBe("pending")
    expect(body.job_id).toMatch(/^eval-[0-9a-f]{24}$/)
    // Readable at once, from the database.
    const status = await client.get(`/api/eval/jobs/${body.job_id}`)
    expect(status.status).toBe(200)
    await waitForJob(client, body.job_id)
  })

  it("GET /api/eval/jobs/{id} → synth-ai's status shape, progress and a secret-free config", async () => {
    const created = await client.post("/api/eval/jobs", synthJobBody(app.url, [0, 1, 2, 3]))
    const jobId = created.body.job_id as string
    await waitForJob(client, jobId)
    const { status, body } = await client.get(`/api/eval/jobs/${jobId}`)
    expect(status).toBe(200)
    const job = Schema.decodeUnknownSync(JobStatusResponse)(body)
    expect(Object.keys(body).sort()).toEqual(
      ["job_id", "status", "error", "created_at", "started_at", "completed_at", "config", "results"].sort(),
    )
    expect(job.status).toBe("completed")
    expect(job.error).toBeNull()
    expect(job.started_at).not.toBeNull()
    expect(job.completed_at).not.toBeNull()
    expect(job.results).toEqual({
      mean_score: 0.5,
      mean_reward: 0.5,
      total_tokens: 10 + 11 + 12 + 13,
      total_cost_usd: expect.closeTo(0.004, 10),
      completed: 4,
      total: 4,
    })
    // The config as the client sent it: no defaults it never chose (return_trace, attempts…), no key.
    const { task_app_api_key: _, ...sent } = synthJobBody(app.url, [0, 1, 2, 3])
    expect(job.config).toEqual(sent)
    expect(JSON.stringify(body)).not.toContain(TASK_APP_KEY)
    expect(JSON.stringify(body)).not.toContain("task_app_api_key")
  })

  it("GET /api/eval/jobs/{id} echoes nulls as sent and leaves secret-looking keys out", async () => {
    const body = synthJobBody(app.url, ["0-1"], {
      app_id: null,
      policy: { policy_name: "p", model: "gpt-4o-mini", api_key: "sk-policy-secret", temperature: null },
    })
    const created = await client.post("/api/eval/jobs", body)
    const jobId = created.body.job_id as string
    const { body: status } = await client.get(`/api/eval/jobs/${jobId}`)
    const { task_app_api_key: _, ...sent } = body
    expect(status.config).toEqual({ ...sent, policy: { policy_name: "p", model: "gpt-4o-mini", temperature: null } })
    expect(JSON.stringify(status)).not.toContain("sk-policy-secret")
    await waitForJob(client, jobId)
  })

  it("GET …/results → summary and every EvalResult row; JSONL by ?format= or Accept", async () => {
    const created = await client.post("/api/eval/jobs", synthJobBody(app.url, [5, 6, 7]))
    const jobId = created.body.job_id as string
    await waitForJob(client, jobId)

    const json = await client.get(`/api/eval/jobs/${jobId}/results`)
    expect(json.status).toBe(200)
    expect(json.headers.get("content-type")).toMatch(/^application\/json/)
    const results = Schema.decodeUnknownSync(JobResultsResponse)(json.body)
    expect(results.job_id).toBe(jobId)
    expect(results.status).toBe("completed")
    expect(results.summary).toEqual({
      mean_score: expect.closeTo(1 / 3, 10),
      mean_reward: expect.closeTo(1 / 3, 10),
      total_tokens: 15 + 16 + 17,
      total_cost_usd: expect.closeTo(0.003, 10),
      num_seeds: 3,
      num_successful: 3,
      num_failed: 0,
    })
    expect(results.results.map((row) => row.seed)).toEqual([5, 6, 7])
    expect(results.results.every((row) => row.trace === undefined)).toBe(true)
    // What the task app said about each rollout is kept beside its numbers.
    expect(results.results[0]).toMatchObject({
      details: { tokens: 15, cost_usd: 0.001 },
      final: { answer: 5 },
      info: { usage: { total_tokens: 15 } },
    })
    expect(results.run_summary?.is_valid).toBe(true)

    const byQuery = await client.raw(`/api/eval/jobs/${jobId}/results?format=jsonl`)
    expect(byQuery.headers.get("content-type")).toMatch(/^application\/x-ndjson/)
    const lines = (await byQuery.text()).trim().split("\n")
    expect(lines.map((line) => Schema.decodeUnknownSync(EvalResult)(JSON.parse(line)).seed)).toEqual([5, 6, 7])

    const byAccept = await client.raw(`/api/eval/jobs/${jobId}/results`, {
      headers: { accept: "application/x-ndjson" },
    })
    expect(byAccept.headers.get("content-type")).toMatch(/^application\/x-ndjson/)
    expect((await byAccept.text()).trim().split("\n")).toHaveLength(3)

    expectError(await client.get(`/api/eval/jobs/${jobId}/results?format=xml`), 400, "format")
  })

  it("GET …/traces → application/zip of seed_{seed}_trace.json files", async () => {
    const created = await client.post("/api/eval/jobs", synthJobBody(app.url, [1, 2]))
    const jobId = created.body.job_id as string
    await waitForJob(client, jobId)
    const response = await client.raw(`/api/eval/jobs/${jobId}/traces`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/zip")
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
    expect(Object.keys(files).sort()).toEqual(["seed_1_trace.json", "seed_2_trace.json"])
    const trace = JSON.parse(new TextDecoder().decode(files["seed_1_trace.json"]))
    expect(trace.metadata.seed).toBe(1)
  })

  it("traces of a job with several attempts name the attempt", async () => {
    const created = await client.post("/api/eval/jobs", synthJobBody(app.url, [3], { attempts: 2 }))
    const jobId = created.body.job_id as string
    await waitForJob(client, jobId)
    const files = unzipSync(new Uint8Array(await (await client.raw(`/api/eval/jobs/${jobId}/traces`)).arrayBuffer()))
    expect(Object.keys(files).sort()).toEqual(["seed_3_attempt_0_trace.json", "seed_3_attempt_1_trace.json"])
  })

  it("cluster_by names a field of the task app's details that clusters the job's error bar", async () => {
    const created = await client.post(
      "/api/eval/jobs",
      synthJobBody(app.url, [5, 6], { attempts: 2, cluster_by: "tokens" }),
    )
    const jobId = created.body.job_id as string
    await waitForJob(client, jobId)
    const results = Schema.decodeUnknownSync(JobResultsResponse)(
      (await client.get(`/api/eval/jobs/${jobId}/results`)).body,
    )
    expect(results.results.map((row) => row.cluster).sort()).toEqual(["15", "15", "16", "16"])
    expect(results.run_summary?.metrics).toMatchObject({ estimator: "clustered_by:tokens", n_clusters: 2 })
    expect((await client.get(`/api/eval/jobs/${jobId}`)).body.config).toMatchObject({ cluster_by: "tokens" })
  })

  it("GET /api/eval/jobs → newest first, cursor pagination, status filter; 400 naming a bad parameter", async () => {
    const ids: Array<string> = []
    for (let i = 0; i < 3; i++) {
      ids.push((await client.post("/api/eval/jobs", synthJobBody(app.url, [i]))).body.job_id as string)
    }
    for (const id of ids) await waitForJob(client, id)
    const first = await client.get("/api/eval/jobs?limit=2")
    expect(first.status).toBe(200)
    const page1 = Schema.decodeUnknownSync(JobListResponse)(first.body)
    expect(page1.jobs.map((job) => job.job_id)).toEqual([ids[2], ids[1]])
    expect(page1.next_cursor).not.toBeNull()
    const page2 = Schema.decodeUnknownSync(JobListResponse)(
      (await client.get(`/api/eval/jobs?limit=2&cursor=${page1.next_cursor}`)).body,
    )
    expect(page2.jobs[0]?.job_id).toBe(ids[0])
    const seen = new Set<string>()
    let cursor: string | null = null
    do {
      const page = Schema.decodeUnknownSync(JobListResponse)(
        (await client.get(`/api/eval/jobs?limit=1${cursor === null ? "" : `&cursor=${cursor}`}`)).body,
      )
      for (const job of page.jobs) {
        expect(seen.has(job.job_id)).toBe(false)
        seen.add(job.job_id)
      }
      cursor = page.next_cursor
    } while (cursor !== null)
    for (const id of ids) expect(seen.has(id)).toBe(true)

    const completed = Schema.decodeUnknownSync(JobListResponse)(
      (await client.get("/api/eval/jobs?status=completed")).body,
    )
    expect(completed.jobs.every((job) => job.status === "completed")).toBe(true)
    const none = Schema.decodeUnknownSync(JobListResponse)(
      (await client.get("/api/eval/jobs?status=cancelled,failed")).body,
    )
    expect(none.jobs.every((job) => job.status === "cancelled" || job.status === "failed")).toBe(true)

    expectError(await client.get("/api/eval/jobs?limit=0"), 400, "limit")
    expectError(await client.get("/api/eval/jobs?limit=abc"), 400, "limit")
    expectError(await client.get("/api/eval/jobs?status=done"), 400, "status")
    expectError(await client.get("/api/eval/jobs?cursor=not-a-cursor"), 400, "cursor")
  })

  it("GET …/events → live progress and the end; a finished job replays its end state", async () => {
    const slow = await startTestTaskApp({ delayMs: 150 })
    try {
      const created = await client.post("/api/eval/jobs", synthJobBody(slow.url, [0, 1, 2, 3], { max_concurrent: 2 }))
      const jobId = created.body.job_id as string
      const live = await readEvents(`${server.url}/api/eval/jobs/${jobId}/events`, server.userKey)
      expect(live[0]?.type).toBe("job.status")
      const completedSeeds = live.filter((event) => event.type === "seed.completed")
      expect(completedSeeds.length).toBeGreaterThan(0)
      for (const event of completedSeeds) expect(event.data.total).toBe(4)
      const last = live[live.length - 1]!
      expect(last.type).toBe("job.completed")
      expect(last.data).toMatchObject({ status: "completed", completed: 4, total: 4 })
      expect(JSON.stringify(live)).not.toContain(TASK_APP_KEY)

      const replay = await readEvents(`${server.url}/api/eval/jobs/${jobId}/events`, server.userKey)
      expect(replay.map((event) => event.type)).toEqual(["job.status", "job.completed"])
      const alias = await readEvents(`${server.url}/api/eval/jobs/${jobId}/events/stream`, server.userKey)
      expect(alias.map((event) => event.type)).toEqual(["job.status", "job.completed"])
    } finally {
      await slow.close()
    }
  })

  it("POST …/cancel → a running job ends cancelled and keeps its finished rows; an ended job is unchanged", async () => {
    const gated = await startTestTaskApp({ gateFrom: 2 })
    try {
      const created = await client.post(
        "/api/eval/jobs",
        synthJobBody(gated.url, [0, 1, 2, 3, 4], { max_concurrent: 2 }),
      )
      const jobId = created.body.job_id as string
      await waitFor("two rollouts", async () => {
        const { body } = await client.get(`/api/eval/jobs/${jobId}`)
        return (body.results as { completed: number }).completed >= 2 ? true : undefined
      })
      const cancelled = await client.post(`/api/eval/jobs/${jobId}/cancel`, { reason: "enough" })
      expect(cancelled.status).toBe(200)
      const job = Schema.decodeUnknownSync(JobStatusResponse)(cancelled.body)
      expect(job.status).toBe("cancelled")
      expect(job.completed_at).not.toBeNull()
      const results = Schema.decodeUnknownSync(JobResultsResponse)(
        (await client.get(`/api/eval/jobs/${jobId}/results`)).body,
      )
      expect(results.results.map((row) => row.seed).slice(0, 2)).toEqual([0, 1])
      // Cancelling again, or cancelling a completed job, changes nothing.
      expect((await client.post(`/api/eval/jobs/${jobId}/cancel`)).body.status).toBe("cancelled")
      const done = await client.post("/api/eval/jobs", synthJobBody(app.url, [9]))
      await waitForJob(client, done.body.job_id as string)
      expect((await client.post(`/api/eval/jobs/${done.body.job_id}/cancel`)).body.status).toBe("completed")
    } finally {
      gated.open()
      await gated.close()
    }
  })

  it("a job whose every rollout fails ends `failed` with the reason", async () => {
    const body = { ...synthJobBody(app.url, [0, 1]), task_app_api_key: "wrong-key" }
    const created = await client.post("/api/eval/jobs", body)
    const job = await waitForJob(client, created.body.job_id as string)
    expect(job.status).toBe("failed")
    expect(job.error).toMatch(/every rollout failed \(auth ×2\)/)
    const results = Schema.decodeUnknownSync(JobResultsResponse)(
      (await client.get(`/api/eval/jobs/${created.body.job_id}/results`)).body,
    )
    expect(results.summary.num_failed).toBe(2)
  })

  it("404 for an unknown job on every job route; 404 JSON for an unknown route", async () => {
    for (const path of ["", "/results", "/traces", "/events"]) {
      expectError(await client.get(`/api/eval/jobs/eval-000000000000000000000000${path}`), 404)
    }
    expectError(await client.post("/api/eval/jobs/eval-000000000000000000000000/cancel"), 404)
    expectError(await client.get(`/api/eval/jobs/${"x".repeat(300)}`), 404)
    expectError(await client.get("/api/nope"), 404)
  })

  it("400 naming the field for every kind of bad body", async () => {
    const ok = synthJobBody(app.url, [1])
    const cases: ReadonlyArray<[unknown, string]> = [
      [{ ...ok, task_app_url: undefined }, "task_app_url"],
      [{ ...ok, task_app_url: "ftp://example.com" }, "task_app_url"],
      [{ ...ok, task_app_url: 42 }, "task_app_url"],
      [{ ...ok, seeds: undefined }, "seeds"],
      [{ ...ok, seeds: [] }, "seeds"],
      [{ ...ok, seeds: [1.5] }, "seeds"],
      [{ ...ok, seeds: ["x-y"] }, "seeds"],
      [{ ...ok, seeds: "0-100000" }, "seeds"],
      [{ ...ok, seeds: { a: 1 } }, "seeds"],
      [{ ...ok, max_concurrent: 0 }, "max_concurrent"],
      [{ ...ok, max_concurrent: 100_000 }, "max_concurrent"],
      [{ ...ok, max_concurrent: "4" }, "max_concurrent"],
      [{ ...ok, timeout: -1 }, "timeout"],
      [{ ...ok, attempts: 1000 }, "attempts"],
      [{ ...ok, max_retries: -1 }, "max_retries"],
      [{ ...ok, return_trace: "yes" }, "return_trace"],
      [{ ...ok, trace_format: "xml" }, "trace_format"],
      [{ ...ok, policy: [] }, "policy"],
      [{ ...ok, policy: { ...ok.policy, model: 3 } }, "policy.model"],
      [{ ...ok, env_config: "easy" }, "env_config"],
      [{ ...ok, app_id: "a".repeat(300) }, "app_id"],
      [{ ...ok, task_app_api_key: 123 }, "task_app_api_key"],
      [{ ...ok, policy: JSON.parse(`${'{"a":'.repeat(40)}1${"}".repeat(40)}`) }, "policy"],
      [[1, 2, 3], "body"],
      ["just a string", "body"],
    ]
    for (const [body, field] of cases) {
      const response = await client.post("/api/eval/jobs", JSON.stringify(body))
      expectError(response, 400, field)
    }
    expectError(await client.post("/api/eval/jobs", "{not json"), 400, "body")
    expectError(await client.post("/api/eval/jobs", ""), 400, "body")
    // Several wrong fields are all listed.
    const several = expectError(
      await client.post("/api/eval/jobs", { ...ok, seeds: true, max_concurrent: -3, timeout: "x" }),
      400,
    )
    expect(several.error.issues?.map((issue) => issue.field).sort()).toEqual(["max_concurrent", "seeds", "timeout"])
    // nulls mean "not given", as synth-ai sends them.
    const nulls = await client.post("/api/eval/jobs", {
      ...ok,
      app_id: null,
      env_name: null,
      task_app_api_key: TASK_APP_KEY,
      env_config: null,
      mode: null,
      verifier_config: null,
      policy: { model: "m", policy_name: null },
    })
    expect(nulls.status).toBe(200)
    await waitForJob(client, nulls.body.job_id as string)
  })

  it("413 for a body over 1 MB, 415 for a body that is not JSON", async () => {
    const big = { ...synthJobBody(app.url, [1]), env_config: { blob: "x".repeat(1_100_000) } }
    expectError(await client.post("/api/eval/jobs", big), 413, "body")
    const xml = await client.raw("/api/eval/jobs", {
      method: "POST",
      headers: { "content-type": "application/xml" },
      body: "<job/>",
    })
    expect(xml.status).toBe(415)
    expect(((await xml.json()) as { error: { field: string } }).error.field).toBe("content-type")
  })

  it("400 naming the key for a __proto__ key anywhere in the body, and where malformed JSON broke", async () => {
    const body = `{"seeds":[0],"task_app_url":"${app.url}","env_config":{"a":{"__proto__":{"polluted":1}}}}`
    const response = await client.raw("/api/eval/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    })
    expect(response.status).toBe(400)
    const { error } = (await response.json()) as { error: { field: string; message: string } }
    expect(error.field).toBe("body")
    expect(error.message).toContain('"__proto__"')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const broken = await client.raw("/api/eval/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"seeds":[0],}',
    })
    expect(broken.status).toBe(400)
    expect(((await broken.json()) as { error: { message: string } }).error.message).toMatch(
      /^body: not valid JSON \(.*position 13/,
    )
  })

  it("401 JSON without a key, with a malformed key, with an unknown key — on every API route", async () => {
    const paths: ReadonlyArray<["GET" | "POST", string]> = [
      ["POST", "/api/eval/jobs"],
      ["GET", "/api/eval/jobs"],
      ["GET", "/api/eval/jobs/eval-1"],
      ["GET", "/api/eval/jobs/eval-1/results"],
      ["GET", "/api/eval/jobs/eval-1/traces"],
      ["GET", "/api/eval/jobs/eval-1/events"],
      ["POST", "/api/eval/jobs/eval-1/cancel"],
    ]
    const unknownKey = `pk_${"A".repeat(43)}`
    for (const auth of [null, "Bearer", "Bearer not-a-key", `Bearer ${unknownKey}`, `Basic ${server.userKey}`]) {
      for (const [method, path] of paths) {
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: { "content-type": "application/json", ...(auth === null ? {} : { authorization: auth }) },
          ...(method === "POST" ? { body: JSON.stringify(synthJobBody(app.url, [1])) } : {}),
        })
        expect(response.status, `${auth} ${method} ${path}`).toBe(401)
        const body = Schema.decodeUnknownSync(ErrorResponse)(await response.json())
        expect(body.error.code).toBe(auth === null ? "missing_api_key" : "invalid_api_key")
      }
    }
  })

  it("GET /api/openapi.json documents every route with schemas generated from the Schemas", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      openapi: string
      paths: Record<string, Record<string, unknown>>
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: Array<string> }> }
    }
    expect(doc.openapi).toBe("3.1.0")
    // Every route the server serves, read from its router; /docs's own scripts and styles are the page's, not API.
    const served = registeredRoutes(server.server.app)
      .filter((route) => !route.path.startsWith(`${API_DOCS_PATH}/`))
      .map((route) => `${route.method} ${route.path}`)
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(documented.sort()).toEqual(served.sort())
    expect(served).toEqual(
      expect.arrayContaining(["POST /api/eval/jobs", "GET /api/eval/jobs/{id}/results", "GET /docs"]),
    )
    const request = doc.components.schemas.JobCreateRequest!
    expect(Object.keys(request.properties ?? {})).toEqual(
      expect.arrayContaining([
        "task_app_url",
        "task_app_api_key",
        "app_id",
        "env_name",
        "seeds",
        "policy",
        "env_config",
        "mode",
        "max_concurrent",
        "timeout",
        "attempts",
        "max_retries",
        "return_trace",
        "trace_format",
        "pass_threshold",
        "cluster_by",
        "tasks",
        "agent",
        "sandbox",
      ]),
    )
    // task_app_url is required unless the job is an agent job (`tasks`): the route says so when both are missing.
    expect(request.required).toEqual(["seeds"])
    expect(Object.keys(doc.components.schemas.JobStatusResponse?.properties ?? {})).toEqual(
      expect.arrayContaining([
        "job_id",
        "status",
        "error",
        "created_at",
        "started_at",
        "completed_at",
        "config",
        "results",
      ]),
    )
    // Every $ref resolves.
    for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      expect(doc.components.schemas[ref[1]!], ref[1]).toBeDefined()
    }
  })

  it("/healthz, /readyz and /metrics", async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok" })
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok" } })
    const metrics = await fetch(`${server.url}/metrics`)
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain/)
    const text = await metrics.text()
    expect(text).toMatch(/^proctor_jobs\{status="completed"\} [1-9]/m)
    expect(text).toMatch(/^proctor_rollouts_total\{status="ok"\} [1-9]/m)
    expect(text).toMatch(/^proctor_rollout_latency_seconds_count [1-9]/m)
    expect(text).toMatch(/^proctor_tokens_total [1-9]/m)
    expect(text).toMatch(/^proctor_model_calls_total \d+/m)
    expect(text).toMatch(/^proctor_rollout_retries_total \d+/m)
    expect(text).toMatch(/^proctor_cost_usd_total [0-9.e-]+/m)
    // An embedded server has no cluster: nothing about Redis, queues or workers.
    expect(text).not.toMatch(/^proctor_(cluster|queue|workers?|leases)_/m)
  })

  it("the task-app key is sealed at rest and deleted when the job ends", async () => {
    const created = await client.post("/api/eval/jobs", synthJobBody(app.url, [4]))
    await waitForJob(client, created.body.job_id as string)
    for (const file of readdirSync(server.dataDir)) {
      if (file === "secret.key") continue
      expect(readFileSync(join(server.dataDir, file)).includes(TASK_APP_KEY), file).toBe(false)
    }
  })
})

describe("limits", () => {
  it("429 with Retry-After when a key's token bucket is empty", async () => {
    const server = await startTestServer({ rateLimit: { burst: 3, perSecond: 1 } })
    try {
      const client = apiClient(server.url, server.userKey)
      const statuses: Array<number> = []
      let limited: Awaited<ReturnType<typeof client.get>> | null = null
      for (let i = 0; i < 5; i++) {
        const response = await client.get("/api/eval/jobs")
        statuses.push(response.status)
        if (response.status === 429) limited = response
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200])
      expect(statuses).toContain(429)
      expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      expectError(limited!, 429)
    } finally {
      await server.close()
    }
  })

  it("429 when a key already has its quota of jobs pending or running", async () => {
    const gated = await startTestTaskApp({ gateFrom: 0 })
    const server = await startTestServer({ maxActiveJobsPerKey: 2 })
    try {
      const client = apiClient(server.url, server.userKey)
      expect((await client.post("/api/eval/jobs", synthJobBody(gated.url, [1]))).status).toBe(200)
      expect((await client.post("/api/eval/jobs", synthJobBody(gated.url, [2]))).status).toBe(200)
      const third = expectError(await client.post("/api/eval/jobs", synthJobBody(gated.url, [3])), 429)
      expect(third.error.code).toBe("job_quota_exceeded")
    } finally {
      gated.open()
      await server.close()
      await gated.close()
    }
  })

  it("seeds over the server's limit are refused before they are expanded", async () => {
    const server = await startTestServer({ maxSeedsPerJob: 10 })
    try {
      const client = apiClient(server.url, server.userKey)
      const response = expectError(
        await client.post("/api/eval/jobs", synthJobBody("http://127.0.0.1:9", ["0-999999999999"])),
        400,
        "seeds",
      )
      expect(response.error.message).toContain("more than 10 seeds")
    } finally {
      await server.close()
    }
  })

  it("403 naming task_app_url outside the allow-list; hosts on it are taken", async () => {
    const app = await startTestTaskApp()
    const server = await startTestServer({ allowedTaskAppHosts: ["127.0.0.1", "*.tasks.internal"] })
    try {
      const client = apiClient(server.url, server.userKey)
      const denied = expectError(
        await client.post("/api/eval/jobs", synthJobBody("http://169.254.169.254/latest", [1])),
        403,
        "task_app_url",
      )
      expect(denied.error.code).toBe("host_not_allowed")
      const allowed = await client.post("/api/eval/jobs", synthJobBody(app.url, [1]))
      expect(allowed.status).toBe(200)
      await waitForJob(client, allowed.body.job_id as string)
    } finally {
      await server.close()
      await app.close()
    }
  })
})
