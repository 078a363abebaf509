import type { ClusterMetrics } from "../cluster/clusterMetrics.js"
import { escapeLabel, metricHeader } from "./prometheusText.js"

/**
 * The cluster's part of `/metrics`, read from Redis at scrape time (the same from every API replica); `null` when
 * Redis does not answer, which `proctor_cluster_up 0` says instead of failing the whole scrape.
 */
export const clusterMetricsText = (cluster: ClusterMetrics | null): string => {
  const lines = [
    ...metricHeader("proctor_cluster_up", "gauge", "1 when Redis answered the cluster's numbers below."),
    `proctor_cluster_up ${cluster === null ? 0 : 1}`,
  ]
  if (cluster !== null) {
    const counter = (name: string, help: string, value: number) =>
      lines.push(...metricHeader(name, "counter", help), `${name} ${value}`)
    lines.push(...metricHeader("proctor_queue_rollouts", "gauge", "Rollouts in the queue by state (queue depth)."))
    for (const [state, n] of Object.entries(cluster.queue)) lines.push(`proctor_queue_rollouts{state="${state}"} ${n}`)
    lines.push(
      ...metricHeader("proctor_workers_alive", "gauge", "Workers heard from within their last three heartbeats."),
      `proctor_workers_alive ${cluster.workers.length}`,
    )
    counter(
      "proctor_leases_lost_total",
      "Job leases an API replica held and lost to another (it stopped renewing: killed, paused, cut off).",
      cluster.leasesLost,
    )
    counter(
      "proctor_rollouts_redispatched_total",
      "Rollouts queued again because the queue no longer held them and PostgreSQL had no result (Redis lost them).",
      cluster.rolloutsRedispatched,
    )
    counter(
      "proctor_rollouts_rerun_total",
      "Rollouts run to the end whose result was discarded because another run of them committed first.",
      cluster.rolloutsRerun,
    )
    const perWorker = (
      name: string,
      type: "counter" | "gauge",
      help: string,
      value: (w: ClusterMetrics["workers"][number]) => number,
    ) => {
      lines.push(...metricHeader(name, type, help))
      for (const worker of cluster.workers) lines.push(`${name}{worker="${escapeLabel(worker.id)}"} ${value(worker)}`)
    }
    perWorker(
      "proctor_worker_rollouts_total",
      "counter",
      "Results each live worker committed since it started; rate() of it is that worker's throughput.",
      (w) => w.committed,
    )
    perWorker("proctor_worker_rollouts_active", "gauge", "Rollouts each live worker runs now.", (w) => w.active)
    perWorker("proctor_worker_concurrency", "gauge", "Rollouts each live worker may run at once.", (w) => w.concurrency)
  }
  return `${lines.join("\n")}\n`
}
