import { Effect, Fiber, PubSub, Queue } from "effect"
import type { RunEvent } from "./RunEvents.js"

/**
 * Runs `run` with a fresh event hub whose events reach `onEvent` on a fiber of their own, in batches: a
 * wake-up per event would cost the runner more than any display is worth. Every event published before
 * `run` ends is delivered before this returns.
 */
export const withRunEvents = <A, E, R>(
  onEvent: (event: RunEvent) => void,
  run: (events: PubSub.PubSub<RunEvent>) => Effect.Effect<A, E, R>,
  batchEveryMs = 50,
): Effect.Effect<A, E, R> =>
  Effect.scoped(
    Effect.gen(function* () {
      const events = yield* PubSub.unbounded<RunEvent>()
      const subscription = yield* PubSub.subscribe(events)
      const deliver = (batch: Iterable<RunEvent>) => Effect.sync(() => Array.from(batch).forEach(onEvent))
      // Taken events are delivered even if the consumer is interrupted right after taking them.
      const consumer = yield* Effect.fork(
        Effect.forever(
          Effect.uninterruptibleMask((restore) =>
            Effect.flatMap(restore(Queue.takeBetween(subscription, 1, 4096)), deliver),
          ).pipe(Effect.zipRight(Effect.sleep(batchEveryMs))),
        ),
      )
      const result = yield* run(events)
      yield* Fiber.interrupt(consumer)
      yield* Effect.flatMap(Queue.takeAll(subscription), deliver)
      return result
    }),
  )
