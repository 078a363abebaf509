import { numberFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, type FlagValues, parsed, text } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const reportFlags = {
  html: text("--html <file>", "write the HTML report here"),
  maxTranscriptsMb: parsed(
    "--max-transcripts-mb <mb>",
    "embed rollout transcripts up to this size, failures first; every row is embedded regardless",
    numberFlag({ unit: "megabytes", min: 0 }),
    { default: 50 },
  ),
}
export type ReportOptions = FlagValues<typeof reportFlags>

/** Declares `proctor report`; its implementation (commands/reportCommand.ts) loads when it runs. */
export const registerReportCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program
      .command("report")
      .description(
        "write a run (or two, to compare them, or a grid run) as one self-contained HTML file: the viewer, offline",
      )
      .argument(
        "<run_dirs...>",
        "run directories (two: the page also compares them seed by seed), or a grid run directory (its ranking and task × variant matrix)",
      ),
    reportFlags,
  ).action((runDirs: ReadonlyArray<string>, options: ReportOptions) =>
    run(async (io) => (await import("../commands/reportCommand.js")).reportCommand(runDirs, options, io)),
  )
}
