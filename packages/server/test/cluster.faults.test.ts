import { afterEach, describe, expect, it } from "@effect/vitest"
import { Redis } from "ioredis"
import { startTestTaskApp, synthJobBody } from "./api.harness.js"
import { type Cluster, freePort, killAll, startCluster, startRedisServer, waitUntil } from "./cluster.harness.js"

const SEEDS = Array.from({ length: 3_000 }, (_, i) => i)
/**
 * Five processes start, then 3,000 rollouts run through them: ~35–50 s on this 2-core machine at load 20 (shared with
 * other test runs); the margin is for heavier moments.
 */
const TEST_TIMEOUT = 120_000

/** The job's stored rows, one line each, from an API replica: every seed must be there exactly once. */
const storedSeeds = async (cluster: Cluster, jobId: string) => {
  const response = await cluster.client().raw(`/api/eval/jobs/${jobId}/results?format=jsonl`)
  const lines = (await response.text()).trim().split("\n")
  return lines.map((line) => (JSON.parse(line) as { seed: number }).seed)
}

const completedOf = async (cluster: Cluster, jobId: string, api?: number) => {
  const { body } = await cluster.client(api).get(`/api/eval/jobs/${jobId}`)
  return { status: body.status as string, completed: (body.results as { completed: number }).completed }
}

const submit = async (cluster: Cluster, taskAppUrl: string, seeds: ReadonlyArray<number>, maxConcurrent = 128) => {
  const created = await cluster
    .client()
    .post("/api/eval/jobs", synthJobBody(taskAppUrl, seeds, { max_concurrent: maxConcurrent }))
  expect(created.status).toBe(200)
  return created.body.job_id as string
}

const expectExactlyOnce = async (cluster: Cluster, jobId: string, seeds: ReadonlyArray<number>) => {
  const done = await waitUntil(`job ${jobId} to complete`, async () => {
    const state = await completedOf(cluster, jobId).catch(() => null)
    return state?.status === "completed" ? state : undefined
  })
  expect(done.completed).toBe(seeds.length)
  expect(await storedSeeds(cluster, jobId)).toEqual([...seeds])
}

describe("scale-out: 2 API replicas and 3 workers as separate processes, 3,000 seeds exactly once", () => {
  let cluster: Cluster | null = null
  afterEach(async () => {
    await cluster?.cleanup()
    cluster = null
    killAll()
  })

  it("a worker killed with SIGKILL mid-run: its rollouts run elsewhere", { timeout: TEST_TIMEOUT }, async () => {
    const app = await startTestTaskApp({ delayMs: 2 })
    try {
      cluster = await startCluster({ apis: 2, workers: 3, lockSeconds: 3 })
      const jobId = await submit(cluster, app.url, SEEDS)
      await waitUntil("a third of the rollouts stored", async () =>
        (await completedOf(cluster!, jobId, 1)).completed >= 1_000 ? true : undefined,
      )
      const victim = cluster.workers[0]!
      victim.child.kill("SIGKILL")
      expect((await victim.exited).signal).toBe("SIGKILL")
      await expectExactlyOnce(cluster, jobId, SEEDS)
    } finally {
      await app.close()
    }
  })

  it("an API replica killed with SIGKILL: the other takes its jobs over", { timeout: TEST_TIMEOUT }, async () => {
    const app = await startTestTaskApp({ delayMs: 2 })
    try {
      cluster = await startCluster({ apis: 2, workers: 3 })
      const jobId = await submit(cluster, app.url, SEEDS)
      await waitUntil("a third of the rollouts stored", async () =>
        (await completedOf(cluster!, jobId)).completed >= 1_000 ? true : undefined,
      )
      // Both replicas may hold leases; killing each in turn would leave none, so the first one goes.
      const victim = cluster.apis[0]!
      victim.child.kill("SIGKILL")
      expect((await victim.exited).signal).toBe("SIGKILL")
      await expectExactlyOnce(cluster, jobId, SEEDS)
    } finally {
      await app.close()
    }
  })

  it("Redis restarted empty mid-run: what it lost is dispatched again from PostgreSQL", {
    timeout: TEST_TIMEOUT,
  }, async () => {
    // Fewer worker slots (24) than the job's window (128), and rollouts slow enough that the queue never drains
    // between two top-ups: when Redis goes, it holds rollouts no worker has taken yet, which only PostgreSQL remembers.
    const app = await startTestTaskApp({ delayMs: 20 })
    const port = await freePort()
    let redis = await startRedisServer(port)
    try {
      cluster = await startCluster({ apis: 2, workers: 3, workerConcurrency: 8, redisUrl: redis.url })
      const jobId = await submit(cluster, app.url, SEEDS)
      await waitUntil("a third of the rollouts stored", async () =>
        (await completedOf(cluster!, jobId)).completed >= 1_000 ? true : undefined,
      )
      await redis.stop()
      redis = await startRedisServer(port)
      await expectExactlyOnce(cluster, jobId, SEEDS)
      // The queued and running rollouts Redis lost were found missing and dispatched again (counted after the restart;
      // the count is sent without waiting, so it may land after the job has ended).
      const stats = new Redis(redis.url)
      try {
        await waitUntil("the redispatched rollouts counted", async () =>
          Number(await stats.hget(`${cluster!.prefix}:cluster:stats`, "rollouts_redispatched")) > 0 ? true : undefined,
        )
      } finally {
        stats.disconnect()
      }
    } finally {
      await redis.stop()
      await app.close()
    }
  })
})
