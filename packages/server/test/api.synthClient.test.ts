import { spawn } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { unzipSync } from "fflate"
import { startTestServer, startTestTaskApp, TASK_APP_KEY, type TestServer, tempDir } from "./api.harness.js"

/** What synth-ai's `EvalJob.submit` (and `run_eval_via_backend`) POST, field for field. */
const synthAiRequest = (taskAppUrl: string) => ({
  task_app_url: taskAppUrl,
  task_app_api_key: TASK_APP_KEY,
  app_id: "counting",
  env_name: "counting",
  seeds: [0, 1, 2, 3, 4, 5],
  policy: { model: "gpt-4o-mini", provider: "openai", temperature: 0.0, max_completion_tokens: 64, policy_name: null },
  env_config: {},
  verifier_config: null,
  mode: "eval",
  max_concurrent: 2,
  timeout: 600.0,
})

const TERMINAL = ["completed", "failed", "cancelled"]

describe("synth-ai's eval job client sequence", () => {
  let app: Awaited<ReturnType<typeof startTestTaskApp>>
  let server: TestServer

  beforeAll(async () => {
    app = await startTestTaskApp({ delayMs: 800 })
    server = await startTestServer()
  })
  afterAll(async () => {
    await server.close()
    await app.close()
  })

  it("POST, poll every 2 s until completed, read the rows, download and unzip the traces", async () => {
    // base: backend_url + "/api", as `_base_url()` builds it.
    const base = `${server.url}/api`
    const headers = { Authorization: `Bearer ${server.userKey}`, "Content-Type": "application/json" }

    const submit = await fetch(`${base}/eval/jobs`, {
      method: "POST",
      headers,
      body: JSON.stringify(synthAiRequest(app.url)),
    })
    expect([200, 201]).toContain(submit.status)
    const jobId = ((await submit.json()) as { job_id?: string }).job_id
    expect(jobId).toBeTruthy()

    // poll_until_complete: GET status until the job ends (synth-ai waits 2 s between polls; the harness's
    // waitFor polls faster); `results.completed` / `results.total` drive its progress line.
    const seen: Array<string> = []
    const status = await waitFor("the job to end", async () => {
      const response = await fetch(`${base}/eval/jobs/${jobId}`, { headers })
      expect(response.status).toBe(200)
      const polled = (await response.json()) as Record<string, unknown>
      seen.push(polled.status as string)
      const progress = polled.results as { completed: number; total: number }
      expect(typeof progress.completed).toBe("number")
      expect(progress.total).toBe(6)
      return polled.status === "completed" || polled.status === "failed" ? polled : undefined
    })
    expect(status.status).toBe("completed")
    // It took more than one poll: the client saw the job before it ended.
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.every((s) => ["pending", "running", ...TERMINAL].includes(s))).toBe(true)
    expect(status.error ?? null).toBeNull()
    for (const field of [
      "job_id",
      "status",
      "error",
      "created_at",
      "started_at",
      "completed_at",
      "config",
      "results",
    ]) {
      expect(status).toHaveProperty(field)
    }

    // get_results: summary + rows; the client reads each row's seed (int(...)), score, tokens, cost…
    const results = (await (await fetch(`${base}/eval/jobs/${jobId}/results`, { headers })).json()) as {
      job_id: string
      status: string
      summary: Record<string, unknown>
      results: Array<Record<string, unknown>>
    }
    expect(results.job_id).toBe(jobId)
    expect(results.status).toBe("completed")
    expect(results.summary).toMatchObject({ mean_score: 0.5, num_seeds: 6, num_successful: 6, num_failed: 0 })
    expect(results.summary.total_tokens).toBe(10 + 11 + 12 + 13 + 14 + 15)
    const rows = results.results.map((row) => ({
      seed: Math.trunc(Number(row.seed ?? 0)),
      score: row.score,
      reward_mean: row.reward_mean,
      outcome_score: row.outcome_score,
      events_score: row.events_score,
      latency_ms: row.latency_ms,
      verifier_score: row.verifier_score,
      tokens: row.tokens,
      cost_usd: row.cost_usd,
      error: row.error,
    }))
    expect(rows.map((row) => row.seed)).toEqual([0, 1, 2, 3, 4, 5])
    expect(rows.map((row) => row.score)).toEqual([1, 0, 1, 0, 1, 0])
    expect(rows.every((row) => row.error === null && typeof row.latency_ms === "number")).toBe(true)

    // download_traces: GET the zip and extractall into a directory.
    const zip = await fetch(`${base}/eval/jobs/${jobId}/traces`, { headers })
    expect(zip.status).toBe(200)
    const out = tempDir("proctor-traces-")
    for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(await zip.arrayBuffer())))) {
      mkdirSync(out.path, { recursive: true })
      writeFileSync(join(out.path, name), bytes)
    }
    expect(readdirSync(out.path).sort()).toEqual([0, 1, 2, 3, 4, 5].map((seed) => `seed_${seed}_trace.json`).sort())
    const trace = JSON.parse(readFileSync(join(out.path, "seed_3_trace.json"), "utf8"))
    expect(trace.metadata.seed).toBe(3)
    out.remove()
  }, 90_000)

  it("the same sequence from Python's standard library (urllib + zipfile), when python3 is here", async (ctx) => {
    const python = await new Promise<boolean>((resolve) => {
      const probe = spawn("python3", ["--version"], { stdio: "ignore" })
      probe.once("error", () => resolve(false))
      probe.once("exit", (code) => resolve(code === 0))
    })
    if (!python) return ctx.skip()
    const out = tempDir("proctor-py-")
    const script = `
import io, json, sys, time, urllib.request, zipfile
base, key, task_app, out = sys.argv[1].rstrip("/") + "/api", sys.argv[2], sys.argv[3], sys.argv[4]
headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method, headers=headers, data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.status, resp.read()
job_request = json.loads(${JSON.stringify(JSON.stringify({ ...synthAiRequest("TASK_APP"), seeds: [7, 8] }))})
job_request["task_app_url"] = task_app
status, body = call("POST", "/eval/jobs", job_request)
assert status in (200, 201), status
job_id = json.loads(body)["job_id"]
for _ in range(60):
    time.sleep(2.0)
    _, body = call("GET", f"/eval/jobs/{job_id}")
    data = json.loads(body)
    if data.get("status", "") in ("completed", "failed"):
        break
assert data["status"] == "completed", data
_, body = call("GET", f"/eval/jobs/{job_id}/results")
results = json.loads(body)
seeds = sorted(int(row.get("seed", 0)) for row in results.get("results", []))
_, body = call("GET", f"/eval/jobs/{job_id}/traces")
with zipfile.ZipFile(io.BytesIO(body)) as zf:
    zf.extractall(out)
    names = sorted(zf.namelist())
print(json.dumps({"seeds": seeds, "names": names, "summary": results.get("summary", {})}))
`
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("python3", ["-c", script, server.url, server.userKey, app.url, out.path])
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => {
        stdout += chunk
      })
      child.stderr.on("data", (chunk) => {
        stderr += chunk
      })
      child.once("exit", (code) => (code === 0 ? resolve(stdout) : reject(new Error(stderr))))
    })
    const parsed = JSON.parse(output) as { seeds: Array<number>; names: Array<string>; summary: { num_seeds: number } }
    expect(parsed.seeds).toEqual([7, 8])
    expect(parsed.names).toEqual(["seed_7_trace.json", "seed_8_trace.json"])
    expect(parsed.summary.num_seeds).toBe(2)
    expect(readdirSync(out.path).sort()).toEqual(parsed.names)
    out.remove()
  }, 90_000)
})
