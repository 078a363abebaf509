import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readEvents } from "../../server/test/api.harness.js"
import { type Cluster, killAll, startCluster, waitUntil } from "../../server/test/cluster.harness.js"
import { agentRunFixture } from "./fixtures/agentRuns.js"
import { cleanEnv, repoRoot, startCli } from "./fixtures/harness.js"

/**
 * The real Codex CLI and Claude Code as jobs of a job server with a worker (`proctor worker`, PostgreSQL, Redis):
 * submitted by `proctor eval --agent … --backend`, run by the worker in bubblewrap through its own interceptor on
 * the baseline model. Every model call is stored with the job, priced; the agent's own output and its steps too;
 * the steps go out on the job's event stream as they happen.
 */

const TASKS = join(repoRoot, "examples/tasks")
/**
 * The example tasks but `memory-hog` (seed 2): its sandbox has 64 MB, which the agent's own program shares with the
 * command it runs, so the kernel kills the agent (exit 137) as it would in an embedded run; that is the task's point
 * for the built-in agent, whose loop runs outside the sandbox.
 */
const SEEDS = [0, 1, 3, 4]
const TASK_IDS = ["find-the-secret", "hello-file", "reverse-words", "sum-numbers"]
const API = { codex: "responses", "claude-code": "messages" } as const

const shared = agentRunFixture("cluster-agent-jobs")
let cluster: Cluster

beforeAll(async () => {
  cluster = await startCluster({ apis: 1, workers: 0 })
  await cluster.startWorker(["--concurrency", "5", "--pricing", join(repoRoot, "examples/baseline-model/pricing.json")])
}, 120_000)
afterAll(async () => {
  await cluster?.cleanup()
  killAll()
})

interface Row {
  readonly task_id: string
  readonly seed: number
  readonly score: number | null
  readonly error_kind: string | null
  readonly error: string | null
  readonly tokens: number | null
  readonly cost_usd: number | null
}

interface Call {
  readonly api: string
  readonly outcome: string
  readonly error: string | null
  readonly usage: { readonly prompt_tokens: number | null; readonly completion_tokens: number | null } | null
  readonly cost_usd: number | null
}

describe("command-line agents as jobs of a job server with a worker", () => {
  for (const agent of ["codex", "claude-code"] as const) {
    it(`${agent}: the example tasks run on the worker, every call stored and priced, its output and steps kept and streamed`, {
      timeout: 300_000,
    }, async () => {
      const cli = startCli(
        [
          ...["eval", "--tasks", TASKS, "--seeds", SEEDS.join(","), "--agent", agent, "--sandbox", "bwrap"],
          ...["--model", "baseline", "--inference-url", shared.model.url, "--max-turns", "6", "--max-retries", "0"],
          ...["--backend", cluster.apis[0]!.url],
        ],
        { env: cleanEnv({ PROCTOR_API_KEY: cluster.key }) },
      )
      const jobId = await waitUntil("the job submitted", async () => /submitted job (\S+)/.exec(cli.stderr())?.[1])
      const api = cluster.client()
      // Followed from its submission: the first sandbox takes longer to set up than this takes to connect.
      const streamed = readEvents(`${cluster.apis[0]!.url}/api/eval/jobs/${jobId}/events/stream`, cluster.key)
      const exited = await cli.done

      const { body } = await api.get<{ results: ReadonlyArray<Row> }>(`/api/eval/jobs/${jobId}/results`)
      expect(body.results.map((row) => row.task_id).sort()).toEqual(TASK_IDS)
      for (const row of body.results) expect(row.error_kind, `${row.task_id}: ${row.error}`).toBeNull()
      expect(exited.code, exited.stderr).toBe(0)
      // The two tasks the baseline model's hints solve.
      const scores = Object.fromEntries(body.results.map((row) => [row.task_id, row.score]))
      expect(scores).toMatchObject({ "hello-file": 1, "sum-numbers": 1 })

      const view = `/api/eval/jobs/${jobId}/view/runs/0/rollouts`
      for (const row of body.results) {
        // Every model call the agent made went through the worker's interceptor: stored with the job, in the
        // agent's own API, with its tokens and its price.
        const rollout = await api.get<{ calls: ReadonlyArray<Call> }>(`${view}/${row.seed}/0`)
        expect(rollout.body.calls.length, row.task_id).toBeGreaterThan(0)
        for (const call of rollout.body.calls) {
          expect(call.api).toBe(API[agent])
          // The call past --max-turns is refused by the interceptor, in the API's own error shape: nothing spent.
          if (call.outcome === "error") {
            expect(call.error).toContain("proctor_limit max_turns")
            continue
          }
          expect(call.usage?.prompt_tokens).toBeGreaterThan(0)
          expect(call.usage?.completion_tokens).toBeGreaterThan(0)
          expect(call.cost_usd).toBeGreaterThan(0)
        }
        expect(row.cost_usd).toBeGreaterThan(0)
        // The agent's own output, kept as an embedded run keeps it in agent_trajectory.jsonl.
        const trajectory = await api.get<{ events: ReadonlyArray<{ agent: string; seed: number; index: number }> }>(
          `${view}/${row.seed}/0/agent_trajectory`,
        )
        expect(trajectory.body.events.length, row.task_id).toBeGreaterThan(1)
        for (const event of trajectory.body.events) expect(event).toMatchObject({ agent, seed: row.seed })
        // And its timeline: the model's turns, one a call.
        const steps = await api.get<{ steps: ReadonlyArray<{ kind: string }> }>(`${view}/${row.seed}/0/steps`)
        expect(steps.body.steps.filter((step) => step.kind === "model").length).toBeGreaterThanOrEqual(
          rollout.body.calls.filter((call) => call.outcome === "ok").length,
        )
      }

      // The steps went out on the job's event stream as they happened, each in one line.
      const events = await streamed
      const stepEvents = events.filter((event) => event.type === "rollout.step")
      expect(stepEvents.length).toBeGreaterThan(0)
      const modelSteps = stepEvents.filter((event) => event.data.kind === "model")
      expect(modelSteps.length).toBeGreaterThan(0)
      for (const event of stepEvents) {
        expect(typeof event.data.summary).toBe("string")
        expect(SEEDS).toContain(event.data.seed)
      }
      // Before the rollout it belongs to is reported finished.
      const firstStep = events.findIndex((event) => event.type === "rollout.step")
      const firstDone = events.findIndex((event) => event.type === "seed.completed")
      expect(firstStep).toBeLessThan(firstDone)
    })
  }
})
