import { repeatableFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, type FlagValues, parsed, text, toggle } from "./flagTable.js"
import type { RunCommand } from "./RunCommand.js"

export const gradeFlags = {
  grader: parsed(
    "--grader <spec>",
    'a grader: a type (equals) or an inline TOML table ({ type = "numeric", tolerance = 0.01 }); repeatable; replaces --config\'s',
    repeatableFlag,
  ),
  config: text(
    "--config <file>",
    "a TOML file whose [[eval.graders]] tables are the graders and whose [eval.judge] is their judge (its other keys are not read)",
  ),
  name: text("--name <name>", "the grader set's name (default: its graders' names joined by +)"),
  judge: text(
    "--judge <table>",
    "the judge of the set's model graders, an inline TOML table like [eval.judge] (default: --config's [eval.judge], else the run's)",
  ),
  pricing: text("--pricing <file>", "JSON prices (USD per token) for the judges' calls, as eval's --pricing"),
  json: toggle("--json", "print the set's summary as JSON"),
}
export type GradeOptions = FlagValues<typeof gradeFlags>

/** Declares `proctor grade`; its implementation (commands/gradeCommand.ts) loads when it runs. */
export const registerGradeCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program
      .command("grade")
      .description(
        "grade a finished run's stored answers with other graders, without calling the model: a named set in RUN_DIR/grades/",
      )
      .argument("<run_dir>", "the run directory"),
    gradeFlags,
  ).action((runDir: string, options: GradeOptions) =>
    run(async (io) => (await import("../commands/gradeCommand.js")).gradeCommand(runDir, options, io)),
  )
}
