import { portFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, type FlagValues, parsed, toggle } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const viewFlags = {
  port: parsed("--port <port>", "port on 127.0.0.1 (default 0: any free port)", portFlag),
  open: toggle("--open", "open the viewer in the default browser"),
}
export type ViewOptions = FlagValues<typeof viewFlags>

/** Declares `proctor view`; its implementation (commands/viewCommand.ts) loads when it runs. */
export const registerViewCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program
      .command("view")
      .description("browse run directories in the viewer: a local web server on loopback (Ctrl-C stops it)")
      .argument(
        "<run_dir...>",
        "run directories (proctor eval's --run-dir), several to compare them, a folder of runs (runs/) to list them, or a grid run directory (its ranking and task × variant matrix)",
      ),
    viewFlags,
  ).action((runDirs: ReadonlyArray<string>, options: ViewOptions) =>
    run(async (io) => (await import("../commands/viewCommand.js")).viewCommand(runDirs, options, io)),
  )
}
