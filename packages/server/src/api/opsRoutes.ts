import { Effect, Exit, Option } from "effect"
import type { FastifyInstance } from "fastify"
import { ClusterMonitor } from "../cluster/ClusterMonitor.js"
import { JobManager } from "../jobs/JobManager.js"
import { JobStore } from "../jobs/JobStore.js"
import { ServerMetrics } from "../jobs/ServerMetrics.js"
import { clusterMetricsText } from "../ops/clusterMetricsText.js"
import { PROMETHEUS_CONTENT_TYPE } from "../ops/prometheusText.js"
import type { ApiRuntime } from "./jobRoutes.js"

type Check = "ok" | "unavailable"

/** A probe or a scrape must answer even when Redis does not (its client queues commands while reconnecting). */
const REDIS_TIMEOUT_MS = 2_000

const withTimeout = <A>(promise: Promise<A>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ])

/**
 * Liveness, readiness and metrics for a load balancer and Prometheus. No API key: they say nothing about any job
 * or key. An API replica of a cluster (`serve --redis-url`, a `ClusterMonitor` in the runtime) is ready only while
 * Redis answers too, and its metrics add the cluster's, read from Redis: the same whichever replica is scraped.
 */
export const registerOpsRoutes = async (app: FastifyInstance, runtime: ApiRuntime) => {
  const store = await runtime.runPromise(JobStore)
  const manager = await runtime.runPromise(JobManager)
  const metrics = await runtime.runPromise(ServerMetrics)
  const cluster = Option.getOrNull(await runtime.runPromise(Effect.serviceOption(ClusterMonitor)))

  app.get("/healthz", async () => ({ status: "ok" }))

  app.get("/readyz", async (_request, reply) => {
    if (manager.isDraining()) return reply.code(503).send({ status: "draining" })
    const check = (ping: Effect.Effect<void, unknown>) =>
      runtime.runPromiseExit(ping).then((exit): Check => (Exit.isSuccess(exit) ? "ok" : "unavailable"))
    const [database, redis] = await Promise.all([
      check(store.ping),
      cluster === null
        ? null
        : cluster.pingRedis(REDIS_TIMEOUT_MS).then(
            (): Check => "ok",
            (): Check => "unavailable",
          ),
    ])
    const checks = redis === null ? { database } : { database, redis }
    const down = [
      ...(database === "ok" ? [] : ["the job database does not answer"]),
      ...(redis === "unavailable" ? ["Redis does not answer"] : []),
    ]
    return down.length === 0
      ? { status: "ready", checks }
      : reply.code(503).send({ status: "unavailable", error: down.join("; "), checks })
  })

  app.get("/metrics", async (_request, reply) => {
    const [exit, clusterText] = await Promise.all([
      runtime.runPromiseExit(Effect.map(store.countJobsByStatus, metrics.render)),
      cluster === null
        ? ""
        : withTimeout(cluster.metrics(), REDIS_TIMEOUT_MS).then(clusterMetricsText, () => clusterMetricsText(null)),
    ])
    if (Exit.isFailure(exit)) return reply.code(503).type("text/plain").send("# the job database does not answer\n")
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(exit.value + clusterText)
  })
}
