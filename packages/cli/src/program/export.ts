import { numberFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, type FlagValues, parsed, text } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

/**
 * `--format` is checked by the implementation, against @proctor/report's list: importing that here would load
 * the report and Effect into every command's start-up, `proctor --help` included.
 */
export const exportFlags = {
  format: text("--format <format>", "csv, jsonl, junit, markdown, sft or traces-zip", { required: true }),
  output: text("--output <file>", "write here instead of stdout (required for traces-zip)"),
  minScore: parsed(
    "--min-score <score>",
    "sft: only rollouts scoring at least this (default: the run's pass_threshold)",
    numberFlag({}),
  ),
}
export type ExportOptions = FlagValues<typeof exportFlags>

/** Declares `proctor export RUN_DIR --format F`; its implementation (commands/exportCommand.ts) loads when it runs. */
export const registerExportCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program
      .command("export")
      .description("write a run's results as CSV, JSONL, JUnit XML, markdown, fine-tuning JSONL or a traces zip")
      .argument("<run_dir>", "run directory"),
    exportFlags,
  ).action((runDir: string, options: ExportOptions) =>
    run(async (io) => (await import("../commands/exportCommand.js")).exportCommand(runDir, options, io)),
  )
}
