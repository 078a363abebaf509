import {
  ConfigError,
  LocalRuntime,
  type SandboxError,
  type SandboxRuntimeName,
  type SandboxRuntimeService,
} from "@proctor/core"
import { Effect, type Scope } from "effect"

/**
 * The one place `--sandbox` / `sandbox = "…"` becomes a runtime. `local` is core's; `docker` and `bwrap` come from
 * `@proctor/sandbox`.
 */
export const sandboxRuntimeOf = (
  name: SandboxRuntimeName,
): Effect.Effect<SandboxRuntimeService, ConfigError | SandboxError, Scope.Scope> => {
  switch (name) {
    case "local":
      return Effect.succeed(LocalRuntime.make())
    // docker, bwrap: @proctor/sandbox's runtimes go here.
    default:
      return Effect.fail(
        new ConfigError({
          reason: "InvalidValue",
          message: `sandbox: the ${name} runtime is not part of this build; use --sandbox local`,
        }),
      )
  }
}
