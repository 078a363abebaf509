import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { apiClient, startTestServer, type TestServer, waitForJob } from "../../server/test/api.harness.js"
import { agentRunFixture } from "./fixtures/agentRuns.js"
import { cleanEnv, repoRoot, runCli } from "./fixtures/harness.js"

const TASKS = join(repoRoot, "examples/tasks")

const shared = agentRunFixture("agent-jobs")
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
}, 60_000)
afterAll(async () => {
  await server?.close()
})

interface Row {
  readonly task_id: string
  readonly seed: number
  readonly score: number | null
  readonly stop_reason?: string
  readonly error_kind: string | null
}

describe("agent jobs on the embedded job server (one process)", () => {
  it("eval --tasks --agent builtin --backend: rollouts in bubblewrap, model calls traced, timelines in the viewer", {
    timeout: 180_000,
  }, async () => {
    const result = await runCli(
      [
        "eval",
        "--tasks",
        TASKS,
        "--agent",
        "builtin",
        "--model",
        "baseline",
        "--inference-url",
        shared.model.url,
        "--sandbox",
        "bwrap",
        "--max-turns",
        "4",
        "--backend",
        server.url,
      ],
      { env: cleanEnv({ PROCTOR_API_KEY: server.userKey }) },
    )
    expect(result.code, result.stderr).toBe(0)
    const jobId = /submitted job (\S+)/.exec(result.stderr)?.[1]
    expect(jobId).toBeDefined()
    const client = apiClient(server.url, server.userKey)

    // The same mix as the same run on this machine (agentEval.test.ts), each row named by its task.
    const { body } = await client.get<{ results: ReadonlyArray<Row> }>(`/api/eval/jobs/${jobId}/results`)
    expect(
      Object.fromEntries(
        body.results.map((row) => [row.task_id, [row.score, row.stop_reason ?? null, row.error_kind]]),
      ),
    ).toEqual({
      "find-the-secret": [0, "max_turns", null],
      "hello-file": [1, "model_ended", null],
      "memory-hog": [0, "model_ended", null],
      "reverse-words": [0, "model_ended", null],
      "sum-numbers": [1, "model_ended", null],
    })

    // Every turn's model call went through the server's interceptor and is stored with the job: 2 + 2 + 2 + 4 + 2.
    const view = `/api/eval/jobs/${jobId}/view/runs/0/rollouts`
    let calls = 0
    for (const row of body.results) {
      const rollout = await client.get<{ calls: ReadonlyArray<{ usage?: unknown }> }>(`${view}/${row.seed}/0`)
      expect(rollout.status).toBe(200)
      calls += rollout.body.calls.length
      // The rollout's timeline: the sandbox's setup, the agent's commands and the model's turns, the tests.
      const steps = await client.get<{ steps: ReadonlyArray<{ kind: string; text?: string }> }>(
        `${view}/${row.seed}/0/steps`,
      )
      const kinds = new Set(steps.body.steps.map((step) => step.kind))
      expect(kinds.has("note"), JSON.stringify(steps.body)).toBe(true)
      expect(steps.body.steps.some((step) => step.text?.startsWith("setup:") === true)).toBe(true)
    }
    expect(calls).toBe(12)
  })

  it("a job whose tasks are not an absolute path, or whose sandbox is local, is refused with the field named", async () => {
    const client = apiClient(server.url, server.userKey)
    const relative = await client.post("/api/eval/jobs", { tasks: "examples/tasks", agent: "oracle", seeds: [0] })
    expect(relative.status).toBe(400)
    expect(JSON.stringify(relative.body)).toContain("tasks")
    const local = await client.post("/api/eval/jobs", { tasks: TASKS, agent: "oracle", sandbox: "local", seeds: [0] })
    expect(local.status).toBe(400)
    expect(JSON.stringify(local.body)).toContain("sandbox")
    const noAgent = await client.post("/api/eval/jobs", { tasks: TASKS, agent: "nobody", seeds: [0] })
    expect(noAgent.status).toBe(400)
    expect(JSON.stringify(noAgent.body)).toContain("expected one of oracle")
  })

  it("a job whose tasks are missing on the server's machine fails with the line that says so", async () => {
    const client = apiClient(server.url, server.userKey)
    const missing = join(TASKS, "no-such-dir")
    const created = await client.post("/api/eval/jobs", { tasks: missing, agent: "oracle", seeds: [0] })
    expect(created.status).toBe(200)
    const ended = await waitForJob(client, created.body.job_id as string)
    expect(ended.status).toBe("failed")
    expect(ended.error).toMatch(/no-such-dir/)
  })
})
