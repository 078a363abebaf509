import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import { PausableTimer } from "../src/runner/PausableTimer.js"

describe("PausableTimer (the agent's working time)", () => {
  it.effect("counts only running time, and `reaches` completes when the running time reaches the limit", () =>
    Effect.gen(function* () {
      const timer = yield* PausableTimer.make()
      const reached = yield* Effect.fork(timer.reaches(() => 10_000))
      yield* TestClock.adjust("4 seconds")
      timer.pause()
      // Paused for a minute: none of it counts.
      yield* TestClock.adjust("60 seconds")
      expect(timer.elapsedMs()).toBe(4_000)
      expect(reached.unsafePoll()).toBeNull()
      timer.resume()
      yield* TestClock.adjust("5999 millis")
      expect(reached.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(reached)
      expect(timer.elapsedMs()).toBe(10_000)
    }),
  )

  it.effect("a limit changed while waiting is read afresh; a null limit never completes", () =>
    Effect.gen(function* () {
      const timer = yield* PausableTimer.make()
      let limit: number | null = null
      const reached = yield* Effect.fork(timer.reaches(() => limit))
      yield* TestClock.adjust("1 hour")
      expect(reached.unsafePoll()).toBeNull()
      limit = 3_601_000
      timer.changed()
      yield* TestClock.adjust("999 millis")
      expect(reached.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(reached)
    }),
  )
})
