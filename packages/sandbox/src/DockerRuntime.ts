import { SandboxError, SandboxRuntime, type SandboxRuntimeService, type SandboxSpec } from "@proctor/core"
import { Effect, Layer, type Scope } from "effect"
import { causeMessage } from "./internal/causeMessage.js"
import { DockerApi } from "./internal/DockerApi.js"
import { dockerCall, imageMissing } from "./internal/dockerErrors.js"
import { makeDockerImages } from "./internal/dockerImages.js"
import {
  LABEL_OPENER,
  LABEL_OWNER,
  LABEL_OWNER_GROUP,
  LABEL_RUN,
  LABEL_SANDBOX,
  openDockerSandbox,
  removeContainer,
} from "./internal/dockerSandbox.js"
import { defaultRelayProgram, type RelayProgram } from "./internal/interceptorRelay.js"
import { openerMayRun } from "./internal/openerProcess.js"

/** A process whose sandboxes another process may have to remove: a job server's worker, in its cluster. */
export interface SandboxOwner {
  /** The process (a worker's id): `proctor.owner`. */
  readonly id: string
  /** Where it and the processes that prune after it meet (a cluster): `proctor.owner_group`. */
  readonly group: string
}

export interface DockerRuntimeOptions {
  /** The daemon's socket; default `/var/run/docker.sock`. */
  readonly socketPath?: string | undefined
  /**
   * Labels every container with the process that opens it and its group, so `pruneOrphans` can tell the
   * containers of a killed member of the group from those of live ones; another group's are never its to remove.
   * A job server's worker sets it. Absent: containers carry no owner and `pruneOrphans` removes none.
   */
  readonly owner?: SandboxOwner | undefined
  /** What relays a container's loopback to its interceptor: default `socat` when installed, else Node. */
  readonly relay?: RelayProgram | undefined
  /**
   * How long the daemon may take to begin answering a container's quick calls (create, start, inspect, remove,
   * exec create and inspect) before the call fails naming a wedged daemon; default 60 s. Copies and image builds
   * are not bounded by it.
   */
  readonly callTimeoutMs?: number | undefined
}

/**
 * Sandboxes as containers of the local Docker engine, spoken to over its Engine API (1.41) on the unix socket.
 * Each is labelled `proctor.run`/`proctor.rollout`, has no network (`NetworkMode: none`; the interceptor relay
 * gives it one port), bounded memory, pids and CPU, and is force-removed when its scope closes.
 */
const make = (options: DockerRuntimeOptions = {}): Effect.Effect<SandboxRuntimeService, SandboxError, Scope.Scope> =>
  Effect.gen(function* () {
    const socketPath = options.socketPath ?? "/var/run/docker.sock"
    const docker = yield* Effect.acquireRelease(
      Effect.sync(() => new DockerApi(socketPath, options.callTimeoutMs)),
      (api) => Effect.promise(() => api.close()),
    )
    yield* Effect.tryPromise({
      try: (signal) => docker.json("GET", "/version", undefined, signal),
      catch: (cause) =>
        new SandboxError({
          reason: "Unavailable",
          message: `no Docker daemon answers at ${socketPath} (start dockerd, or choose --sandbox bwrap): ${causeMessage(cause)}`,
          cause,
        }),
    })
    const images = makeDockerImages(docker)

    const open = Effect.fn("DockerRuntime.open")(function* (spec: SandboxSpec) {
      const image = yield* images.remembered(spec.image)
      return yield* openDockerSandbox(docker, spec, image, options.owner, options.relay ?? defaultRelayProgram()).pipe(
        // Removed since it was found: the next open looks it up (or builds it) again.
        Effect.tapError((error) =>
          imageMissing(error.cause) ? Effect.sync(() => images.forget(spec.image)) : Effect.void,
        ),
      )
    })

    const containersLabelled = (label: string) =>
      dockerCall("StartFailed", "listing proctor's containers", (signal) =>
        docker.json<ReadonlyArray<{ Id: string; Labels: Readonly<Record<string, string>> | null }>>(
          "GET",
          `/containers/json?all=1&filters=${encodeURIComponent(JSON.stringify({ label: [label] }))}`,
          undefined,
          signal,
        ),
      )
    const removeAll = (containers: ReadonlyArray<{ Id: string }>) =>
      Effect.as(
        Effect.promise(() => Promise.all(containers.map((container) => removeContainer(docker, container.Id)))),
        containers.length,
      )

    const prune = Effect.fn("DockerRuntime.prune")(function* (runId?: string) {
      if (runId !== undefined) {
        return { removed: yield* removeAll(yield* containersLabelled(`${LABEL_RUN}=${runId}`)), running: 0 }
      }
      const containers = yield* containersLabelled(LABEL_SANDBOX)
      const left = containers.filter((container) => !openerMayRun(container.Labels?.[LABEL_OPENER]))
      return { removed: yield* removeAll(left), running: containers.length - left.length }
    })

    const pruneOrphans = Effect.fn("DockerRuntime.pruneOrphans")(function* (liveOwners: ReadonlySet<string>) {
      if (options.owner === undefined) return 0
      const containers = yield* containersLabelled(`${LABEL_OWNER_GROUP}=${options.owner.group}`)
      return yield* removeAll(containers.filter((container) => !liveOwners.has(container.Labels?.[LABEL_OWNER] ?? "")))
    })

    const service: SandboxRuntimeService = {
      name: "docker",
      isolated: true,
      // A container's writable layer can be capped (`StorageOpt.size`) only on overlay2 over xfs with project
      // quotas; proctor does not ask for it.
      enforcesStorage: false,
      prepare: (image) => Effect.asVoid(images.resolve(image)),
      open,
      prune,
      pruneOrphans,
    }
    return service
  })

export const DockerRuntime = {
  make,
  layer: (options: DockerRuntimeOptions = {}): Layer.Layer<SandboxRuntime, SandboxError> =>
    Layer.scoped(SandboxRuntime, make(options)),
} as const
