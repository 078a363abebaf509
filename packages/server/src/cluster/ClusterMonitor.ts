import { Context } from "effect"
import type { ClusterMetrics } from "./clusterMetrics.js"

export interface ClusterMonitorService {
  /** Queue depth, workers alive with their throughput, leases lost, rollouts re-dispatched and re-run. */
  readonly metrics: () => Promise<ClusterMetrics>
  /** Resolves when Redis answers (for `/readyz`); rejects after `timeoutMs`. */
  readonly pingRedis: (timeoutMs: number) => Promise<void>
}

/** Present in an API replica's runtime (`serve --redis-url`) only: what operations read of the cluster. */
export class ClusterMonitor extends Context.Tag("@proctor/server/ClusterMonitor")<
  ClusterMonitor,
  ClusterMonitorService
>() {}
