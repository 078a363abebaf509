import { afterEach, describe, expect, it } from "vitest"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { createMathApp } from "../../../examples/math/src/index.js"
import { TASK_APP_KEY, waitForJob } from "./api.harness.js"
import { type Cluster, killAll, startCluster } from "./cluster.harness.js"
import { peakPerSecond, startLimitedUpstream } from "./limitedUpstream.js"

/** The upstream accepts this many requests in any second and answers 429 above it. */
const LIMIT_PER_S = 10
const SEEDS = Array.from({ length: 30 }, (_, i) => i)

describe("a model rate limit shared through Redis by 3 workers (proctor worker --redis-url)", () => {
  let cluster: Cluster | null = null
  afterEach(async () => {
    await cluster?.cleanup()
    cluster = null
    killAll()
  })

  it(`settles below the upstream's ${LIMIT_PER_S} requests/s, and every rollout completes`, async () => {
    const model = await createBaselineModel().listen()
    const upstream = await startLimitedUpstream(model, LIMIT_PER_S)
    const app = await createMathApp({ apiKey: TASK_APP_KEY }).listen()
    try {
      cluster = await startCluster({ apis: 1, workers: 3, workerConcurrency: 4 })
      const created = await cluster.client().post("/api/eval/jobs", {
        task_app_url: app.url,
        task_app_api_key: TASK_APP_KEY,
        app_id: "math",
        seeds: SEEDS,
        policy: { model: "baseline", inference_url: upstream.url, policy_name: "baseline" },
        max_concurrent: 12,
        timeout: 120,
      })
      expect(created.status).toBe(200)
      const done = await waitForJob(cluster.client(), created.body.job_id as string, 120_000)
      expect(done.status).toBe("completed")
      const results = await cluster.client().raw(`/api/eval/jobs/${created.body.job_id}/results?format=jsonl`)
      const body = await results.text()
      expect(results.status, body).toBe(200)
      const rows = body
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { seed: number; error: string | null; error_kind: string | null })
      expect(rows.map((row) => row.seed)).toEqual(SEEDS)
      // No rollout saw a 429: the workers' interceptors retried them through the shared gate.
      expect(rows.filter((row) => row.error !== null)).toEqual([])

      const { arrivals } = upstream
      const limited = arrivals.filter((a) => a.status === 429)
      expect(limited.length).toBeGreaterThan(0)
      const first = arrivals[0]!.at
      const last = arrivals.at(-1)!.at
      const secondHalf = arrivals.filter((a) => a.at >= (first + last) / 2)
      const timeline = arrivals.map((a) => `${Math.round(a.at - first)}${a.status === 429 ? "!" : ""}`).join(" ")
      const halfRate = secondHalf.length / ((last - (first + last) / 2) / 1000)
      const halfLimited = secondHalf.filter((a) => a.status === 429).length
      expect(halfRate, `arrivals (ms, ! = 429): ${timeline}`).toBeLessThan(LIMIT_PER_S)
      expect(halfLimited, `arrivals (ms, ! = 429): ${timeline}`).toBeLessThanOrEqual(secondHalf.length / 10)
      console.log(
        `3 workers: ${arrivals.length} upstream requests in ${((last - first) / 1000).toFixed(1)} s, ` +
          `${limited.length} answered 429; second half ${halfRate.toFixed(1)} req/s with ${halfLimited} 429s, ` +
          `peak ${peakPerSecond(secondHalf, 0)} in a second (limit ${LIMIT_PER_S})`,
      )
    } finally {
      await app.close()
      await upstream.close()
      await model.close()
    }
  })
})
