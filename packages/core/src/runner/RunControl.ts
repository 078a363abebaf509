import { Deferred, type Effect, Exit, FiberId } from "effect"

/**
 * Lets the outside world (a signal handler, a job cancel) stop a run. Plain callbacks, because signal
 * handlers live outside Effect. `requestStop` ends the taking of new rollouts; `cancelInFlight` then
 * abandons the ones still running (they become missing keys, run again on resume).
 */
export interface RunControl {
  readonly requestStop: () => void
  readonly cancelInFlight: () => void
  readonly isStopRequested: () => boolean
  /** Completes when a stop is requested, so waits (backoff) can be cut short. */
  readonly stopped: Effect.Effect<void>
  readonly cancelled: Effect.Effect<void>
}

const latch = () => {
  const deferred = Deferred.unsafeMake<void>(FiberId.none)
  return { open: () => Deferred.unsafeDone(deferred, Exit.void), await: Deferred.await(deferred) }
}

export const makeRunControl = (): RunControl => {
  const stop = latch()
  const cancel = latch()
  let stopRequested = false
  return {
    requestStop: () => {
      stopRequested = true
      stop.open()
    },
    cancelInFlight: () => {
      stopRequested = true
      stop.open()
      cancel.open()
    },
    isStopRequested: () => stopRequested,
    stopped: stop.await,
    cancelled: cancel.await,
  }
}
