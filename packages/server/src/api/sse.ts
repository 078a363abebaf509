import type { ServerResponse } from "node:http"
import { Duration, Effect, Queue } from "effect"
import { endsStream, type JobEvent } from "../jobs/JobEvent.js"
import { JobManager } from "../jobs/JobManager.js"
import { JobStore } from "../jobs/JobStore.js"
import { snapshotEvent, terminalEvent } from "../jobs/JobView.js"
import { emptyStats } from "../jobs/ResultTally.js"
import { RolloutStore } from "../jobs/RolloutStore.js"

const HEARTBEAT = Duration.seconds(15)

/** The head of every event stream the server sends; proxies (nginx) are told not to buffer it. */
export const openEventStream = (raw: ServerResponse): void => {
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  })
}

/** Resolves once the socket took the bytes (or asked to wait for `drain`), so a slow reader slows the stream, not memory. */
const writeTo = (raw: ServerResponse) => (text: string) =>
  Effect.async<void>((resume) => {
    if (raw.destroyed || raw.writableEnded) return resume(Effect.interrupt)
    if (raw.write(text)) return resume(Effect.void)
    raw.once("drain", () => resume(Effect.void))
  })

/**
 * A job's event stream: first where it stands (`job.status`), then every event as it happens until the job ends.
 * A job that has already ended gets its snapshot and its final event at once, then the stream closes.
 */
export const streamJobEvents = (jobId: string, raw: ServerResponse) =>
  Effect.scoped(
    Effect.gen(function* () {
      const manager = yield* JobManager
      const store = yield* JobStore
      const rollouts = yield* RolloutStore
      const write = writeTo(raw)
      let id = 0
      const send = (event: JobEvent) => write(`id: ${++id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)

      // Subscribed before reading the database: an end that happens in between is in the queue or in the row.
      const subscription = yield* manager.subscribe(jobId)
      const job = yield* store.getJob(jobId)
      if (job === null) return
      const stats = (yield* rollouts.resultStats([jobId])).get(jobId) ?? emptyStats
      yield* send(snapshotEvent(job, stats))
      const end = terminalEvent(job, stats)
      if (end !== null) return yield* send(end)
      if (subscription === null) {
        return yield* send({
          type: "job.interrupted",
          job_id: jobId,
          message: "this server is not running the job now; it resumes when the server starts again",
          data: { status: job.status },
        })
      }
      yield* Effect.forkScoped(Effect.forever(Effect.delay(write(": keepalive\n\n"), HEARTBEAT)))
      for (;;) {
        const event = yield* Queue.take(subscription)
        yield* send(event)
        if (endsStream(event.type)) return
      }
    }),
  )
