import type { Command } from "commander"
import { type EvalOptions, evalFlags } from "./evalFlags.js"
import { addFlags } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

/** Declares `proctor eval`; its implementation (commands/evalCommand.ts) loads when it runs. */
export const registerEvalCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program
      .command("eval")
      .description("run one rollout per seed and attempt against a task app, or an agent on Harbor-format tasks")
      .argument("[app_id]", "task app id (synth-ai's APP_ID)"),
    evalFlags,
  ).action(async (appId: string | undefined, options: EvalOptions) => {
    await run(async (io) => {
      // One script with its code cache (src/evalScript.ts, build.mjs), found through this package's exports.
      const { loadScript } = await import("../internal/loadScript.js")
      const script = loadScript(new URL(import.meta.resolve("proctor/eval-script")))
      const { runEval } = script.exports as typeof import("../evalScript.js")
      return runEval({ ...options, ...(appId === undefined ? {} : { appId }) }, io)
    })
  })
}
