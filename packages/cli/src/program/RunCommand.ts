import type { Effect } from "effect"
import type { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"

/**
 * Runs one command's implementation and records its exit code. Actions pass a loader (`await import(...)`)
 * so `proctor --help` and every other command load only what they use. A loader resolves to the command's
 * Effect, or runs the command itself and resolves to its exit code (eval: a script with its own Effect).
 */
export type RunCommand = (load: (io: Io) => Promise<Effect.Effect<ExitCode> | ExitCode>) => Promise<void>
