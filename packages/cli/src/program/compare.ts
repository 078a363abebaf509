import type { Command } from "commander"
import { addFlags, type FlagValues, toggle } from "./flagTable.js"
import { jobServerFlags } from "./jobServerFlags.js"
import type { RunCommand } from "./RunCommand.js"

export const compareFlags = {
  json: toggle("--json", "print the comparison as JSON"),
  markdown: toggle("--markdown", "print the comparison as GitHub markdown (a PR comment)"),
  failIfWorse: toggle("--fail-if-worse", "exit 1 when B is significantly worse than A (a CI gate; two runs only)"),
  ...jobServerFlags,
}
export type CompareOptions = FlagValues<typeof compareFlags>

/** Declares `proctor compare A B`; its implementation (commands/compareCommand.ts) loads when it runs. */
export const registerCompareCommand = (program: Command, run: RunCommand): void => {
  addFlags(
    program
      .command("compare")
      .description(
        "compare run B with run A seed by seed (the difference, its 95% CI, whether it is significant); or rank a grid run's variants, or three or more runs, with Holm-corrected pairwise comparisons",
      )
      .argument(
        "<runs...>",
        "A B: run directories (or, with --backend, job ids) of the baseline and the candidate; or one grid run directory; or three or more run directories",
      ),
    compareFlags,
  ).action((runs: ReadonlyArray<string>, options: CompareOptions) =>
    run(async (io) => (await import("../commands/compareManyCommand.js")).compareRunsCommand(runs, options, io)),
  )
}
