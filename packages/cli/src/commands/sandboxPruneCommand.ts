import type { PruneOutcome } from "@proctor/core"
import { sandboxRuntimeOf } from "@proctor/sandbox"
import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { sandboxCount } from "../internal/sandboxCount.js"

/** What a prune did, in one line: without a run, the sandboxes of processes still running are left and counted. */
const pruned = ({ removed, running }: PruneOutcome, run: string | undefined): string =>
  run !== undefined
    ? `removed ${sandboxCount(removed)} of run ${run}`
    : `removed ${sandboxCount(removed)} left by ended processes` +
      (running === 0 ? "" : `; left ${sandboxCount(running)} of running processes (--run RUN_ID removes one run's)`)

/**
 * `proctor sandbox prune [--run ID] [--sandbox docker|bwrap]`: removes the sandboxes labelled with the run, or
 * those whose process has ended (a crash, a `kill -9`). Without `--sandbox`, a runtime this machine lacks is passed
 * over, and said so.
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
      if (outcome._tag === "Right") {
        io.stdout.write(`${name}: ${pruned(outcome.right, options.run)}\n`)
      } else if (outcome.left.reason === "Unavailable" && options.sandbox === undefined) {
        io.stdout.write(`${name}: not available here, skipped (${outcome.left.message})\n`)
      } else {
        io.stderr.write(`${name}: ${outcome.left.message}\n`)
        exitCode = ExitCode.Failed
      }
    }
    return exitCode
  })
