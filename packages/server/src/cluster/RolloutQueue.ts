import { Queue } from "bullmq"
import type { Redis } from "ioredis"
import { type ClusterSettings, ROLLOUT_QUEUE, redisConnection } from "./ClusterBus.js"
import { queueJobId, type RolloutMessage } from "./RolloutKey.js"

export interface QueueDepth {
  readonly waiting: number
  readonly active: number
  readonly delayed: number
}

/**
 * The API replicas' side of BullMQ: rollouts in, nothing else. A finished rollout's BullMQ job is removed (its result
 * is in PostgreSQL), so "not in the queue and not committed" always means "lost" to the dispatcher's reconciliation.
 */
export class RolloutQueue {
  readonly queue: Queue<RolloutMessage>
  /** Its own connection, also for reading the cluster's other keys (metrics). */
  readonly redis: Redis

  constructor(settings: ClusterSettings) {
    // Auto-pipelining: a reconciliation's many small reads go out as a few round trips.
    this.redis = redisConnection(settings.redisUrl, { enableAutoPipelining: true })
    this.redis.on("error", () => {})
    this.queue = new Queue<RolloutMessage>(ROLLOUT_QUEUE, {
      connection: this.redis,
      prefix: settings.prefix,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    })
    this.queue.on("error", () => {})
  }

  /** Queues rollouts; one already queued or running (same BullMQ job id) is left as it is. */
  async add(messages: ReadonlyArray<RolloutMessage>): Promise<void> {
    if (messages.length === 0) return
    await this.queue.addBulk(messages.map((data) => ({ name: "rollout", data, opts: { jobId: queueJobId(data) } })))
  }

  /** Which of these rollouts BullMQ still holds (queued, running, or waiting to be retried). */
  async present(messages: ReadonlyArray<RolloutMessage>): Promise<ReadonlyArray<boolean>> {
    const states = await Promise.all(messages.map((message) => this.queue.getJobState(queueJobId(message))))
    return states.map((state) => state !== "unknown" && state !== "completed" && state !== "failed")
  }

  /** Drops queued rollouts (a cancelled job's); running ones are aborted by their workers. */
  async remove(messages: ReadonlyArray<RolloutMessage>): Promise<void> {
    await Promise.all(messages.map((message) => this.queue.remove(queueJobId(message)).catch(() => 0)))
  }

  async depth(): Promise<QueueDepth> {
    const counts = await this.queue.getJobCounts("waiting", "active", "delayed", "prioritized")
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
    }
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => {})
    this.redis.disconnect()
  }
}
