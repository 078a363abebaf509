import type { Command } from "commander"
import type { RunCommand } from "./RunCommand.js"

type Options = Record<string, string | boolean | undefined>

/**
 * Declares `proctor export RUN_DIR --format F`; its implementation (commands/exportCommand.ts) loads when it
 * runs and checks the format against @proctor/report's list: importing that here would load the report and
 * Effect into every command's start-up, `proctor --help` included.
 */
export const registerExportCommand = (program: Command, run: RunCommand): void => {
  program
    .command("export")
    .description("write a run's results as CSV, JSONL, JUnit XML, markdown, fine-tuning JSONL or a traces zip")
    .argument("<run_dir>", "run directory")
    .requiredOption("--format <format>", "csv, jsonl, junit, markdown, sft or traces-zip")
    .option("--output <file>", "write here instead of stdout (required for traces-zip)")
    .option("--min-score <score>", "sft: only rollouts scoring at least this (default: the run's pass_threshold)")
    .action((runDir: string, options: Options) =>
      run(async (io) => (await import("../commands/exportCommand.js")).exportCommand(runDir, options, io)),
    )
}
