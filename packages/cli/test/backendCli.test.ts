import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { type ContractStub, type StubOptions, startContractStub } from "./fixtures/backendContractStub.js"
import { cleanEnv, ensureBuilt, runCli, startCli } from "./fixtures/harness.js"

/**
 * `proctor eval --backend` and `proctor jobs …` as real processes against the CONTRACT STUB of the job API
 * (see fixtures/backendContractStub.ts); backendE2E.test.ts runs the same against the real job server.
 */

const API_KEY = "pk_cli_contract_stub_key"
const TASK_APP_KEY = "sk-task-app-secret-456"
const STACK_FRAME = /^\s+at\s/m

let tmp: string
const cleanups: Array<() => Promise<void>> = []

beforeAll(() => {
  ensureBuilt()
  tmp = mkdtempSync(join(tmpdir(), "proctor-backend-cli-"))
}, 300_000)

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(tmp, { recursive: true, force: true })
})

const stub = async (options: Partial<StubOptions> = {}): Promise<ContractStub> => {
  const server = await startContractStub({ keys: [API_KEY], tickMs: 10, ...options })
  cleanups.push(server.close)
  return server
}

const env = (extra: Record<string, string> = {}) =>
  cleanEnv({ PROCTOR_API_KEY: API_KEY, ENVIRONMENT_API_KEY: TASK_APP_KEY, ...extra })

const TASK_APP = "http://127.0.0.1:9/"

