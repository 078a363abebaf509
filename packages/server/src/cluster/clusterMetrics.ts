import { statsKey } from "./ClusterBus.js"
import type { QueueDepth, RolloutQueue } from "./RolloutQueue.js"
import { readLiveWorkers, type WorkerBeat } from "./WorkerBeat.js"

/** What `/metrics` reports of a cluster, read from Redis by any API replica (the counters restart with Redis). */
export interface ClusterMetrics {
  readonly queue: QueueDepth
  /** Workers heard from within the last 3 beats, with what each committed since it started (its throughput). */
  readonly workers: ReadonlyArray<WorkerBeat>
  /** Job leases a replica held and lost to another (it stopped renewing in time: killed, paused, cut off). */
  readonly leasesLost: number
  /** Rollouts queued again because BullMQ no longer held them and PostgreSQL had no result (Redis lost them). */
  readonly rolloutsRedispatched: number
  /** Rollouts run to the end whose result was not stored because another run of them was committed first. */
  readonly rolloutsRerun: number
}

export const readClusterMetrics = async (queue: RolloutQueue, prefix: string): Promise<ClusterMetrics> => {
  const redis = queue.redis
  const [depth, workers, stats] = await Promise.all([
    queue.depth(),
    readLiveWorkers(redis, prefix),
    redis.hgetall(statsKey(prefix)),
  ])
  return {
    queue: depth,
    workers,
    leasesLost: Number(stats.leases_lost ?? 0),
    rolloutsRedispatched: Number(stats.rollouts_redispatched ?? 0),
    rolloutsRerun: Number(stats.rollouts_rerun ?? 0),
  }
}
