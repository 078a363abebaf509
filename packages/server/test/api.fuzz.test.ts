import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { apiClient, startTestServer, startTestTaskApp, synthJobBody, type TestServer } from "./api.harness.js"

/**
 * Property: no payload — arbitrary JSON, a valid body with any field replaced by anything, raw bytes — makes
 * the server answer 5xx or stop answering. Every refusal is a JSON 4xx that names a field.
 */
describe("fuzzing POST /api/eval/jobs", () => {
  let app: Awaited<ReturnType<typeof startTestTaskApp>>
  let server: TestServer
  let client: ReturnType<typeof apiClient>
  const statuses = new Map<number, number>()

  beforeAll(async () => {
    app = await startTestTaskApp()
    server = await startTestServer({
      // Valid bodies the fuzzer finds run for real, so they may only reach the local task app, and stay small.
      allowedTaskAppHosts: ["127.0.0.1"],
      maxSeedsPerJob: 20,
      maxActiveJobsPerKey: 100_000,
      maxRunningJobs: 2,
      maxConcurrency: 8,
    })
    client = apiClient(server.url, server.userKey)
  })
  // Each case stands alone: it counts its own answers (every one under 500, checked as it comes) and ends with
  // the server still answering.
  beforeEach(() => statuses.clear())
  afterEach(async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
  afterAll(async () => {
    await server.close()
    await app.close()
  })

  const post = async (body: string, contentType = "application/json") => {
    const response = await client.raw("/api/eval/jobs", {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    })
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
    const text = await response.text()
    expect(response.status, text).toBeLessThan(500)
    const parsed = JSON.parse(text) as { job_id?: string; error?: { code: string; message: string; field?: string } }
    if (response.status === 200) {
      expect(parsed.job_id).toMatch(/^eval-/)
    } else {
      expect([400, 403, 413, 415]).toContain(response.status)
      expect(typeof parsed.error?.code).toBe("string")
      expect(typeof parsed.error?.field).toBe("string")
      expect(parsed.error?.message).toContain(parsed.error?.field)
    }
    return response.status
  }

  const anyJson = fc.jsonValue({ maxDepth: 6 })

  it("arbitrary JSON bodies", async () => {
    await fc.assert(
      fc.asyncProperty(anyJson, async (value) => void (await post(JSON.stringify(value)))),
      {
        numRuns: 300,
      },
    )
  })

  const fields = [
    "task_app_url",
    "task_app_api_key",
    "app_id",
    "env_name",
    "seeds",
    "policy",
    "env_config",
    "mode",
    "max_concurrent",
    "concurrency",
    "timeout",
    "attempts",
    "max_retries",
    "return_trace",
    "trace_format",
    "pass_threshold",
    "ops",
    "unknown_extra",
  ] as const

  const weird = fc.oneof(
    anyJson,
    fc.constantFrom(
      null,
      -1,
      0,
      1e308,
      -1e308,
      2 ** 53 + 2,
      "",
      "0-20",
      "0-99999999999999999",
      "http://127.0.0.1:1",
      "http://[::1]:1/",
      "http://169.254.169.254/",
      "javascript:alert(1)",
      "\u0000",
      "é".repeat(300),
      [],
      {},
      { __proto__: null },
      { constructor: { prototype: {} } },
      [1, "2-4", -3],
      ["10-5"],
    ),
  )

  it("a valid synth-ai body with fields replaced by anything", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...fields), weird, { maxKeys: 4 }),
        fc.boolean(),
        async (changes, drop) => {
          const body: Record<string, unknown> = { ...synthJobBody(app.url, [1, 2]), max_concurrent: 2, timeout: 5 }
          for (const [field, value] of Object.entries(changes)) {
            if (drop && value === null) delete body[field]
            else body[field] = value
          }
          await post(JSON.stringify(body))
        },
      ),
      { numRuns: 400 },
    )
    // The fuzzer reached both sides of the line.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0)
  })

  it("valid bodies across the whole input space are accepted", async () => {
    // A "__proto__" key is refused wherever it appears (its own test in api.contract), so valid bodies have none.
    const key = fc.string({ maxLength: 8 }).filter((k) => k !== "__proto__")
    const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small", maxDepth: 3 },
        fc.constantFrom(null, true, false),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    })).value
    const seedsArb = fc.oneof(
      fc.array(fc.integer({ min: -1_000, max: 1_000 }), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 0, max: 5 }).map((n) => `0-${n}`),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            seeds: seedsArb,
            max_concurrent: fc.integer({ min: 1, max: 8 }),
            timeout: fc.double({ min: 0.5, max: 30, noNaN: true }),
            attempts: fc.integer({ min: 1, max: 2 }),
            max_retries: fc.integer({ min: 0, max: 2 }),
            return_trace: fc.boolean(),
            trace_format: fc.constantFrom("compact", "full", "structured"),
            pass_threshold: fc.double({ min: -1, max: 2, noNaN: true }),
            app_id: fc.option(fc.string({ maxLength: 20 })),
            env_name: fc.option(fc.string({ maxLength: 20 })),
            mode: fc.option(fc.constantFrom("eval", "rl")),
            policy: fc.option(fc.dictionary(key, jsonValue, { maxKeys: 4 })),
            env_config: fc.option(fc.dictionary(key, jsonValue, { maxKeys: 4 })),
          },
          { requiredKeys: ["seeds"] },
        ),
        async (fields) => {
          const status = await post(JSON.stringify({ ...fields, task_app_url: app.url }))
          expect(status).toBe(200)
        },
      ),
      { numRuns: 60 },
    )
  })

  it("raw bytes and odd content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 100 })),
        fc.constantFrom(
          "application/json",
          "text/plain",
          "application/json; charset=latin1",
          "application/x-www-form-urlencoded",
        ),
        async (body, contentType) => void (await post(body, contentType)),
      ),
      { numRuns: 200 },
    )
  })

  it("deep nesting, huge arrays and big numbers", async () => {
    const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`
    for (const body of [
      deep(10_000),
      `{"seeds":[1],"task_app_url":"${app.url}","policy":${`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`}}`,
      JSON.stringify({
        ...synthJobBody(
          app.url,
          Array.from({ length: 100_000 }, (_, i) => i),
        ),
      }),
      `{"seeds":[1e999],"task_app_url":"${app.url}"}`,
      `{"seeds":[1],"task_app_url":"${app.url}","__proto__":{"admin":true}}`,
      `{"seeds":[1],"task_app_url":"${app.url}","constructor":{"prototype":{"admin":true}}}`,
    ]) {
      await post(body)
    }
  })

  it("query strings and job ids on the read routes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 120 }),
        async (status, limit, cursor, id) => {
          const query = new URLSearchParams({ status, limit, cursor }).toString()
          const list = await client.raw(`/api/eval/jobs?${query}`)
          expect(list.status).toBeLessThan(500)
          for (const path of ["", "/results?format=x", "/traces"]) {
            const response = await client.raw(`/api/eval/jobs/${encodeURIComponent(id)}${path}`)
            expect(response.status, `${id}${path}`).toBeLessThan(500)
            await response.arrayBuffer()
          }
        },
      ),
      { numRuns: 100 },
    )
  })
})
