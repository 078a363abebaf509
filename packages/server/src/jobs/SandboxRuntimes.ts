import type { ConfigError, SandboxError, SandboxRuntimeName, SandboxRuntimeService } from "@proctor/core"
import { type SandboxOwner, sandboxRuntimeOf } from "@proctor/sandbox"
import { Context, Effect, Layer, Scope } from "effect"

export interface SandboxRuntimesOptions {
  /**
   * Labels this process's Docker sandboxes with its id (a worker's id) and its cluster, so that `pruneOrphans` in
   * another worker of the cluster can tell them from those of a process that was killed. Absent: sandboxes carry no
   * owner, and this process prunes none.
   */
  readonly owner?: SandboxOwner | undefined
}

export interface SandboxRuntimesService {
  /** This process's runtime of that name: made on first use (Docker: its daemon checked), then shared by every job. */
  readonly get: (name: SandboxRuntimeName) => Effect.Effect<SandboxRuntimeService, ConfigError | SandboxError>
  /**
   * Removes the sandboxes on this machine of this process's cluster whose owner is not in `liveOwners`, on the
   * runtimes that can leave some.
   */
  readonly pruneOrphans: (liveOwners: ReadonlySet<string>) => Effect.Effect<number, ConfigError | SandboxError>
}

const makeSandboxRuntimes = (options: SandboxRuntimesOptions = {}) =>
  Effect.gen(function* () {
    // Runtimes live as long as the process's services: a Docker runtime holds its connection to the daemon.
    const scope = yield* Effect.scope
    const made = new Map<SandboxRuntimeName, Effect.Effect<SandboxRuntimeService, ConfigError | SandboxError>>()
    const get = (name: SandboxRuntimeName) =>
      Effect.suspend(() => {
        const known = made.get(name)
        if (known !== undefined) return known
        return Effect.flatMap(
          Effect.cached(Scope.extend(sandboxRuntimeOf(name, { owner: options.owner }), scope)),
          (once) => {
            made.set(name, once)
            // A daemon that was not up yet is asked again by the next job.
            return Effect.tapError(once, () => Effect.sync(() => made.delete(name)))
          },
        )
      })

    // Only Docker's sandboxes outlive a killed process. A machine without a daemon has none to prune.
    const pruneOrphans = (liveOwners: ReadonlySet<string>) =>
      get("docker").pipe(
        Effect.flatMap((docker) => docker.pruneOrphans?.(liveOwners) ?? Effect.succeed(0)),
        Effect.catchIf(
          (error) => error._tag === "SandboxError" && error.reason === "Unavailable",
          () => Effect.succeed(0),
        ),
      )

    return { get, pruneOrphans } satisfies SandboxRuntimesService
  })

/**
 * The sandbox runtimes a process that runs agent jobs offers them (an embedded server, a cluster's worker): Docker
 * and bubblewrap of this machine, made when a job first asks for one.
 */
export class SandboxRuntimes extends Context.Tag("@proctor/server/SandboxRuntimes")<
  SandboxRuntimes,
  SandboxRuntimesService
>() {
  static readonly make = makeSandboxRuntimes
  static readonly layer = (options: SandboxRuntimesOptions = {}): Layer.Layer<SandboxRuntimes> =>
    Layer.scoped(SandboxRuntimes, makeSandboxRuntimes(options))
}
