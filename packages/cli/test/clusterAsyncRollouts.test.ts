import { afterAll, afterEach, describe, expect, it } from "@effect/vitest"
import { createTaskApp, type RunningTaskApp } from "@proctor/task-app"
import { Effect } from "effect"
import { synthJobBody, waitForJob } from "../../server/test/api.harness.js"
import { type Cluster, killAll, startCluster, waitUntil } from "../../server/test/cluster.harness.js"
import { runPg } from "../../server/test/jobs.pg.js"
import { ensureBuilt } from "./fixtures/harness.js"

/**
 * A task app in the async form (it accepts a rollout, runs it in the background and is polled) on a job server's
 * workers: a worker killed with SIGKILL while polling leaves its rollouts with the app and their holds in PostgreSQL;
 * the worker that gets them next polls them again instead of starting them over.
 */

const KEY = "sk-async-cluster-key"
const SEEDS = [0, 1, 2, 3, 4, 5, 6, 7]
const closers: Array<() => Promise<void>> = []
let cluster: Cluster | null = null

afterEach(async () => {
  await cluster?.cleanup()
  cluster = null
  killAll()
})
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

/** A real SDK app in this process (it outlives the workers): each seed's rollout waits for its gate, scores seed / 10. */
const startGatedApp = async () => {
  const gates = new Map<number, { promise: Promise<void>; open: () => void }>()
  const gateOf = (seed: number) => {
    let gate = gates.get(seed)
    if (gate === undefined) {
      let open!: () => void
      const promise = new Promise<void>((resolve) => {
        open = resolve
      })
      gate = { promise, open }
      gates.set(seed, gate)
    }
    return gate
  }
  const runs: Array<number> = []
  let polls = 0
  const taskApp = createTaskApp({
    appId: "longrun",
    name: "Long rollouts",
    taskset: {},
    apiKey: KEY,
    rolloutMode: "async",
    rollout: async (request) => {
      const seed = request.env.seed ?? 0
      runs.push(seed)
      await gateOf(seed).promise
      return { score: seed / 10 }
    },
  })
  taskApp.app.addHook("onRequest", async (request) => {
    if (request.method === "GET" && request.url.startsWith("/rollouts/")) polls++
  })
  const running: RunningTaskApp = await taskApp.listen()
  closers.push(running.close)
  return { url: running.url, gateOf, runs, polls: () => polls }
}

/** The async rollouts a job's workers hold in PostgreSQL. */
const heldCount = (databaseUrl: string, jobId: string) =>
  runPg(databaseUrl, (sql) =>
    sql<{ held: string }>`SELECT COUNT(*) AS held FROM async_rollouts WHERE job_id = ${jobId}`.pipe(
      Effect.map((rows) => Number(rows[0]?.held ?? 0)),
    ),
  )

describe("async task-app rollouts on a job server's workers", () => {
  it("a worker killed with SIGKILL while polling: the next worker polls its rollouts again, none runs twice", {
    timeout: 180_000,
  }, async () => {
    ensureBuilt()
    const app = await startGatedApp()
    cluster = await startCluster({ apis: 1, workers: 1, workerConcurrency: 8, lockSeconds: 2 })
    const api = cluster.client()
    const created = await api.post(
      "/api/eval/jobs",
      synthJobBody(app.url, SEEDS, {
        task_app_api_key: KEY,
        app_id: "longrun",
        env_name: "longrun",
        max_concurrent: 8,
        timeout: 120,
      }),
    )
    expect(created.status).toBe(200)
    const jobId = created.body.job_id as string
    const databaseUrl = cluster.databaseUrl
    await waitUntil("8 rollouts accepted and held", async () =>
      (await heldCount(databaseUrl, jobId)) === 8 ? true : undefined,
    )

    const victim = cluster.workers[0]!
    victim.child.kill("SIGKILL")
    expect((await victim.exited).signal).toBe("SIGKILL")
    // Half finish while no worker is watching; the rest after another worker has re-attached.
    for (const seed of [0, 1, 2, 3]) app.gateOf(seed).open()
    const pollsBefore = app.polls()
    await cluster.startWorker()
    await waitUntil("the new worker to poll the held rollouts", async () =>
      app.polls() > pollsBefore + 4 ? true : undefined,
    )
    for (const seed of [4, 5, 6, 7]) app.gateOf(seed).open()
    const ended = await waitForJob(api, jobId, 90_000)
    expect(ended.status).toBe("completed")

    const { body } = await api.get<{ results: ReadonlyArray<{ seed: number; status: string; score: number }> }>(
      `/api/eval/jobs/${jobId}/results`,
    )
    expect(body.results.map((row) => [row.seed, row.status, row.score])).toEqual(
      SEEDS.map((seed) => [seed, "ok", seed / 10]),
    )
    // Each rollout ran once in the app: polled again after the kill, never started over.
    expect([...app.runs].sort()).toEqual(SEEDS)
    expect(await heldCount(databaseUrl, jobId)).toBe(0)
  })
})
