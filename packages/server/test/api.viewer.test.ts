import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { createApiKey } from "../src/index.js"
import {
  apiClient,
  startTestServer,
  startTestTaskApp,
  synthJobBody,
  type TestServer,
  waitForJob,
} from "./api.harness.js"

type Rows = { rows: Array<{ seed: number; status: string; passed: boolean | null }>; next: number; complete: boolean }

/** Reads an event stream until `text` has arrived. */
const readUntil = async (reader: ReadableStreamDefaultReader<Uint8Array>, text: string) => {
  const decoder = new TextDecoder()
  let seen = ""
  while (!seen.includes(text)) {
    const { value, done } = await reader.read()
    if (done) break
    seen += decoder.decode(value, { stream: true })
  }
  return seen
}

describe("the dashboard and each job's viewer API", () => {
  let app: Awaited<ReturnType<typeof startTestTaskApp>>
  let gated: Awaited<ReturnType<typeof startTestTaskApp>>
  let server: TestServer
  let alice: ReturnType<typeof apiClient>
  let bob: ReturnType<typeof apiClient>
  let admin: ReturnType<typeof apiClient>
  let aliceJob: string

  beforeAll(async () => {
    app = await startTestTaskApp()
    gated = await startTestTaskApp({ gateFrom: 2 })
    server = await startTestServer()
    alice = apiClient(server.url, server.userKey)
    bob = apiClient(server.url, (await createApiKey({ dataDir: server.dataDir, name: "bob" })).key)
    admin = apiClient(server.url, (await createApiKey({ dataDir: server.dataDir, name: "ops", admin: true })).key)
    aliceJob = (await alice.post("/api/eval/jobs", synthJobBody(app.url, [0, 1, 2]))).body.job_id as string
    await waitForJob(alice, aliceJob)
  })
  afterAll(async () => {
    await server.close()
    await app.close()
    await gated.close()
  })

  it("serves the page at / in server mode, without a key (the page asks for one)", async () => {
    const page = await fetch(server.url)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await page.text()).toContain('{"mode":"server","base":"api"}')
  })

  it("shows a job to its key and to an admin; to another key it is the same 404 as no job, on every view route", async () => {
    const base = `/api/eval/jobs/${aliceJob}/view`
    const paths = ["/runs", "/runs/0/rows", "/runs/0/rollouts/0/0", "/runs/0/live", "/compare?a=0&b=0", "/events"]
    for (const path of paths) {
      const foreign = await bob.get(`${base}${path}`)
      expect(foreign.status, path).toBe(404)
      expect((foreign.body as { error: { code: string } }).error.code, path).toBe("job_not_found")
    }
    expect((await apiClient(server.url, null).get(`${base}/runs`)).status).toBe(401)
    expect((await alice.get(`${base}/runs`)).status).toBe(200)
    expect((await admin.get(`${base}/runs`)).status).toBe(200)
  })

  it("serves an ended job: its stored summary, its rows in the order stored, a rollout with its trace", async () => {
    const base = `/api/eval/jobs/${aliceJob}/view`
    const { body } = await alice.get<{ runs: Array<Record<string, unknown>> }>(`${base}/runs`)
    expect(body.runs).toMatchObject([
      { index: 0, name: "counting", run_id: aliceJob, live: false, progress: null, summary: { completed: 3, ok: 3 } },
    ])
    const rows = (await alice.get<Rows>(`${base}/runs/0/rows`)).body
    expect(rows).toMatchObject({ next: 3, complete: true })
    expect(rows.rows.map((r) => r.seed).sort()).toEqual([0, 1, 2])
    const rollout = await alice.get<{ result: Record<string, unknown>; calls: Array<unknown> }>(
      `${base}/runs/0/rollouts/1/0`,
    )
    expect(rollout.body.result).toMatchObject({ seed: 1, score: 0, trace: { metadata: { seed: 1 } } })
    expect(rollout.body.calls).toEqual([])

    const notLive = await alice.get(`${base}/runs/0/live`)
    expect(notLive.status).toBe(404)
    expect((notLive.body as { error: { code: string } }).error.code).toBe("not_found")
    const invalid = await alice.get(`${base}/runs/0/rows?from=minus`)
    expect(invalid.status).toBe(400)
    expect(invalid.body).toMatchObject({ error: { code: "invalid_request", field: "from" } })
    expect((await alice.get(`${base}/runs/0/rollouts/7/0`)).status).toBe(404)
  })

  it("follows a running job: what is in flight, rows appended in order, update events while it runs", async () => {
    const job = (await alice.post("/api/eval/jobs", synthJobBody(gated.url, [0, 1, 2, 3]))).body.job_id as string
    const base = `/api/eval/jobs/${job}/view`
    const events = await alice.raw(`${base}/events`)
    expect(events.headers.get("content-type")).toBe("text/event-stream; charset=utf-8")
    const reader = events.body!.getReader()
    await readUntil(reader, ": proctor viewer")

    type Live = { progress: { planned: number; done: number }; inflight: Array<{ seed: number; state: string }> }
    const live = await waitFor("two rollouts held in flight", async () => {
      const answer = await alice.get<Live>(`${base}/runs/0/live`)
      return answer.status === 200 && answer.body.inflight.length === 2 && answer.body.progress.done === 2
        ? answer.body
        : undefined
    })
    expect(live.inflight.map((f) => [f.seed, f.state]).sort()).toEqual([
      [2, "running"],
      [3, "running"],
    ])
    expect((await alice.get(`${base}/runs`)).body).toMatchObject({ runs: [{ live: true, progress: { planned: 4 } }] })
    const first = (await alice.get<Rows>(`${base}/runs/0/rows`)).body
    expect(first).toMatchObject({ next: 2, complete: true })
    expect(first.rows.map((r) => r.seed).sort()).toEqual([0, 1])

    gated.open()
    expect(await readUntil(reader, "\n\n")).toContain('event: update\ndata: {"run":0}')
    await waitForJob(alice, job)
    await reader.cancel()
    // The rows that came later come after `next`: the first page is never reshuffled.
    const later = (await alice.get<Rows>(`${base}/runs/0/rows?from=${first.next}`)).body
    expect(later.rows.map((r) => r.seed).sort()).toEqual([2, 3])
    expect(later.next).toBe(4)
  })
})
