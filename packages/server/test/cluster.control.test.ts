import { afterEach, describe, expect, it } from "@effect/vitest"
import { Queue } from "bullmq"
import { Redis } from "ioredis"
import { startTestTaskApp, synthJobBody } from "./api.harness.js"
import { type Cluster, killAll, startCluster, waitUntil } from "./cluster.harness.js"

/** BullMQ's view of the cluster's queue: what is waiting and running. */
const queueCounts = async (cluster: Cluster) => {
  const connection = new Redis(cluster.redisUrl, { maxRetriesPerRequest: null })
  const queue = new Queue("rollouts", { connection, prefix: cluster.prefix })
  try {
    const counts = await queue.getJobCounts("waiting", "active", "prioritized", "delayed")
    return (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0)
  } finally {
    await queue.close()
    connection.disconnect()
  }
}

describe("scale-out control: cancel across workers, SIGTERM drains a worker", () => {
  let cluster: Cluster | null = null
  afterEach(async () => {
    await cluster?.cleanup()
    cluster = null
    killAll()
  })

  it("cancel stops dispatch, drops queued rollouts and aborts in-flight ones on every worker", {
    timeout: 90_000,
  }, async () => {
    // Every rollout hangs until the gate opens (never, here) or its caller goes away; the job's timeout is 30 s.
    const app = await startTestTaskApp({ gateFrom: 0 })
    try {
      cluster = await startCluster({ apis: 2, workers: 2, workerConcurrency: 8 })
      const seeds = Array.from({ length: 200 }, (_, i) => i)
      const created = await cluster
        .client(0)
        .post("/api/eval/jobs", synthJobBody(app.url, seeds, { max_concurrent: 24 }))
      const jobId = created.body.job_id as string
      await waitUntil("16 rollouts in flight on the two workers", async () =>
        app.counters.started.size >= 16 ? true : undefined,
      )
      // Through the other replica: the one dispatching hears of it over Redis.
      const cancelled = await cluster.client(1).post(`/api/eval/jobs/${jobId}/cancel`)
      expect(cancelled.body.status).toBe("cancelled")
      // Nothing queued or running any more, well before any rollout's 30 s timeout: in-flight ones were aborted.
      await waitUntil(
        "the queue to empty",
        async () => ((await queueCounts(cluster!)) === 0 ? true : undefined),
        20_000,
      )
      const startedAtCancel = app.counters.started.size
      expect(startedAtCancel).toBeLessThanOrEqual(24)
      const { body } = await cluster.client(0).get(`/api/eval/jobs/${jobId}`)
      expect(body.status).toBe("cancelled")
      expect((body.results as { completed: number }).completed).toBe(0)
    } finally {
      await app.close()
    }
  })

  it("SIGTERM on a worker: it takes no more rollouts, hands back what it runs, exits 0; the job completes elsewhere", {
    timeout: 90_000,
  }, async () => {
    const app = await startTestTaskApp({ gateFrom: 0 })
    try {
      cluster = await startCluster({ apis: 1, workers: 2, workerConcurrency: 8 })
      const seeds = Array.from({ length: 100 }, (_, i) => i)
      const created = await cluster
        .client()
        .post("/api/eval/jobs", synthJobBody(app.url, seeds, { max_concurrent: 16 }))
      const jobId = created.body.job_id as string
      await waitUntil("16 rollouts in flight", async () => (app.counters.started.size >= 16 ? true : undefined))
      const leaving = cluster.workers[0]!
      leaving.child.kill("SIGTERM")
      // Its gated rollouts cannot finish: after the grace period they are handed back, and it exits cleanly.
      expect(await leaving.exited).toEqual({ code: 0, signal: null })
      app.open()
      const done = await waitUntil("the job to complete on the other worker", async () => {
        const { body } = await cluster!.client().get(`/api/eval/jobs/${jobId}`)
        return body.status === "completed" ? body : undefined
      })
      expect(done.results).toMatchObject({ completed: 100, total: 100 })
      const lines = (await (await cluster.client().raw(`/api/eval/jobs/${jobId}/results?format=jsonl`)).text())
        .trim()
        .split("\n")
      expect(lines.map((line) => (JSON.parse(line) as { seed: number }).seed)).toEqual(seeds)
    } finally {
      await app.close()
    }
  })
})
