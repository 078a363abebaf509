import { Effect } from "effect"

/**
 * Lets Node's event loop run (answer other requests, read sockets) before going on. `Effect.yieldNow` is not
 * enough: Effect's scheduler resumes on the microtask queue, which runs before any I/O, so a long rows page
 * would still hold back a rollout asked for meanwhile.
 */
export const yieldToEventLoop: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})
