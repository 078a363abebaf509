import { type Command, Option } from "commander"
import type { RunCommand } from "./RunCommand.js"

/** Declares `proctor sandbox prune`; its implementation (commands/sandboxPruneCommand.ts) loads when it runs. */
export const registerSandboxCommands = (program: Command, run: RunCommand): void => {
  const sandbox = program.command("sandbox").description("proctor's sandboxes on this machine (Docker, bubblewrap)")
  sandbox
    .command("prune")
    .description("remove sandboxes left behind (by a crash or kill -9) and print how many")
    .option("--run <run_id>", "only the sandboxes of this run (default: all of proctor's)")
    .addOption(
      new Option("--sandbox <runtime>", "only this runtime's (default: every one available here)").choices([
        "docker",
        "bwrap",
      ]),
    )
    .action((options: { run?: string; sandbox?: "docker" | "bwrap" }) =>
      run(async (io) => (await import("../commands/sandboxPruneCommand.js")).sandboxPruneCommand(options, io)),
    )
}
