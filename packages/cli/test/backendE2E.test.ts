import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { Chunk, Effect, Redacted, Stream } from "effect"
import { startTestServer, type TestServer } from "../../server/test/api.harness.js"
import { JobsClient } from "../src/backend/JobsClient.js"
import { jobSubmission } from "../src/backend/jobSubmission.js"
import { cleanEnv, ensureBuilt, runCli, startCli, startZeroTaskApp, type TestTaskApp } from "./fixtures/harness.js"

/**
 * End to end: the real job server (`createJobServer`, SQLite in a temp dir), a real task app built with the
 * SDK, and `proctor eval --backend` / `proctor jobs …` as processes. The backend run must look like the
 * direct run of the same config: same table, same `--output-json` shape, same trace files.
 */

const TASK_APP_KEY = "sk-e2e-task-app-secret"
const STACK_FRAME = /^\s+at\s/m

let tmp: string
let server: TestServer
let apiKey: string
let app: TestTaskApp
let slowApp: TestTaskApp

beforeAll(async () => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-backend-e2e-"))
  server = await startTestServer({ secretKey: "e2e-secret-key-0123456789abcdef0123456789" })
  apiKey = server.userKey
  app = await startZeroTaskApp({ apiKey: TASK_APP_KEY, score: (seed) => (seed % 2 === 0 ? 1 : 0.5) })
  slowApp = await startZeroTaskApp({ apiKey: TASK_APP_KEY, delayMs: () => 800 })
}, 300_000)

afterAll(async () => {
  await server?.close()
  await app?.close()
  await slowApp?.close()
  rmSync(tmp, { recursive: true, force: true })
})

const env = (extra: Record<string, string> = {}) =>
  cleanEnv({ ENVIRONMENT_API_KEY: TASK_APP_KEY, PROCTOR_API_KEY: apiKey, ...extra })

/** A table's lines without the latency column, which differs from run to run. */
const tableShape = (stdout: string) => {
  const lines = stdout.split("\n")
  const start = lines.findIndex((line) => line.startsWith("seed"))
  const end = lines.findIndex((line, i) => i > start && line.startsWith("avg"))
  const cells = (line: string) => line.split("|").map((cell) => cell.trim())
  const latency = cells(lines[start] ?? "").indexOf("latency_ms")
  return lines.slice(start, end + 1).map((line) => cells(line).filter((_, column) => column !== latency))
}

describe("proctor eval --backend against the real job server", () => {
  it("prints the same table and writes the same JSON and traces as direct mode", async () => {
    const run = async (mode: "direct" | "backend") => {
      const dir = mkdtempSync(join(tmp, `${mode}-`))
      const args = [
        "eval",
        "zero",
        "--url",
        app.url,
        "--seeds",
        "0-9",
        "--concurrency",
        "4",
        "--output-json",
        join(dir, "out.json"),
        "--output-txt",
        join(dir, "out.txt"),
        "--traces-dir",
        join(dir, "traces"),
        ...(mode === "backend" ? ["--backend", server.url] : ["--run-dir", join(dir, "run"), "--no-intercept"]),
      ]
      const result = await runCli(args, { env: env(), cwd: dir })
      expect(result.code, result.stderr).toBe(0)
      return {
        result,
        json: JSON.parse(readFileSync(join(dir, "out.json"), "utf8")),
        txt: readFileSync(join(dir, "out.txt"), "utf8"),
        traces: readdirSync(join(dir, "traces")).sort(),
        trace: (name: string) => JSON.parse(readFileSync(join(dir, "traces", name), "utf8")),
      }
    }
    const direct = await run("direct")
    const backend = await run("backend")

    expect(tableShape(backend.result.stdout)).toEqual(tableShape(direct.result.stdout))
    expect(backend.result.stdout).toMatch(/^avg\s*\|\s*0\.75\s*\|/m)

    expect(Object.keys(backend.json)).toEqual(Object.keys(direct.json))
    expect(backend.json.config).toEqual(direct.json.config)
    expect(backend.json.results.map((r: object) => Object.keys(r))).toEqual(
      direct.json.results.map((r: object) => Object.keys(r)),
    )
    const scored = (rows: Array<{ seed: number; score: number; status: string; tokens: number | null }>) =>
      rows.map(({ seed, score, status, tokens }) => ({ seed, score, status, tokens }))
    expect(scored(backend.json.results)).toEqual(scored(direct.json.results))
    expect(Object.keys(backend.json.summary).sort()).toEqual(Object.keys(direct.json.summary).sort())
    expect(backend.json.summary).toMatchObject({ planned: 10, completed: 10, missing: 0, is_valid: true })
    expect(backend.json.summary.metrics.mean_score).toBeCloseTo(direct.json.summary.metrics.mean_score)

    expect(backend.txt.split("\n\nResults\n")[0]).toEqual(direct.txt.split("\n\nResults\n")[0])

    expect(backend.traces).toEqual(direct.traces)
    expect(backend.traces).toHaveLength(10)
    expect(backend.trace("seed_4_trace.json").metadata.seed).toBe(4)

    for (const text of [backend.result.stdout, backend.result.stderr, JSON.stringify(backend.json), backend.txt]) {
      expect(text).not.toContain(TASK_APP_KEY)
      expect(text).not.toContain(apiKey)
    }
  })

  it("a refused key and a rejected field exit 2 with the server's words, no stack trace", async () => {
    const [refused, rejected] = await Promise.all([
      runCli(["eval", "--url", app.url, "--seeds", "0-3", "--backend", server.url], {
        env: env({ PROCTOR_API_KEY: "pk_not_a_key" }),
        cwd: tmp,
      }),
      runCli(["eval", "--url", app.url, "--seeds", "0-3", "--concurrency", "5000", "--backend", server.url], {
        env: env(),
        cwd: tmp,
      }),
    ])
    expect(refused.code, refused.stderr).toBe(2)
    expect(refused.stderr).toContain("refused the API key")
    expect(rejected.code, rejected.stderr).toBe(2)
    expect(rejected.stderr).toContain("max_concurrent")
    expect(rejected.stderr).toContain("--concurrency")
    for (const result of [refused, rejected]) expect(result.stderr).not.toMatch(STACK_FRAME)
  })
})

