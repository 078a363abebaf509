import { SandboxError, SandboxRuntime, type SandboxRuntimeService, type SandboxSpec } from "@proctor/core"
import { Effect, Layer } from "effect"
import { defaultRegistryRoot, pruneRegistry } from "./internal/bwrapRegistry.js"
import { openBwrapSandbox } from "./internal/bwrapSandbox.js"
import { cgroupsAvailable } from "./internal/cgroups.js"
import { defaultRelayProgram, type RelayProgram } from "./internal/interceptorRelay.js"
import { onPath } from "./internal/onPath.js"

export interface BwrapRuntimeOptions {
  /** Where live sandboxes are recorded for `prune`; default `$TMPDIR/proctor-sandboxes`. */
  readonly registryRoot?: string | undefined
  /** What relays a sandbox's loopback to its interceptor: default `socat` when installed, else Node. */
  readonly relay?: RelayProgram | undefined
}

/**
 * Sandboxes as bubblewrap namespaces: the host's installed software read-only and none of its data (homes, /tmp,
 * /run and /var are empty ones of the sandbox's own), a writable workdir and `mounts`, its own pid, network
 * (loopback only), ipc and uts namespaces, limits by cgroups. Images are ignored: the software is the host's.
 */
const make = (options: BwrapRuntimeOptions = {}): Effect.Effect<SandboxRuntimeService, SandboxError> =>
  Effect.gen(function* () {
    for (const tool of ["bwrap", "nsenter"]) {
      if (!onPath(tool)) {
        return yield* new SandboxError({
          reason: "Unavailable",
          message: `${tool} is not installed (apt-get install bubblewrap util-linux)`,
        })
      }
    }
    const config = {
      registryRoot: options.registryRoot ?? defaultRegistryRoot(),
      useCgroups: cgroupsAvailable(),
      relay: options.relay ?? defaultRelayProgram(),
    }
    const service: SandboxRuntimeService = {
      name: "bwrap",
      isolated: true,
      // Every writable directory is a tmpfs of `storageMb`.
      enforcesStorage: true,
      prepare: () => Effect.void,
      open: Effect.fn("BwrapRuntime.open")(function* (spec: SandboxSpec) {
        return yield* openBwrapSandbox(config, spec)
      }),
      prune: Effect.fn("BwrapRuntime.prune")(function* (runId?: string) {
        return yield* Effect.promise(() => pruneRegistry(config.registryRoot, runId))
      }),
    }
    return service
  })

export const BwrapRuntime = {
  make,
  layer: (options: BwrapRuntimeOptions = {}): Layer.Layer<SandboxRuntime, SandboxError> =>
    Layer.effect(SandboxRuntime, make(options)),
} as const