describe("proctor eval --backend (contract stub)", () => {
  it("submits, follows, and prints and writes direct mode's table, JSON, txt and traces", async () => {
    const server = await stub()
    const dir = mkdtempSync(join(tmp, "eval-"))
    const outJson = join(dir, "out.json")
    const outTxt = join(dir, "out.txt")
    const traces = join(dir, "traces")
    const result = await runCli(
      [
        "eval",
        "zero",
        "--url",
        TASK_APP,
        "--seeds",
        "0-9",
        "--backend",
        server.url,
        "--output-json",
        outJson,
        "--output-txt",
        outTxt,
        "--traces-dir",
        traces,
      ],
      { env: env(), cwd: dir },
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain("submitted job job_1")
    expect(result.stdout).toMatch(/^seed\s*\|\s*score\s*\|\s*reward_mean\s*\|\s*outcome\s*\|/m)
    expect(result.stdout).toMatch(/^avg\s*\|\s*0\.75\s*\|/m)
    for (let seed = 0; seed < 10; seed++) {
      expect(result.stdout).toMatch(new RegExp(`^${seed}\\s*\\|\\s*${seed % 2 === 0 ? "1" : "0\\.5"}\\s*\\|`, "m"))
    }
    expect(result.stdout).toContain(`job: job_1 (completed) on ${server.url}`)

    const submitted = server.jobs.get("job_1")!.body
    expect(submitted).toMatchObject({ app_id: "zero", task_app_api_key: TASK_APP_KEY, return_trace: true })

    const json = JSON.parse(readFileSync(outJson, "utf8"))
    expect(Object.keys(json).sort()).toEqual(["config", "results", "summary"])
    expect(json.config).toMatchObject({ task_app_url: TASK_APP, seeds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] })
    expect(json.results).toHaveLength(10)
    expect(Object.keys(json.results[0])).toEqual(
      expect.arrayContaining(["seed", "score", "reward_mean", "outcome_score", "latency_ms", "tokens", "error"]),
    )
    expect(json.summary).toMatchObject({ run_id: "job_1", planned: 10, completed: 10, missing: 0, is_valid: true })
    expect(json.summary.metrics.mean_score).toBeCloseTo(0.75)

    const txt = readFileSync(outTxt, "utf8")
    expect(txt.startsWith("Eval config\n{")).toBe(true)
    expect(txt).toMatch(/\n\nResults\nseed\s*\|/)

    expect(readdirSync(traces).sort()).toEqual(
      Array.from({ length: 10 }, (_, seed) => `seed_${seed}_trace.json`).sort(),
    )
    expect(JSON.parse(readFileSync(join(traces, "seed_3_trace.json"), "utf8")).metadata.seed).toBe(3)

    for (const text of [result.stdout, result.stderr, readFileSync(outJson, "utf8"), txt]) {
      expect(text).not.toContain(TASK_APP_KEY)
      expect(text).not.toContain(API_KEY)
    }
  })

  it("is chosen by SYNTH_BASE_URL + SYNTH_API_KEY (synth-ai's pair), and --json prints the summary", async () => {
    const server = await stub()
    const result = await runCli(["eval", "--url", TASK_APP, "--seeds", "0-3", "--json"], {
      env: cleanEnv({ SYNTH_BASE_URL: `${server.url}/api`, SYNTH_API_KEY: API_KEY }),
      cwd: tmp,
    })
    expect(result.code, result.stderr).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document).toMatchObject({ job_id: "job_1", status: "completed", summary: { completed: 4 } })
    expect(server.requests[0]!.authorization).toBe(`Bearer ${API_KEY}`)
  })

  it("bad input exits 2 naming the flag or variable: no key, a bad URL, a refused key, --resume with --backend, what a job cannot take", async () => {
    const server = await stub()
    const base = ["eval", "--url", TASK_APP, "--seeds", "0-3"]
    const rows = join(tmp, "rows.jsonl")
    writeFileSync(rows, '{"question": "2 + 2?", "answer": "4"}\n')
    const dataset = ["eval", "--dataset", rows, "--prompt", "{{ item.question }}", "--model", "m", "--grader", "equals"]
    const [noKey, badUrl, refused, resume, datasetJob, gradedJob] = await Promise.all([
      runCli([...base, "--backend", server.url], { env: cleanEnv(), cwd: tmp }),
      runCli([...base, "--backend", "not a url"], { env: env(), cwd: tmp }),
      runCli([...base, "--backend", server.url], { env: env({ PROCTOR_API_KEY: "pk_wrong" }), cwd: tmp }),
      runCli(["eval", "--resume", join(tmp, "nothing"), "--backend", server.url], { env: env(), cwd: tmp }),
      runCli([...dataset, "--inference-url", "http://127.0.0.1:9/v1", "--backend", server.url], {
        env: env(),
        cwd: tmp,
      }),
      runCli([...base, "--grader", "equals", "--backend", server.url], { env: env(), cwd: tmp }),
    ])
    for (const result of [noKey, badUrl, refused, resume, datasetJob, gradedJob]) {
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).not.toMatch(STACK_FRAME)
      expect(result.stderr).not.toContain("pk_wrong")
    }
    expect(noKey.stderr).toContain("PROCTOR_API_KEY")
    expect(badUrl.stderr).toContain('--backend: expected an http(s) URL, got "not a url"')
    expect(refused.stderr).toContain("refused the API key")
    expect(resume.stderr).toContain(" jobs watch ID")
    expect(datasetJob.stderr).toBe(
      "proctor eval: --backend: a job cannot take --dataset (a dataset eval runs on this machine); drop --backend to run it here\n",
    )
    expect(gradedJob.stderr).toContain("--backend: a job cannot take --grader")
    expect(server.jobs.size).toBe(0)
  })

  it("a failed job exits 1 with the server's reason", async () => {
    const server = await stub({ failAfter: 2 })
    const result = await runCli(["eval", "--url", TASK_APP, "--seeds", "0-5", "--backend", server.url], {
      env: env(),
      cwd: tmp,
    })
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain("job job_1 failed: the task app went away")
    expect(result.stderr).not.toMatch(STACK_FRAME)
  })

  it("the first Ctrl-C detaches, says how to watch or cancel, exits 130 and leaves the job running", async () => {
    const server = await stub({ tickMs: 200 })
    const cli = startCli(["eval", "--url", TASK_APP, "--seeds", "0-49", "--backend", server.url], {
      env: env(),
      cwd: tmp,
    })
    await waitFor("the job to be submitted", () => cli.stderr().includes("submitted job job_1"))
    cli.child.kill("SIGINT")
    const result = await cli.done
    expect(result.code, result.stderr).toBe(130)
    expect(result.stderr).toContain(` jobs watch job_1 --backend ${server.url}`)
    expect(result.stderr).toContain(` jobs cancel job_1 --backend ${server.url}`)
    expect(["pending", "running"]).toContain(server.jobs.get("job_1")!.status)
  })
})

