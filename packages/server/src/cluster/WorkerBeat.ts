import type { Redis } from "ioredis"
import { workersKey } from "./ClusterBus.js"

/** What a worker publishes about itself every few seconds, for `/metrics` (workers alive, throughput). */
export interface WorkerBeat {
  readonly id: string
  readonly host: string
  readonly pid: number
  readonly concurrency: number
  /** Rollouts it is running now. */
  readonly active: number
  /** Results it committed since it started. */
  readonly committed: number
  readonly started_at: string
  /** Epoch ms of this beat; a worker unheard of for 3 beats is gone. */
  readonly seen_at: number
}

export const WORKER_BEAT_MS = 5_000

/** The workers heard from within the last 3 beats: the cluster's live workers. */
export const readLiveWorkers = async (redis: Redis, prefix: string): Promise<ReadonlyArray<WorkerBeat>> => {
  const beats = await redis.hgetall(workersKey(prefix))
  const alive = Date.now() - 3 * WORKER_BEAT_MS
  return Object.values(beats)
    .map((text) => JSON.parse(text) as WorkerBeat)
    .filter((beat) => beat.seen_at >= alive)
}
