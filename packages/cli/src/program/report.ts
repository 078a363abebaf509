import type { Command } from "commander"
import type { RunCommand } from "./RunCommand.js"

/** Declares `proctor report`; its implementation (commands/reportCommand.ts) loads when it runs. */
export const registerReportCommand = (program: Command, run: RunCommand): void => {
  program
    .command("report")
    .description("write a run (or two, to compare them) as one self-contained HTML file: the viewer, offline")
    .argument("<run_dirs...>", "run directories (two: the page also compares them seed by seed)")
    .option("--html <file>", "write the HTML report here")
    .option(
      "--max-transcripts-mb <mb>",
      "embed rollout transcripts up to this size, failures first; every row is embedded regardless",
      "50",
    )
    .action((runDirs: ReadonlyArray<string>, options: Record<string, string | undefined>) =>
      run(async (io) => (await import("../commands/reportCommand.js")).reportCommand(runDirs, options, io)),
    )
}
