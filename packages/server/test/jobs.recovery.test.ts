import { afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { Effect } from "effect"
import { createApiKey, JobDatabase, RolloutStore } from "../src/index.js"
import {
  apiClient,
  readEvents,
  startTestServer,
  startTestTaskApp,
  synthJobBody,
  tempDir,
  waitForJob,
} from "./api.harness.js"
import { children, ensureBuilt, startServerProcess } from "./jobs.process.js"

const sum = (map: Map<number, number>) => [...map.values()].reduce((a, b) => a + b, 0)

describe("restart recovery and SIGTERM drain (server as a child process)", () => {
  beforeAll(() => ensureBuilt(), 300_000)
  afterEach(() => {
    for (const child of children) child.kill("SIGKILL")
  })

  it("kill -9 mid-job, restart on the same data dir: the job completes with every seed exactly once", async () => {
    const dir = tempDir()
    // Seeds 0–7 finish at once; 8 and up hang until the gate opens, so the crash lands with 4 rollouts in flight.
    const app = await startTestTaskApp({ gateFrom: 8, delayMs: 5 })
    try {
      const first = await startServerProcess(dir.path)
      const { key } = await createApiKey({ dataDir: dir.path, name: "crash-test" })
      const seeds = Array.from({ length: 20 }, (_, i) => i)
      const created = await apiClient(first.url, key).post("/api/eval/jobs", synthJobBody(app.url, seeds))
      expect(created.status).toBe(200)
      const jobId = created.body.job_id as string
      await waitFor("8 stored results and 4 rollouts in flight", async () => {
        const { body } = await apiClient(first.url, key).get(`/api/eval/jobs/${jobId}`)
        const completed = (body.results as { completed: number }).completed
        return completed === 8 && app.counters.started.size === 12 ? true : undefined
      })

      first.child.kill("SIGKILL")
      expect((await first.exited).signal).toBe("SIGKILL")
      const finishedBeforeCrash = new Map(app.counters.completed)
      expect([...finishedBeforeCrash.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])

      app.open()
      const second = await startServerProcess(dir.path)
      const client = apiClient(second.url, key)
      const done = await waitForJob(client, jobId)
      expect(done.status).toBe("completed")
      expect(done.results).toMatchObject({ completed: 20, total: 20 })

      // Rows: one per seed, from the database.
      const lines = (await (await client.raw(`/api/eval/jobs/${jobId}/results?format=jsonl`)).text()).trim().split("\n")
      expect(lines.map((line) => (JSON.parse(line) as { seed: number }).seed)).toEqual(seeds)
      // Task-app hits: every seed answered exactly once; seeds stored before the crash were never sent again;
      // only the 4 abandoned in flight at the crash were started a second time.
      for (const seed of seeds) expect(app.counters.completed.get(seed), `seed ${seed}`).toBe(1)
      for (const seed of seeds.slice(0, 8)) expect(app.counters.started.get(seed)).toBe(1)
      for (const seed of [8, 9, 10, 11]) expect(app.counters.started.get(seed)).toBe(2)
      for (const seed of seeds.slice(12)) expect(app.counters.started.get(seed)).toBe(1)
      // The sealed task-app key survived the restart (the key file in the data dir) and was deleted at the end.
      second.child.kill("SIGTERM")
      expect((await second.exited).code).toBe(0)
    } finally {
      await app.close()
      dir.remove()
    }
  })

  it("kill -9 while rows are committed in groups: every result the server had counted is in the database", async () => {
    const dir = tempDir()
    const app = await startTestTaskApp()
    try {
      const server = await startServerProcess(dir.path)
      const { key } = await createApiKey({ dataDir: dir.path, name: "count-test" })
      const seeds = Array.from({ length: 3_000 }, (_, i) => i)
      const created = await apiClient(server.url, key).post(
        "/api/eval/jobs",
        synthJobBody(app.url, seeds, { max_concurrent: 64 }),
      )
      const jobId = created.body.job_id as string
      // What the server told its clients it had counted: each seed.completed event, and its running total.
      const counted = new Set<number>()
      let countedTotal = 0
      await readEvents(`${server.url}/api/eval/jobs/${jobId}/events`, key, (event) => {
        if (event.type !== "seed.completed") return false
        counted.add((event.data.result as { seed: number }).seed)
        countedTotal = event.data.completed as number
        if (counted.size < 500) return false
        // At once, with rollouts in flight and rows waiting for their group's commit.
        server.child.kill("SIGKILL")
        return true
      })
      expect((await server.exited).signal).toBe("SIGKILL")

      const stored = await Effect.runPromise(
        Effect.provide(
          Effect.flatMap(RolloutStore, (store) => store.resultRows(jobId)),
          JobDatabase.layerSqlite(dir.path),
        ),
      )
      const storedSeeds = new Set(stored.map((line) => (JSON.parse(line) as { seed: number }).seed))
      expect(storedSeeds.size).toBeLessThan(seeds.length)
      expect(storedSeeds.size).toBeGreaterThanOrEqual(countedTotal)
      expect([...counted].filter((seed) => !storedSeeds.has(seed))).toEqual([])
    } finally {
      await app.close()
      dir.remove()
    }
  })

  it("SIGTERM drains: in-flight rollouts finish, no new ones start, the job stays running and resumes", async () => {
    const dir = tempDir()
    const app = await startTestTaskApp({ delayMs: 400 })
    try {
      const first = await startServerProcess(dir.path, ["--grace-ms", "10000"])
      const { key } = await createApiKey({ dataDir: dir.path, name: "drain-test" })
      const seeds = Array.from({ length: 12 }, (_, i) => i)
      const jobId = (
        await apiClient(first.url, key).post("/api/eval/jobs", synthJobBody(app.url, seeds, { max_concurrent: 3 }))
      ).body.job_id as string
      await waitFor("a batch done and the next in flight", () =>
        app.counters.completed.size >= 3 && app.counters.started.size >= 6 ? true : undefined,
      )

      first.child.kill("SIGTERM")
      const exit = await first.exited
      expect(exit.code).toBe(0)
      // Every rollout that started before the signal was let finish (none abandoned), and stored.
      expect(sum(app.counters.started)).toBe(sum(app.counters.completed))
      // Stopped part-way: the rest is left for the restarted server (each seed exactly once, checked below).
      expect(app.counters.started.size).toBeLessThan(12)

      const second = await startServerProcess(dir.path)
      const client = apiClient(second.url, key)
      const stored = await client.get(`/api/eval/jobs/${jobId}`)
      expect(["running", "completed"]).toContain(stored.body.status)
      const done = await waitForJob(client, jobId)
      expect(done.status).toBe("completed")
      for (const seed of seeds) {
        expect(app.counters.started.get(seed), `seed ${seed}`).toBe(1)
        expect(app.counters.completed.get(seed), `seed ${seed}`).toBe(1)
      }
      second.child.kill("SIGTERM")
      await second.exited
    } finally {
      await app.close()
      dir.remove()
    }
  })
})

describe("draining in process", () => {
  it("while draining, new jobs get 503 and /readyz says draining", async () => {
    // Rollouts are held until the checks are done, so the server stays draining for as long as they take.
    const app = await startTestTaskApp({ gateFrom: 0 })
    const server = await startTestServer()
    try {
      const client = apiClient(server.url, server.userKey)
      const jobId = (await client.post("/api/eval/jobs", synthJobBody(app.url, [0, 1, 2, 3], { max_concurrent: 2 })))
        .body.job_id as string
      await waitFor("rollouts in flight", () => (app.counters.started.size >= 2 ? true : undefined))
      const shutdown = server.server.shutdown()
      await waitFor("the server to say it is draining", async () =>
        (await fetch(`${server.url}/readyz`)).status === 503 ? true : undefined,
      )
      const refused = await client.post("/api/eval/jobs", synthJobBody(app.url, [9]))
      expect(refused.status).toBe(503)
      expect((refused.body as { error: { code: string } }).error.code).toBe("shutting_down")
      const ready = await fetch(`${server.url}/readyz`)
      expect(ready.status).toBe(503)
      const status = await client.get(`/api/eval/jobs/${jobId}`)
      expect(status.body.status).toBe("running")
      app.open()
      await shutdown
      expect(app.counters.completed.size).toBe(app.counters.started.size)
    } finally {
      await server.close()
      await app.close()
    }
  })
})
