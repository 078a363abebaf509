import type { Command } from "commander"
import { addFlags, choice, type FlagValues, text } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const sandboxPruneFlags = {
  run: text("--run <run_id>", "every sandbox of this run (default: those whose process has ended)"),
  sandbox: choice("--sandbox <runtime>", "only this runtime's (default: every one available here)", [
    "docker",
    "bwrap",
  ]),
}
export type SandboxPruneOptions = FlagValues<typeof sandboxPruneFlags>

/** Declares `proctor sandbox prune`; its implementation (commands/sandboxPruneCommand.ts) loads when it runs. */
export const registerSandboxCommands = (program: Command, run: RunCommand): void => {
  const sandbox = program.command("sandbox").description("proctor's sandboxes on this machine (Docker, bubblewrap)")
  addFlags(
    sandbox.command("prune").description("remove sandboxes left behind (by a crash or kill -9) and print how many"),
    sandboxPruneFlags,
  ).action((options: SandboxPruneOptions) =>
    run(async (io) => (await import("../commands/sandboxPruneCommand.js")).sandboxPruneCommand(options, io)),
  )
}
