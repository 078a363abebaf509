import { afterEach, describe, expect, it } from "@effect/vitest"
import type { LiveRunView } from "@proctor/core"
import { chatCompletion, createTaskApp } from "@proctor/task-app"
import { createBaselineModel } from "../../../examples/baseline-model/src/index.js"
import { TASK_APP_KEY, waitForJob } from "./api.harness.js"
import { type Cluster, killAll, startCluster, waitUntil } from "./cluster.harness.js"

/**
 * A task app whose rollouts each ask the model once (through the worker's interceptor: their spend shows while they
 * run), then wait until their seed is released or their caller goes away.
 */
const startHoldingTaskApp = async () => {
  const gates = new Map<number, { readonly opened: Promise<void>; readonly open: () => void }>()
  const gateOf = (seed: number) => {
    const known = gates.get(seed)
    if (known !== undefined) return known
    let open = () => {}
    const opened = new Promise<void>((resolve) => {
      open = resolve
    })
    const gate = { opened, open }
    gates.set(seed, gate)
    return gate
  }
  const app = createTaskApp({
    appId: "holding",
    name: "Holding",
    taskset: { size: 1_000 },
    apiKey: TASK_APP_KEY,
    rollout: async (request, context) => {
      const seed = request.env.seed ?? 0
      const completion = await chatCompletion({
        inferenceUrl: String(request.policy.config?.inference_url),
        body: { model: "baseline", messages: [{ role: "user", content: `What is ${seed} + 2?` }] },
        signal: context.signal,
      })
      const aborted = new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()))
      await Promise.race([gateOf(seed).opened, aborted])
      if (context.signal.aborted) throw new Error("caller went away")
      return { score: 1, details: { tokens: completion.usage?.total_tokens ?? 0 } }
    },
  })
  const running = await app.listen({ port: 0, host: "127.0.0.1" })
  return {
    url: running.url,
    release: (...seeds: ReadonlyArray<number>) => {
      for (const seed of seeds) gateOf(seed).open()
    },
    close: async () => {
      for (const gate of gates.values()) gate.open()
      await running.close()
    },
  }
}

const submit = async (cluster: Cluster, taskAppUrl: string, modelUrl: string, seeds: ReadonlyArray<number>) => {
  const created = await cluster.client().post("/api/eval/jobs", {
    task_app_url: taskAppUrl,
    task_app_api_key: TASK_APP_KEY,
    app_id: "holding",
    seeds,
    policy: { model: "baseline", inference_url: modelUrl, policy_name: "baseline" },
    max_concurrent: seeds.length,
    timeout: 120,
  })
  expect(created.status).toBe(200)
  return created.body.job_id as string
}

/** The dashboard's live panel of the job, as the replica serves it (null: nothing is followed live). */
const liveOf = async (cluster: Cluster, jobId: string) => {
  const response = await cluster.client().get<LiveRunView>(`/api/eval/jobs/${jobId}/view/runs/0/live`)
  if (response.status === 404) return null
  expect(response.status).toBe(200)
  return response.body
}

const inFlightSeeds = (live: LiveRunView | null) => (live?.inflight ?? []).map((rollout) => rollout.seed).sort()

/** Waits until the replica's live panel lists exactly `seeds` in flight. */
const untilListed = (cluster: Cluster, jobId: string, seeds: ReadonlyArray<number>, timeoutMs?: number) =>
  waitUntil(
    `seeds [${seeds.join(", ")}] listed in flight`,
    async () => {
      const live = await liveOf(cluster, jobId)
      return live !== null && JSON.stringify(inFlightSeeds(live)) === JSON.stringify(seeds) ? live : undefined
    },
    timeoutMs,
  )

describe("a cluster job's dashboard shows the rollouts its workers run (API replica + proctor worker)", () => {
  let cluster: Cluster | null = null
  afterEach(async () => {
    await cluster?.cleanup()
    cluster = null
    killAll()
  })

  it("lists them in flight with their spend while they run, and drops each as it is committed", {
    timeout: 90_000,
  }, async () => {
    const model = await createBaselineModel().listen()
    const app = await startHoldingTaskApp()
    try {
      cluster = await startCluster({ apis: 1, workers: 1 })
      const jobId = await submit(cluster, app.url, model.url, [0, 1, 2])
      // Each has asked the model once: its tokens show before it ends.
      const running = await waitUntil("three rollouts in flight, each with its model call's tokens", async () => {
        const live = await liveOf(cluster!, jobId)
        const spent = (live?.inflight ?? []).filter((rollout) => (rollout.tokens ?? 0) > 0)
        return live !== null && spent.length === 3 ? live : undefined
      })
      expect(inFlightSeeds(running)).toEqual([0, 1, 2])
      expect(running.inflight.every((rollout) => rollout.state === "running")).toBe(true)
      expect(running.progress).toMatchObject({ planned: 3, done: 0, inFlight: 3 })
      const { body: head } = await cluster
        .client()
        .get<{ runs: Array<{ live: boolean }> }>(`/api/eval/jobs/${jobId}/view/runs`)
      expect(head.runs[0]!.live).toBe(true)

      app.release(0)
      const after = await untilListed(cluster, jobId, [1, 2])
      expect(after.progress).toMatchObject({ done: 1, ok: 1, inFlight: 2 })

      app.release(1, 2)
      expect((await waitForJob(cluster.client(), jobId, 60_000)).status).toBe("completed")
      // Ended: nothing is in flight, and the panel is gone with the job.
      expect(inFlightSeeds(await liveOf(cluster, jobId))).toEqual([])
    } finally {
      await app.close()
      await model.close()
    }
  })

  it("drops a worker's rollouts once it is killed (its beat lapses), and lists them again when another takes them", {
    timeout: 120_000,
  }, async () => {
    const model = await createBaselineModel().listen()
    const app = await startHoldingTaskApp()
    try {
      cluster = await startCluster({ apis: 1, workers: 1, lockSeconds: 2 })
      const jobId = await submit(cluster, app.url, model.url, [0, 1])
      await untilListed(cluster, jobId, [0, 1])

      const victim = cluster.workers[0]!
      victim.child.kill("SIGKILL")
      expect((await victim.exited).signal).toBe("SIGKILL")
      await untilListed(cluster, jobId, [])

      await cluster.startWorker()
      await untilListed(cluster, jobId, [0, 1])
      app.release(0, 1)
      expect((await waitForJob(cluster.client(), jobId, 60_000)).status).toBe("completed")
    } finally {
      await app.close()
      await model.close()
    }
  })
})