describe("JobsClient against the real job server", () => {
  it.live("follows a job on the server's event stream, not by polling, to its completed snapshot", () =>
    Effect.gen(function* () {
      const client = yield* JobsClient
      const submitted = yield* client.submit(
        jobSubmission({
          app_id: "zero",
          task_app_url: app.url,
          task_app_api_key: Redacted.make(TASK_APP_KEY),
          env_name: null,
          seeds: [0, 1, 2, 3, 4, 5],
          attempts: 1,
          concurrency: 2,
          timeout_s: 30,
          max_retries: 1,
          return_trace: false,
          trace_format: "compact",
          model: null,
          provider: null,
          policy_name: null,
          policy_config: {},
          env_config: {},
          ops: null,
          pass_threshold: 1,
          max_response_bytes: 16 * 1024 * 1024,
        }),
      )
      const updates = Chunk.toReadonlyArray(yield* Stream.runCollect(client.follow(submitted.job_id)))
      const progress = updates.filter((u) => u._tag === "Progress")
      expect(progress.length).toBeGreaterThanOrEqual(1)
      const last = updates[updates.length - 1]!
      expect(last._tag === "Snapshot" && last.job.status).toBe("completed")
      expect(last._tag === "Snapshot" && last.job.results).toMatchObject({ completed: 6, total: 6 })
    }).pipe(
      // A poll interval this long would time the test out: the updates must come from the stream.
      Effect.provide(JobsClient.layer({ baseUrl: server.url, apiKey: Redacted.make(apiKey), pollIntervalMs: 120_000 })),
    ),
  )
})

describe("proctor jobs against the real job server", () => {
  it("detach with Ctrl-C, then list, show, cancel, and watch exits 1 for the cancelled job", async () => {
    const cli = startCli(
      ["eval", "slow", "--url", slowApp.url, "--seeds", "0-59", "--concurrency", "1", "--backend", server.url],
      { env: env(), cwd: tmp },
    )
    await waitFor("the job to be submitted", () => /submitted job (\S+)/.test(cli.stderr()), 30_000)
    const jobId = /submitted job (\S+)/.exec(cli.stderr())![1]!
    await waitFor("a rollout to finish", () => slowApp.served.length > 0, 30_000)
    cli.child.kill("SIGINT")
    const detached = await cli.done
    expect(detached.code, detached.stderr).toBe(130)
    expect(detached.stderr).toContain(` jobs watch ${jobId} --backend`)
    expect(detached.stderr).toContain(` jobs cancel ${jobId} --backend`)

    const jobs = (args: ReadonlyArray<string>) =>
      runCli(["jobs", ...args, "--backend", server.url], { env: cleanEnv({ PROCTOR_API_KEY: apiKey }), cwd: tmp })

    const [list, show, showJson] = await Promise.all([
      jobs(["list"]),
      jobs(["show", jobId]),
      jobs(["show", jobId, "--json"]),
    ])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/^id\s*\|\s*status\s*\|\s*created\s*\|\s*progress\s*\|\s*mean/m)
    expect(list.stdout).toMatch(new RegExp(`^${jobId}\\s*\\|\\s*(running|pending)\\s*\\|`, "m"))

    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toMatch(/status\s+(running|pending)/)
    expect(show.stdout).toContain(`"task_app_url": "${slowApp.url}`)
    expect(show.stdout).not.toContain(TASK_APP_KEY)
    const shown = JSON.parse(showJson.stdout)
    expect(shown).toMatchObject({ job_id: jobId, config: { seeds: Array.from({ length: 60 }, (_, i) => i) } })

    const watching = startCli(["jobs", "watch", jobId, "--backend", server.url], {
      env: cleanEnv({ PROCTOR_API_KEY: apiKey }),
      cwd: tmp,
    })
    const cancel = await jobs(["cancel", jobId])
    expect(cancel.code, cancel.stderr).toBe(0)
    expect(cancel.stdout).toContain(`cancel requested: job ${jobId}`)
    const watched = await watching.done
    expect(watched.code, watched.stderr + watched.stdout).toBe(1)
    expect(watched.stdout).toContain(`job ${jobId} cancelled`)

    const results = await jobs(["results", jobId, "--json"])
    expect(results.code, results.stderr).toBe(0)
    expect(JSON.parse(results.stdout)).toMatchObject({ job_id: jobId, status: "cancelled" })

    const unknown = await jobs(["show", "job_does_not_exist"])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("no job job_does_not_exist")
  })
})
