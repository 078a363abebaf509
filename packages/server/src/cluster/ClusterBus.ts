import { Either, Schema } from "effect"
import { Redis } from "ioredis"
import { JobEvent } from "../jobs/JobEvent.js"
import type { LiveMessage } from "./LiveMessage.js"

/** Where a cluster's processes meet in Redis; `prefix` keeps clusters (and parallel tests) apart. */
export interface ClusterSettings {
  readonly redisUrl: string
  /** BullMQ's key prefix, and the prefix of every other key and channel. Default `proctor`. */
  readonly prefix: string
}

export const DEFAULT_REDIS_PREFIX = "proctor"
export const ROLLOUT_QUEUE = "rollouts"

/** What API replicas tell every worker: `cancel` aborts every in-flight rollout of the job and runs none of it again. */
const ControlMessage = Schema.Struct({ type: Schema.Literal("cancel"), job_id: Schema.String })
export type ControlMessage = typeof ControlMessage.Type

const decodeEvents = Schema.decodeUnknownEither(Schema.parseJson(Schema.Array(JobEvent)))
const decodeControl = Schema.decodeUnknownEither(Schema.parseJson(ControlMessage))

/** A message no process of proctor's sent (another version, or anyone with the Redis): said in one line and dropped. */
const ignored = (channel: string) => () => {
  process.stderr.write(`proctor: ignored a malformed message on ${channel}\n`)
}

export const eventsChannel = (prefix: string, jobId: string) => `${prefix}:events:${jobId}`
export const controlChannel = (prefix: string) => `${prefix}:control`
/** Every job's live news (`LiveMessage`): what workers' rollouts are doing, for the replicas' dashboards. */
export const liveChannel = (prefix: string) => `${prefix}:live`
/** Cluster-wide counters (`leases_lost`, `rollouts_redispatched`, `rollouts_rerun`), a hash. */
export const statsKey = (prefix: string) => `${prefix}:cluster:stats`
/** Worker heartbeats, a hash of worker id → `WorkerBeat` JSON. */
export const workersKey = (prefix: string) => `${prefix}:cluster:workers`

/** The host of a Redis URL, for messages: the URL itself may hold a password. */
export const redisHostOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || "6379"}`
  } catch {
    return "(unparsable URL)"
  }
}

/**
 * Names the cluster on the machines it runs on: its Redis server, database and prefix, without the URL's
 * credentials. Its workers label their Docker sandboxes with it, so that a worker prunes only the orphans of its own
 * cluster, never the sandboxes of another cluster (or another `--redis-prefix`) sharing the daemon.
 */
export const clusterName = (settings: ClusterSettings): string => {
  const database = URL.canParse(settings.redisUrl) ? new URL(settings.redisUrl).pathname.slice(1) || "0" : "0"
  return `${redisHostOf(settings.redisUrl)}/${database}/${settings.prefix}`
}

/**
 * A Redis connection as BullMQ needs it (`maxRetriesPerRequest: null`: commands wait out a Redis restart instead
 * of failing), reconnecting forever with a short backoff.
 */
export const redisConnection = (url: string, extra: { readonly enableAutoPipelining?: boolean } = {}): Redis =>
  new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    lazyConnect: false,
    ...extra,
  })

/**
 * Live events and control messages over Redis pub/sub: workers publish each committed rollout, the replica that
 * dispatches a job publishes its start and end, every replica relays them to its SSE clients; workers also publish
 * what their rollouts in flight are doing, which every replica folds for its dashboard (`ClusterLiveRuns`). Pub/sub
 * is lossy (a Redis restart drops what is in flight): PostgreSQL stays the truth and dispatchers reconcile against it.
 */
export class ClusterBus {
  private readonly publisher: Redis
  private readonly subscriber: Redis
  private readonly listeners = new Map<string, Set<(message: string) => void>>()

  constructor(readonly settings: ClusterSettings) {
    this.publisher = redisConnection(settings.redisUrl)
    this.subscriber = redisConnection(settings.redisUrl)
    this.subscriber.on("message", (channel: string, message: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener(message)
    })
    // Errors are retried by the connection; without a listener ioredis would print each one.
    this.publisher.on("error", () => {})
    this.subscriber.on("error", () => {})
  }

  get redis(): Redis {
    return this.publisher
  }

  publishEvent(event: JobEvent): Promise<unknown> {
    return this.publishEvents([event])
  }

  /** One message per job for a burst of events (a message on an events channel is a JSON array of events). */
  publishEvents(events: ReadonlyArray<JobEvent>): Promise<unknown> {
    const byJob = new Map<string, Array<JobEvent>>()
    for (const event of events) {
      const list = byJob.get(event.job_id)
      if (list === undefined) byJob.set(event.job_id, [event])
      else list.push(event)
    }
    return Promise.all(
      [...byJob].map(([jobId, list]) =>
        this.publisher.publish(eventsChannel(this.settings.prefix, jobId), JSON.stringify(list)),
      ),
    )
  }

  publishControl(message: ControlMessage): Promise<unknown> {
    return this.publisher.publish(controlChannel(this.settings.prefix), JSON.stringify(message))
  }

  publishLive(message: LiveMessage): Promise<unknown> {
    return this.publisher.publish(liveChannel(this.settings.prefix), JSON.stringify(message))
  }

  onEvent(jobId: string, listener: (event: JobEvent) => void): () => void {
    const channel = eventsChannel(this.settings.prefix, jobId)
    return this.listen(channel, (text) =>
      Either.match(decodeEvents(text), {
        onLeft: ignored(channel),
        onRight: (events) => {
          for (const event of events) listener(event)
        },
      }),
    )
  }

  onControl(listener: (message: ControlMessage) => void): () => void {
    const channel = controlChannel(this.settings.prefix)
    return this.listen(channel, (text) =>
      Either.match(decodeControl(text), { onLeft: ignored(channel), onRight: listener }),
    )
  }

  /** Each live message as sent: the listener decodes it (`decodeLiveMessage`), so a bad one is its to ignore. */
  onLive(listener: (text: string) => void): () => void {
    return this.listen(liveChannel(this.settings.prefix), listener)
  }

  incrementStat(name: "leases_lost" | "rollouts_redispatched" | "rollouts_rerun", by = 1): void {
    if (by > 0) void this.publisher.hincrby(statsKey(this.settings.prefix), name, by).catch(() => {})
  }

  private listen(channel: string, listener: (message: string) => void): () => void {
    let set = this.listeners.get(channel)
    if (set === undefined) {
      set = new Set()
      this.listeners.set(channel, set)
      // ioredis re-subscribes by itself after a reconnect.
      void this.subscriber.subscribe(channel).catch(() => {})
    }
    set.add(listener)
    return () => {
      const current = this.listeners.get(channel)
      if (current === undefined) return
      current.delete(listener)
      if (current.size === 0) {
        this.listeners.delete(channel)
        void this.subscriber.unsubscribe(channel).catch(() => {})
      }
    }
  }

  async close(): Promise<void> {
    this.publisher.disconnect()
    this.subscriber.disconnect()
  }
}
