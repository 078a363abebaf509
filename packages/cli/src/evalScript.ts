import { evalCommand } from "./commands/evalCommand.js"
import type { ExitCode } from "./exitCodes.js"
import type { Io } from "./Io.js"
import type { EvalOptions } from "./program/evalFlags.js"
import { runExit } from "./runEffect.js"

/**
 * `proctor eval`, run: the entry of the script build.mjs bundles it into (dist/eval-script.js, loaded with its
 * code cache by program/eval.ts). The command's Effect runs on the one copy of Effect that script carries.
 */
export const runEval = (options: EvalOptions, io: Io): Promise<ExitCode> => runExit(evalCommand(options, io))
