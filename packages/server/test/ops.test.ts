import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@proctor/test-kit"
import { Redis } from "ioredis"
import { createJobServer, type JobServer, statsKey, type WorkerBeat, workersKey } from "../src/index.js"
import { freePort, startRedisServer } from "./cluster.harness.js"
import { createTestDatabase } from "./jobs.pg.js"

/** Every sample line's metric is declared by a `# TYPE` line (histograms by their base name). */
const undeclared = (text: string) => {
  const declared = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]))
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.split(/[{ ]/)[0]!)
    .filter((name) => !declared.has(name) && !declared.has(name.replace(/_(bucket|sum|count)$/, "")))
}

/** An API replica of a cluster (`serve --redis-url`) on a database and a Redis of this test's own. */
describe("/readyz and /metrics of an API replica", () => {
  const prefix = `proctor-test-ops-${randomBytes(4).toString("hex")}`
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let redisServer: Awaited<ReturnType<typeof startRedisServer>>
  let redis: Redis
  let server: JobServer

  beforeAll(async () => {
    database = await createTestDatabase()
    redisServer = await startRedisServer(await freePort())
    redis = new Redis(redisServer.url)
    // Refused connections once the test stops Redis are what it is about, not noise to print.
    redis.on("error", () => {})
    server = await createJobServer({
      databaseUrl: database.url,
      redisUrl: redisServer.url,
      redisPrefix: prefix,
      secretKey: "test-secret",
    })
  })

  afterAll(async () => {
    await server?.close()
    redis?.disconnect()
    await redisServer?.stop()
    await database?.drop()
  })

  it("is ready while PostgreSQL and Redis answer, and shows the cluster's numbers from Redis", async () => {
    const ready = await fetch(`${server.url}/readyz`)
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", redis: "ok" } })
    expect(ready.status).toBe(200)

    // What a worker publishes about itself, and the counters replicas and workers keep, as they write them.
    const beat: WorkerBeat = {
      id: "host-a:4242",
      host: "host-a",
      pid: 4242,
      concurrency: 16,
      active: 5,
      committed: 120,
      started_at: new Date().toISOString(),
      seen_at: Date.now(),
    }
    const gone: WorkerBeat = { ...beat, id: "host-b:7", seen_at: Date.now() - 600_000 }
    await redis.hset(workersKey(prefix), beat.id, JSON.stringify(beat), gone.id, JSON.stringify(gone))
    await redis.hset(statsKey(prefix), "leases_lost", 2, "rollouts_redispatched", 30, "rollouts_rerun", 4)

    const response = await fetch(`${server.url}/metrics`)
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
    const metrics = await response.text()
    expect(metrics).toMatch(/^proctor_cluster_up 1$/m)
    expect(metrics).toMatch(/^proctor_queue_rollouts\{state="waiting"\} 0$/m)
    expect(metrics).toMatch(/^proctor_queue_rollouts\{state="active"\} 0$/m)
    // The worker not heard from for ten minutes is not alive and has no series.
    expect(metrics).toMatch(/^proctor_workers_alive 1$/m)
    expect(metrics).toMatch(/^proctor_worker_rollouts_total\{worker="host-a:4242"\} 120$/m)
    expect(metrics).toMatch(/^proctor_worker_rollouts_active\{worker="host-a:4242"\} 5$/m)
    expect(metrics).not.toContain("host-b")
    expect(metrics).toMatch(/^proctor_leases_lost_total 2$/m)
    expect(metrics).toMatch(/^proctor_rollouts_redispatched_total 30$/m)
    expect(metrics).toMatch(/^proctor_rollouts_rerun_total 4$/m)
    // The process's own metrics are still there.
    expect(metrics).toMatch(/^proctor_jobs\{status="running"\} 0$/m)
    expect(undeclared(metrics)).toEqual([])
  })

  it("without Redis it is not ready (503 naming Redis), and /metrics still answers with proctor_cluster_up 0", async () => {
    await redisServer.stop()
    const ready = await waitFor("/readyz to fail", async () => {
      const response = await fetch(`${server.url}/readyz`)
      return response.status === 503 ? response : undefined
    })
    expect(await ready.json()).toEqual({
      status: "unavailable",
      error: "Redis does not answer",
      checks: { database: "ok", redis: "unavailable" },
    })
    const metrics = await fetch(`${server.url}/metrics`)
    expect(metrics.status).toBe(200)
    const text = await metrics.text()
    expect(text).toMatch(/^proctor_cluster_up 0$/m)
    expect(text).not.toMatch(/^proctor_queue_rollouts/m)
    expect(text).toMatch(/^proctor_rollouts_total\{status="ok"\} 0$/m)
    expect(undeclared(text)).toEqual([])
  })
})
