import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createTaskApp } from "@proctor/task-app"
import { waitFor } from "@proctor/test-kit"
import { unzipSync } from "fflate"
import { apiClient, startTestServer, TASK_APP_KEY, type TestServer, waitForJob } from "./api.harness.js"

const UPSTREAM_KEY = "sk-upstream-model-key-do-not-leak"

/** An OpenAI-compatible model that answers every chat call with fixed usage, and notes the key it was sent. */
const startModel = async () => {
  const authorizations: Array<string | undefined> = []
  const server: Server = createServer((req: IncomingMessage, res) => {
    authorizations.push(req.headers.authorization)
    req.resume()
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(
        JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          model: "gpt-4o-mini",
          choices: [{ index: 0, message: { role: "assistant", content: "4" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    authorizations,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/** What these tests read of a job's results: its run summary's cost. */
type RunSummaryOf = { run_summary: { cost_usd: { total: number | null; price_table?: string } } }

describe("jobs through the inference interceptor mounted on the job server", () => {
  let model: Awaited<ReturnType<typeof startModel>>
  /** Submits a one-seed job of the task app at `appUrl`, its policy's calls to the model with the upstream key. */
  const submitJob = async (client: ReturnType<typeof apiClient>, appUrl: string, appId: string, seed: number) => {
    const created = await client.post("/api/eval/jobs", {
      task_app_url: appUrl,
      task_app_api_key: TASK_APP_KEY,
      app_id: appId,
      seeds: [seed],
      policy: { model: "gpt-4o-mini", provider: "openai", inference_url: model.url, api_key: UPSTREAM_KEY },
      timeout: 30,
    })
    return created.body.job_id as string
  }
  let server: TestServer
  let taskApp: { url: string; close: () => Promise<void> }
  const policiesSeen: Array<Record<string, unknown>> = []

  beforeAll(async () => {
    model = await startModel()
    server = await startTestServer()
    // A task app that calls the model it is pointed at, twice per rollout, as an agent would.
    taskApp = await createTaskApp({
      appId: "agent",
      name: "Agent",
      taskset: {},
      apiKey: TASK_APP_KEY,
      rollout: async (request) => {
        const config = request.policy.config as Record<string, unknown>
        policiesSeen.push(config)
        const url = `${String(config.inference_url)}/chat/completions`
        for (let turn = 0; turn < 2; turn++) {
          const response = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ model: config.model, messages: [{ role: "user", content: "2+2?" }] }),
          })
          if (!response.ok) throw new Error(`model answered ${response.status}`)
          await response.json()
        }
        return { score: 1 }
      },
    }).listen()
  })
  afterAll(async () => {
    await server.close()
    await taskApp.close()
    await model.close()
  })

  it("tokens, cost and traces are measured on the wire; the model key never reaches the task app or the API", async () => {
    const client = apiClient(server.url, server.userKey)
    const created = await client.post("/api/eval/jobs", {
      task_app_url: taskApp.url,
      task_app_api_key: TASK_APP_KEY,
      app_id: "agent",
      seeds: [0, 1, 2],
      policy: {
        model: "gpt-4o-mini",
        provider: "openai",
        inference_url: model.url,
        api_key: UPSTREAM_KEY,
        policy_name: "p",
      },
      max_concurrent: 3,
      timeout: 30,
    })
    expect(created.status).toBe(200)
    const jobId = created.body.job_id as string
    const done = await waitForJob(client, jobId)
    expect(done.status).toBe("completed")

    // The task app was handed the interceptor's URL (with a correlation id), and no key.
    expect(policiesSeen).toHaveLength(3)
    for (const policy of policiesSeen) {
      expect(String(policy.inference_url)).toMatch(new RegExp(`^${server.url}/interceptor/cid_[0-9a-f]+/v1$`))
      expect(policy.api_key).toBeUndefined()
    }
    // The interceptor sent the policy's key upstream.
    expect(model.authorizations).toHaveLength(6)
    expect(model.authorizations.every((header) => header === `Bearer ${UPSTREAM_KEY}`)).toBe(true)

    // Tokens and cost come from the calls: 2 calls × 10 tokens, priced at gpt-4o-mini's list price.
    const results = (await client.get(`/api/eval/jobs/${jobId}/results`)).body as {
      results: Array<{ tokens: number; cost_usd: number }>
      summary: { total_tokens: number; total_cost_usd: number }
    }
    const perCall = 7 * 1.5e-7 + 3 * 6e-7
    for (const row of results.results) {
      expect(row.tokens).toBe(20)
      expect(row.cost_usd).toBeCloseTo(2 * perCall, 12)
    }
    expect(results.summary.total_tokens).toBe(60)
    expect(results.summary.total_cost_usd).toBeCloseTo(6 * perCall, 12)
    // Priced from the maintained table alone (the server was given no prices), and its summary says so.
    const { run_summary } = (await client.get(`/api/eval/jobs/${jobId}/results`)).body as RunSummaryOf
    expect(run_summary.cost_usd.price_table).toMatch(/^@pydantic\/genai-prices /)

    // Traces are assembled from the calls.
    const zip = unzipSync(new Uint8Array(await (await client.raw(`/api/eval/jobs/${jobId}/traces`)).arrayBuffer()))
    expect(Object.keys(zip).sort()).toEqual(["seed_0_trace.json", "seed_1_trace.json", "seed_2_trace.json"])
    const trace = new TextDecoder().decode(zip["seed_1_trace.json"])
    expect(trace).toContain("gpt-4o-mini")
    expect(trace).not.toContain(UPSTREAM_KEY)

    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    expect(metrics).toMatch(/^proctor_model_calls_total 6$/m)

    for (const path of ["", "/results", "/events"]) {
      const response = await client.raw(`/api/eval/jobs/${jobId}${path}`)
      expect(await response.text()).not.toContain(UPSTREAM_KEY)
    }
  })

  it("the dashboard's rollouts in flight show what their model calls have spent so far", async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    // One model call, then the rollout waits: its spend so far is that call's.
    const slowApp = await createTaskApp({
      appId: "slow",
      name: "Slow",
      taskset: {},
      apiKey: TASK_APP_KEY,
      rollout: async (request) => {
        const config = request.policy.config as Record<string, unknown>
        await fetch(`${String(config.inference_url)}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: config.model, messages: [{ role: "user", content: "2+2?" }] }),
        })
        await held
        return { score: 1 }
      },
    }).listen()
    try {
      const client = apiClient(server.url, server.userKey)
      const jobId = await submitJob(client, slowApp.url, "slow", 5)
      type Live = { inflight: Array<{ seed: number; tokens: number | null; cost_usd: number | null }> }
      const live = await waitFor("the held rollout's call in the live view", async () => {
        const answer = await client.get<Live>(`/api/eval/jobs/${jobId}/view/runs/0/live`)
        const spent = answer.status === 200 ? answer.body.inflight.find((item) => item.tokens !== null) : undefined
        return spent
      })
      expect(live).toMatchObject({ seed: 5, tokens: 10 })
      expect(live.cost_usd).toBeCloseTo(7 * 1.5e-7 + 3 * 6e-7, 12)
      release()
      expect((await waitForJob(client, jobId)).status).toBe("completed")
    } finally {
      release()
      await slowApp.close()
    }
  })

  it("a server given prices (serve --pricing) prices its jobs' calls with them, and their summaries name them", async () => {
    const priced = await startTestServer({
      pricingOverrides: [{ provider: null, model: "gpt-4o-mini", price: { input: 1e-6, output: 2e-6 } }],
    })
    try {
      const client = apiClient(priced.url, priced.userKey)
      const jobId = await submitJob(client, taskApp.url, "agent", 0)
      expect((await waitForJob(client, jobId)).status).toBe("completed")
      const { run_summary } = (await client.get(`/api/eval/jobs/${jobId}/results`)).body as RunSummaryOf
      // 2 calls × (7 prompt tokens at 1e-6 + 3 completion tokens at 2e-6).
      expect(run_summary.cost_usd.total).toBeCloseTo(2 * (7e-6 + 6e-6), 12)
      expect(run_summary.cost_usd.price_table).toMatch(/^1 given price first, then @pydantic\/genai-prices /)
    } finally {
      await priced.close()
    }
  })

  it("an unknown correlation id gets the interceptor's 404, not the job API's", async () => {
    const response = await fetch(`${server.url}/interceptor/cid_0000/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    })
    expect(response.status).toBe(404)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unknown_correlation_id")
  })
})
