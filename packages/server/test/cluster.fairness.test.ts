import { afterEach, describe, expect, it } from "@effect/vitest"
import { createApiKey } from "../src/index.js"
import { apiClient, startTestTaskApp, synthJobBody } from "./api.harness.js"
import { type Cluster, killAll, startCluster, waitUntil } from "./cluster.harness.js"

describe("scale-out fairness: per-job dispatch windows share the workers between keys", () => {
  let cluster: Cluster | null = null
  afterEach(async () => {
    await cluster?.cleanup()
    cluster = null
    killAll()
  })

  it("a 100-seed job submitted with a 3,000-seed job of another key finishes long before it", {
    timeout: 120_000,
  }, async () => {
    const app = await startTestTaskApp({ delayMs: 2 })
    try {
      cluster = await startCluster({ apis: 2, workers: 3 })
      const other = await createApiKey({ databaseUrl: cluster.databaseUrl, name: "small-jobs" })
      const big = cluster.client(0)
      const small = apiClient(cluster.apis[1]!.url, other.key)
      const bigSeeds = Array.from({ length: 3_000 }, (_, i) => i)
      const smallSeeds = Array.from({ length: 100 }, (_, i) => i)
      const bigJob = await big.post("/api/eval/jobs", synthJobBody(app.url, bigSeeds, { max_concurrent: 64 }))
      const smallJob = await small.post("/api/eval/jobs", synthJobBody(app.url, smallSeeds, { max_concurrent: 64 }))
      expect([bigJob.status, smallJob.status]).toEqual([200, 200])
      const status = (client: typeof big, id: unknown) =>
        client.get(`/api/eval/jobs/${id}`).then(({ body }) => ({
          status: body.status as string,
          completed: (body.results as { completed: number }).completed,
        }))

      await waitUntil("the small job to complete", async () =>
        (await status(small, smallJob.body.job_id)).status === "completed" ? true : undefined,
      )
      // Bounded by its own size: behind at most the big job's window, not its 3,000 rollouts.
      const bigThen = await status(big, bigJob.body.job_id)
      expect(bigThen.status).toBe("running")
      expect(bigThen.completed).toBeLessThan(1_000)
      const { body } = await small.get(`/api/eval/jobs/${smallJob.body.job_id}`)
      expect(body.results).toMatchObject({ completed: 100, total: 100 })
    } finally {
      await app.close()
    }
  })
})
