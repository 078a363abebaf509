import { afterEach, describe, expect, it } from "@effect/vitest"
import { startTestTaskApp, synthJobBody } from "./api.harness.js"
import { type Cluster, killAll, startCluster } from "./cluster.harness.js"

/**
 * Follows a job's SSE stream to its end: `opened` resolves with its first event (the snapshot, sent once the replica
 * has subscribed), `types` with every event type in order.
 */
const follow = (url: string, key: string) => {
  let markOpened: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    markOpened = resolve
  })
  const types = (async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" } })
    const decoder = new TextDecoder()
    let text = ""
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true })
      if (text.includes("\n\n")) markOpened()
    }
    return [...text.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]!)
  })()
  return { opened, types }
}

describe("scale-out live events: every API replica streams the same job", () => {
  let cluster: Cluster | null = null
  afterEach(async () => {
    await cluster?.cleanup()
    cluster = null
    killAll()
  })

  it("both replicas' SSE streams carry every committed rollout and the job's end", { timeout: 90_000 }, async () => {
    // Gated: both streams are open before the first rollout can finish.
    const app = await startTestTaskApp({ gateFrom: 0 })
    try {
      cluster = await startCluster({ apis: 2, workers: 1 })
      const seeds = Array.from({ length: 30 }, (_, i) => i)
      const created = await cluster
        .client(0)
        .post("/api/eval/jobs", synthJobBody(app.url, seeds, { max_concurrent: 8 }))
      const jobId = created.body.job_id as string
      const streams = cluster.apis.map((api) => follow(`${api.url}/api/eval/jobs/${jobId}/events`, cluster!.key))
      await Promise.all(streams.map((stream) => stream.opened))
      app.open()
      for (const types of await Promise.all(streams.map((stream) => stream.types))) {
        expect(types[0]).toBe("job.status")
        expect(types.filter((type) => type === "seed.completed")).toHaveLength(30)
        expect(types.at(-1)).toBe("job.completed")
      }
    } finally {
      await app.close()
    }
  })
})
