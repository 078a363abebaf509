import type { Command } from "commander"
import type { ViewCommandOptions } from "../commands/viewCommand.js"
import type { RunCommand } from "./RunCommand.js"

/** Declares `proctor view`; its implementation (commands/viewCommand.ts) loads when it runs. */
export const registerViewCommand = (program: Command, run: RunCommand): void => {
  program
    .command("view")
    .description("browse run directories in the viewer: a local web server on loopback (Ctrl-C stops it)")
    .argument(
      "<run_dir...>",
      "run directories (proctor eval's --run-dir), several to compare them, or a folder of runs (runs/) to list them",
    )
    .option("--port <port>", "port on 127.0.0.1 (default 0: any free port)")
    .option("--open", "open the viewer in the default browser")
    .action((runDirs: ReadonlyArray<string>, options: ViewCommandOptions) =>
      run(async (io) => (await import("../commands/viewCommand.js")).viewCommand(runDirs, options, io)),
    )
}
