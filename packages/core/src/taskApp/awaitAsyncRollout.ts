import { Clock, Duration, Effect } from "effect"
import type { PendingRollout } from "./PendingRollouts.js"
import { nextPollDelayMs } from "./PollSchedule.js"
import type { TaskAppClientService } from "./TaskAppClient.js"
import { TaskAppError } from "./TaskAppError.js"
import type { RolloutResponse } from "./TaskAppWire.js"

/** How a rollout the app ran in the background ended, as far as waiting for it goes. */
export type SettledRollout =
  | { readonly _tag: "Done"; readonly response: RolloutResponse }
  /** The app stopped it before its end (`cancelled`, `terminated`…): recorded as aborted. */
  | { readonly _tag: "Stopped"; readonly response: RolloutResponse }
  /** The app no longer knows the id (404). */
  | { readonly _tag: "Unknown" }

export interface AwaitOptions {
  readonly client: TaskAppClientService
  readonly pending: PendingRollout
  readonly timeoutS: number
  /** The wait before the first poll (`firstPollDelayMs`; 0 when re-attaching after a restart). */
  readonly firstDelayMs: number
}

/**
 * Polls a rollout the app runs in the background until it settles, on the schedule of `PollSchedule`, within the
 * rollout's deadline (`timeout_s` from when the app accepted it). Answers a retry could change (the app unreachable,
 * a 5xx, a 429) are polled through; the deadline bounds them. Fails `Timeout` at the deadline (the caller asks the
 * app to terminate the rollout), or with the app's own failure of the rollout (`RolloutFailed`).
 */
export const awaitAsyncRollout = Effect.fn("TaskApp.awaitAsyncRollout")(function* (options: AwaitOptions) {
  const { client, pending, timeoutS } = options
  const deadlineMs = pending.acceptedAtMs + timeoutS * 1000
  const pastDeadline = new TaskAppError({
    reason: "Timeout",
    endpoint: `GET ${pending.statusPath}`,
    message: `the task app's rollout ${pending.appRolloutId} gave no result within ${timeoutS} s`,
  })
  let delayMs = options.firstDelayMs
  for (let polls = 0; ; polls++) {
    const now = yield* Clock.currentTimeMillis
    // A rollout re-attached after its deadline is still asked about once: its result may be waiting.
    if (polls > 0 && now + delayMs > deadlineMs) {
      yield* Effect.sleep(Duration.millis(Math.max(0, deadlineMs - now)))
      return yield* Effect.fail(pastDeadline)
    }
    yield* Effect.sleep(Duration.millis(delayMs))
    const polled = yield* Effect.either(client.pollRollout(pending.statusPath))
    if (polled._tag === "Left") {
      if (!polled.left.retryable) return yield* Effect.fail(polled.left)
      delayMs = nextPollDelayMs(polls + 1, polled.left.retryAfterMs)
      continue
    }
    const { state, retryAfterMs } = polled.right
    switch (state._tag) {
      case "Running":
        delayMs = nextPollDelayMs(polls + 1, retryAfterMs)
        break
      case "Done":
        return { _tag: "Done", response: state.result } satisfies SettledRollout as SettledRollout
      case "Stopped":
        return { _tag: "Stopped", response: state.result } satisfies SettledRollout as SettledRollout
      case "Unknown":
        return { _tag: "Unknown" } satisfies SettledRollout as SettledRollout
      case "Failed":
        return yield* Effect.fail(
          new TaskAppError({
            reason: "RolloutFailed",
            endpoint: `GET ${pending.statusPath}`,
            message: `the task app's rollout ${pending.appRolloutId} ended ${state.status}: ${state.message}`,
          }),
        )
    }
  }
})
