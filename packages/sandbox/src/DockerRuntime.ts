import { SandboxError, SandboxRuntime, type SandboxRuntimeService, type SandboxSpec } from "@proctor/core"
import { Effect, Layer, type Scope } from "effect"
import { causeMessage } from "./internal/causeMessage.js"
import { DockerApi } from "./internal/DockerApi.js"
import { dockerCall, imageMissing } from "./internal/dockerErrors.js"
import { makeDockerImages } from "./internal/dockerImages.js"
import { LABEL_RUN, LABEL_SANDBOX, openDockerSandbox, removeContainer } from "./internal/dockerSandbox.js"

export interface DockerRuntimeOptions {
  /** The daemon's socket; default `/var/run/docker.sock`. */
  readonly socketPath?: string | undefined
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
      Effect.sync(() => new DockerApi(socketPath)),
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
      return yield* openDockerSandbox(docker, spec, image).pipe(
        // Removed since it was found: the next open looks it up (or builds it) again.
        Effect.tapError((error) =>
          imageMissing(error.cause) ? Effect.sync(() => images.forget(spec.image)) : Effect.void,
        ),
      )
    })

    const prune = Effect.fn("DockerRuntime.prune")(function* (runId?: string) {
      const label = runId === undefined ? LABEL_SANDBOX : `${LABEL_RUN}=${runId}`
      const filters = encodeURIComponent(JSON.stringify({ label: [label] }))
      const containers = yield* dockerCall("StartFailed", "listing proctor's containers", (signal) =>
        docker.json<ReadonlyArray<{ Id: string }>>(
          "GET",
          `/containers/json?all=1&filters=${filters}`,
          undefined,
          signal,
        ),
      )
      yield* Effect.promise(() => Promise.all(containers.map((container) => removeContainer(docker, container.Id))))
      return containers.length
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
    }
    return service
  })

export const DockerRuntime = {
  make,
  layer: (options: DockerRuntimeOptions = {}): Layer.Layer<SandboxRuntime, SandboxError> =>
    Layer.scoped(SandboxRuntime, make(options)),
} as const
