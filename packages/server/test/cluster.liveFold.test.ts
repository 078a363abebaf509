import { describe, expect, it } from "@effect/vitest"
import type { RunEvent } from "@proctor/core"
import { testResult, testStep } from "@proctor/test-kit"
import { Either } from "effect"
import { JobLiveFold } from "../src/cluster/JobLiveFold.js"
import { decodeLiveMessage, type LiveMessage } from "../src/cluster/LiveMessage.js"
import { LiveRunFeed } from "../src/cluster/LiveRunFeed.js"
import { emptyTally } from "../src/jobs/ResultTally.js"

const key = (seed: number) => ({ seed, attempt: 0 })
const started = (seed: number, retry = 0): RunEvent => ({ _tag: "RolloutStarted", key: key(seed), retry })
const left = (seed: number): RunEvent => ({ _tag: "RolloutLeft", key: key(seed) })

/** A worker's feed whose messages travel as JSON and are decoded as a replica decodes them. */
const feedOf = (worker: string) => {
  const sent: Array<LiveMessage> = []
  const feed = new LiveRunFeed(worker, (message) => {
    const decoded = decodeLiveMessage(JSON.stringify(message))
    if (Either.isLeft(decoded)) throw new Error(String(decoded.left))
    sent.push(decoded.right)
  })
  /** Flushes, and the events of the one message sent (none: []). */
  const flush = () => {
    sent.length = 0
    feed.flush()
    expect(sent.length).toBeLessThanOrEqual(1)
    const [message] = sent
    return message === undefined || "redispatched" in message ? [] : message.events
  }
  return { feed, flush }
}

describe("what a worker tells the replicas of its rollouts in flight (LiveRunFeed)", () => {
  it("one message per job and flush: steps summarised, spend summed, nothing of a rollout that came and went", () => {
    const { feed, flush } = feedOf("w1")
    feed.add("job", [started(0), started(1)])
    expect(flush().map((event) => event._tag)).toEqual(["RolloutStarted", "RolloutStarted"])

    const step = testStep(0, 0, "command", { command: "make\nall", stdout: "x".repeat(100_000), exit_code: 0 })
    feed.add("job", [
      { _tag: "RolloutStep", step },
      { _tag: "ModelCallFinished", key: key(0), tokens: 10, costUsd: 0.001 },
      { _tag: "ModelCallFinished", key: key(0), tokens: 5, costUsd: null },
      // Started and left between two flushes: never mentioned.
      started(2),
      left(2),
    ])
    const events = flush()
    expect(events).toMatchObject([
      { _tag: "RolloutStep", step: { seed: 0, kind: "command", command: "make", exit_code: 0 } },
      // A call with usage but no price makes the sum's cost unknown.
      { _tag: "ModelCallFinished", key: key(0), tokens: 15, costUsd: null },
    ])
    expect(JSON.stringify(events).length).toBeLessThan(1_000)
    expect(flush()).toEqual([])

    feed.add("job", [left(0), { _tag: "ModelCallFinished", key: key(0), tokens: 1, costUsd: 0 }])
    expect(flush()).toEqual([{ _tag: "RolloutLeft", key: key(0) }])
    feed.forgetJob("job")
    expect(flush()).toEqual([])
  })
})

describe("a cluster job's live state on a replica (JobLiveFold)", () => {
  it("shows a rollout as its latest delivery tells it until it leaves, is committed or requeued, or its worker lapses", () => {
    const fold = new JobLiveFold("job")
    fold.start(4, emptyTally())
    const a = feedOf("a")
    const b = feedOf("b")
    const seeds = () => fold.state.view().inflight.map((rollout) => rollout.seed)

    a.feed.add("job", [started(0), started(1), started(2)])
    fold.onWorker("a", a.flush())
    expect(seeds()).toEqual([0, 1, 2])

    // Seed 0 delivered again to b (a lost its claim but runs on): a's news of it is stale from now on.
    b.feed.add("job", [started(0)])
    fold.onWorker("b", b.flush())
    a.feed.add("job", [{ _tag: "RolloutStep", step: testStep(0, 0, "note", { text: "late" }) }])
    fold.onWorker("a", a.flush())
    a.feed.add("job", [left(0)])
    fold.onWorker("a", a.flush())
    expect(seeds()).toEqual([0, 1, 2])
    expect(fold.state.view().inflight[0]).not.toHaveProperty("last_step")

    // a is killed: its beat lapses.
    fold.forgetWorkersBut(new Set(["b"]))
    expect(seeds()).toEqual([0])

    fold.onCommitted(testResult({ seed: 0, score: 1, tokens: 7 }))
    expect(fold.state.view()).toMatchObject({ inflight: [], tokens: 7, progress: { done: 1, ok: 1 } })

    b.feed.add("job", [started(3)])
    fold.onWorker("b", b.flush())
    fold.onRedispatched([key(3)])
    expect(seeds()).toEqual([])

    fold.end()
    expect(fold.ended).toBe(true)
  })
})
