import { sandboxRuntimeOf } from "@proctor/sandbox"
import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"

/**
 * `proctor sandbox prune [--run ID] [--sandbox docker|bwrap]`: removes the sandboxes labelled with the run (or
 * all of proctor's). Without `--sandbox`, a runtime this machine lacks is passed over, and said so.
 */
export const sandboxPruneCommand = (
  options: { readonly run?: string | undefined; readonly sandbox?: "docker" | "bwrap" | undefined },
  io: Io,
): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    const names = options.sandbox === undefined ? (["docker", "bwrap"] as const) : [options.sandbox]
    let exitCode: ExitCode = ExitCode.Ok
    for (const name of names) {
      const outcome = yield* Effect.either(
        Effect.scoped(Effect.flatMap(sandboxRuntimeOf(name), (runtime) => runtime.prune(options.run))),
      )
      const scope = options.run === undefined ? "" : ` of run ${options.run}`
      if (outcome._tag === "Right") {
        io.stdout.write(`${name}: removed ${outcome.right} sandbox${outcome.right === 1 ? "" : "es"}${scope}\n`)
      } else if (outcome.left.reason === "Unavailable" && options.sandbox === undefined) {
        io.stdout.write(`${name}: not available here, skipped (${outcome.left.message})\n`)
      } else {
        io.stderr.write(`${name}: ${outcome.left.message}\n`)
        exitCode = ExitCode.Failed
      }
    }
    return exitCode
  })