describe("proctor jobs (contract stub)", () => {
  it("list, show, watch, results, traces and cancel", async () => {
    const server = await stub()
    const dir = mkdtempSync(join(tmp, "jobs-"))
    const jobsEnv = cleanEnv({ PROCTOR_BACKEND_URL: server.url })
    const jobs = (args: ReadonlyArray<string>) =>
      runCli(["jobs", ...args, "--api-key", API_KEY], { env: jobsEnv, cwd: dir })

    const submitted = await runCli(
      ["eval", "--url", TASK_APP, "--seeds", "0-3", "--return-trace", "--backend", server.url],
      { env: env(), cwd: dir },
    )
    expect(submitted.code, submitted.stderr).toBe(0)

    const watch = await jobs(["watch", "job_1"])
    expect(watch.code, watch.stderr).toBe(0)
    expect(watch.stdout).toContain("job job_1 completed")

    const outJson = join(dir, "results.json")
    const [list, show, results, jsonl, traces] = await Promise.all([
      jobs(["list"]),
      jobs(["show", "job_1"]),
      jobs(["results", "job_1", "--output-json", outJson]),
      jobs(["results", "job_1", "--jsonl"]),
      jobs(["traces", "job_1", "--out", join(dir, "t")]),
    ])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/^id\s*\|\s*status\s*\|\s*created\s*\|\s*progress\s*\|\s*mean/m)
    expect(list.stdout).toMatch(/^job_1\s*\|\s*completed\s*\|\s*2025-11-21 12:00:01\s*\|\s*4\/4\s*\|\s*0\.75/m)

    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toContain("status    completed")
    expect(show.stdout).toContain('"task_app_url": "http://127.0.0.1:9/"')
    expect(show.stdout).toMatch(/mean_score\s+0\.75/)
    expect(show.stdout).not.toContain(TASK_APP_KEY)

    expect(results.code, results.stderr).toBe(0)
    expect(results.stdout).toMatch(/^avg\s*\|\s*0\.75\s*\|/m)
    expect(Object.keys(JSON.parse(readFileSync(outJson, "utf8"))).sort()).toEqual(["config", "results", "summary"])

    expect(
      jsonl.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).seed),
    ).toEqual([0, 1, 2, 3])

    expect(traces.code, traces.stderr).toBe(0)
    expect(readdirSync(join(dir, "t"))).toHaveLength(4)

    const slow = await stub({ tickMs: 500 })
    const following = startCli(["eval", "--url", TASK_APP, "--seeds", "0-99", "--backend", slow.url], {
      env: env(),
      cwd: dir,
    })
    await waitFor("the slow job to be submitted", () => following.stderr().includes("submitted job job_1"))
    const cancel = await runCli(["jobs", "cancel", "job_1", "--backend", slow.url, "--api-key", API_KEY], {
      env: cleanEnv(),
      cwd: dir,
    })
    expect(cancel.code, cancel.stderr).toBe(0)
    expect(cancel.stdout).toContain("cancel requested: job job_1 is cancelled")
    // The eval following it sees the job end as cancelled: exit 1, not a hang.
    const followed = await following.done
    expect(followed.code, followed.stderr).toBe(1)
    expect(followed.stderr).toContain("job job_1 cancelled")

    const missing = await jobs(["show", "job_404"])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("no job job_404")
    expect(missing.stderr).not.toMatch(STACK_FRAME)
  })
})
