import {
  type ConfigError,
  LocalRuntime,
  type SandboxError,
  type SandboxRuntimeName,
  type SandboxRuntimeService,
} from "@proctor/core"
import { Effect, type Scope } from "effect"
import { BwrapRuntime } from "./BwrapRuntime.js"
import { DockerRuntime, type DockerRuntimeOptions } from "./DockerRuntime.js"

/**
 * The one place a runtime's name (`--sandbox`, `sandbox = "…"`, a job's `sandbox`) becomes a runtime: `local` is
 * core's, `docker` and `bwrap` this package's. `docker` takes the options of the process that opens it.
 */
export const sandboxRuntimeOf = (
  name: SandboxRuntimeName,
  docker: DockerRuntimeOptions = {},
): Effect.Effect<SandboxRuntimeService, ConfigError | SandboxError, Scope.Scope> => {
  switch (name) {
    case "local":
      return Effect.succeed(LocalRuntime.make())
    case "docker":
      return DockerRuntime.make(docker)
    case "bwrap":
      return BwrapRuntime.make()
  }
}
