import {
  type ConfigError,
  LocalRuntime,
  type SandboxError,
  type SandboxRuntimeName,
  type SandboxRuntimeService,
} from "@proctor/core"
import { BwrapRuntime, DockerRuntime } from "@proctor/sandbox"
import { Effect, type Scope } from "effect"

/** The one place `--sandbox` / `sandbox = "…"` becomes a runtime: `local` is core's, `docker` and `bwrap` `@proctor/sandbox`'s. */
export const sandboxRuntimeOf = (
  name: SandboxRuntimeName,
): Effect.Effect<SandboxRuntimeService, ConfigError | SandboxError, Scope.Scope> => {
  switch (name) {
    case "local":
      return Effect.succeed(LocalRuntime.make())
    case "docker":
      return DockerRuntime.make()
    case "bwrap":
      return BwrapRuntime.make()
  }
}
