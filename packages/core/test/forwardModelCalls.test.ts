import { describe, expect, it } from "@effect/vitest"
import type { ModelCall } from "@proctor/core"
import { testCall } from "@proctor/test-kit"
import { Chunk, Effect, PubSub, Queue, TestClock } from "effect"
import { forwardModelCalls } from "../src/events/forwardModelCalls.js"
import type { RunEvent } from "../src/events/RunEvents.js"

const call = (seed: number, runId = "run-1") => testCall({ run_id: runId, seed, cost_usd: seed / 100 })

const seeds = (events: ReadonlyArray<RunEvent>) =>
  events.map((event) => (event._tag === "ModelCallFinished" ? event.key.seed : null))

/** The events published so far, without waiting. */
const published = (subscription: Queue.Dequeue<RunEvent>) =>
  Effect.map(Queue.takeAll(subscription), (events) => Chunk.toArray(events))

describe("forwardModelCalls", () => {
  it.scoped(
    "publishes this run's calls as ModelCallFinished events, a batch per interval, others' calls left out",
    () =>
      Effect.gen(function* () {
        const calls = yield* PubSub.unbounded<ModelCall>()
        const events = yield* PubSub.unbounded<RunEvent>()
        const subscription = yield* PubSub.subscribe(events)
        yield* forwardModelCalls("run-1", calls, events, 50)

        yield* PubSub.publish(calls, call(0))
        const first = yield* Queue.take(subscription)
        expect(first).toEqual({ _tag: "ModelCallFinished", key: { seed: 0, attempt: 0 }, tokens: null, costUsd: 0 })

        // Within the interval the forwarder sleeps: calls wait, and go out together once it has passed.
        yield* PubSub.publishAll(calls, [call(1), call(2, "another-run"), call(3)])
        yield* TestClock.adjust(10)
        expect(yield* published(subscription)).toEqual([])
        yield* TestClock.adjust(40)
        const batch = yield* Queue.takeBetween(subscription, 2, 2)
        expect(seeds(Chunk.toArray(batch))).toEqual([1, 3])
      }),
  )

  it.effect("publishes the calls still waiting when its scope closes", () =>
    Effect.gen(function* () {
      const calls = yield* PubSub.unbounded<ModelCall>()
      const events = yield* PubSub.unbounded<RunEvent>()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const subscription = yield* PubSub.subscribe(events)
          yield* Effect.scoped(
            Effect.gen(function* () {
              yield* forwardModelCalls("run-1", calls, events, 50)
              yield* PubSub.publish(calls, call(0))
              // The first went out at once; the forwarder now sleeps, and these arrive before the scope closes.
              yield* Queue.take(subscription)
              yield* PubSub.publishAll(calls, [call(1), call(2)])
            }),
          )
          expect(seeds(yield* published(subscription))).toEqual([1, 2])
        }),
      )
    }),
  )
})
