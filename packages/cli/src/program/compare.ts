import type { Command } from "commander"
import { addFlags, type FlagValues, toggle } from "./flagTable.js"
import { jobServerFlags } from "./jobServerFlags.js"
import type { RunCommand } from "./RunCommand.js"

export const compareFlags = {
  json: toggle("--json", "print the comparison as JSON"),
  markdown: toggle("--markdown", "print the comparison as GitHub markdown (a PR comment)"),
  failIfWorse: toggle("--fail-if-worse", "exit 1 when B is significantly worse than A (a CI gate)"),
  ...jobServerFlags,
}
export type CompareOptions = FlagValues<typeof compareFlags>

/** Declares `proctor compare A B`; its implementation (commands/compareCommand.ts) loads when it runs. */
export const registerCompareCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program
      .command("compare")
      .description("compare run B with run A seed by seed: the difference, its 95% CI and whether it is significant")
      .argument("<a>", "run directory (or, with --backend, job id) of the baseline")
      .argument("<b>", "run directory (or, with --backend, job id) of the candidate"),
    compareFlags,
  ).action((a: string, b: string, options: CompareOptions) =>
    run(async (io) => (await import("../commands/compareCommand.js")).compareCommand(a, b, options, io)),
  )
}
