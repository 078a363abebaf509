import { Effect } from "effect"
import type { ExitCode } from "./exitCodes.js"
import { tuneV8ForRuns } from "./internal/tuneV8ForRuns.js"

/**
 * Runs a command's Effect, loaded, with V8 tuned for running it. Its own module, loaded with `import()` beside
 * the command: a dynamic `import("effect")` would load every module of effect's index, where this static import
 * lets the bundle keep only what commands use.
 */
export const runExit = (command: Effect.Effect<ExitCode>): Promise<ExitCode> => {
  tuneV8ForRuns()
  return Effect.runPromise(command)
}
