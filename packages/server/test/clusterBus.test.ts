import { randomUUID } from "node:crypto"
import { waitFor } from "@proctor/test-kit"
import { afterEach, describe, expect, it } from "vitest"
import { ClusterBus, type ControlMessage } from "../src/cluster/ClusterBus.js"
import type { JobEvent } from "../src/jobs/JobEvent.js"

// Real Redis on 127.0.0.1:6379, shared with other tests: the bus's prefix is the test's own.
const settings = () => ({ redisUrl: "redis://127.0.0.1:6379", prefix: `test-bus-${randomUUID()}` })

let bus: ClusterBus | undefined
afterEach(async () => {
  await bus?.close()
})

describe("the cluster bus", () => {
  it("drops a malformed event or control message and delivers the next good one", async () => {
    bus = new ClusterBus(settings())
    const events: Array<JobEvent> = []
    const controls: Array<ControlMessage> = []
    bus.onEvent("job-1", (event) => events.push(event))
    bus.onControl((message) => controls.push(message))
    const event: JobEvent = { type: "job.started", job_id: "job-1", message: "started", data: {} }
    // Subscriptions settle asynchronously: publish until the first good message arrives.
    await waitFor("the subscriptions", async () => {
      await bus!.publishEvent(event)
      return events.length > 0
    })
    const { prefix } = bus.settings
    for (const [channel, text] of [
      [`${prefix}:events:job-1`, "not json"],
      [`${prefix}:events:job-1`, JSON.stringify([{ type: "nonsense" }])],
      [`${prefix}:control`, "{"],
      [`${prefix}:control`, JSON.stringify({ type: "explode", job_id: 1 })],
    ] as const) {
      await bus.redis.publish(channel, text)
    }
    const after: JobEvent = { ...event, type: "job.completed", message: "after the bad ones" }
    await bus.publishEvent(after)
    await bus.publishControl({ type: "cancel", job_id: "job-1" })
    await waitFor(
      "the good messages after the bad ones",
      () => events.at(-1)?.message === after.message && controls.length === 1,
    )
    expect(events.every((received) => received.job_id === "job-1")).toBe(true)
    expect(controls).toEqual([{ type: "cancel", job_id: "job-1" }])
  })
})
