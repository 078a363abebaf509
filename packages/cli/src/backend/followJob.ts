import { Deferred, Effect, Exit, FiberId, Option, type Scope, Stream } from "effect"
import type { FollowOptions, JobsClientService } from "./JobsClient.js"
import type { JobsClientError } from "./JobsClientError.js"
import type { Job } from "./JobsWire.js"
import type { JobUpdate } from "./JobUpdate.js"

export type FollowOutcome = { readonly _tag: "Finished"; readonly job: Job } | { readonly _tag: "Detached" }

/**
 * A latch opened by the first Ctrl-C (or SIGTERM) while it is installed. Installed before a job is
 * submitted, so a Ctrl-C during the submission still lets the CLI print the new job's id before it leaves.
 * While installed, the signals no longer kill the process: the caller must check the latch.
 */
export const detachOnSignal: Effect.Effect<Deferred.Deferred<void>, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => {
    const latch = Deferred.unsafeMake<void>(FiberId.none)
    const open = () => {
      Deferred.unsafeDone(latch, Exit.void)
    }
    process.on("SIGINT", open)
    process.on("SIGTERM", open)
    return { latch, open }
  }),
  ({ open }) =>
    Effect.sync(() => {
      process.off("SIGINT", open)
      process.off("SIGTERM", open)
    }),
).pipe(Effect.map(({ latch }) => latch))

/**
 * Follows a job until it ends (its last snapshot) or the latch opens (detached: the job keeps running on the
 * server). Every update goes to `onUpdate` as it arrives.
 */
export const followJob = (
  client: JobsClientService,
  jobId: string,
  options: {
    readonly onUpdate: (update: JobUpdate) => void
    readonly detach: Deferred.Deferred<void>
    readonly follow?: FollowOptions
  },
): Effect.Effect<FollowOutcome, JobsClientError> => {
  const run = client.follow(jobId, options.follow).pipe(
    Stream.tap((update) => Effect.sync(() => options.onUpdate(update))),
    Stream.runFold(Option.none<Job>(), (last, update) => (update._tag === "Snapshot" ? Option.some(update.job) : last)),
    // follow() always ends on a snapshot; this only guards the type.
    Effect.flatMap(Option.match({ onNone: () => client.get(jobId), onSome: Effect.succeed })),
    Effect.map((job): FollowOutcome => ({ _tag: "Finished", job })),
  )
  const detached = Deferred.await(options.detach).pipe(Effect.as<FollowOutcome>({ _tag: "Detached" }))
  return Effect.raceFirst(detached, run)
}
