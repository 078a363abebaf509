import type { Command } from "commander"
import type { RunCommand } from "./RunCommand.js"

type Options = Record<string, string | boolean | undefined>

/** Declares `proctor compare A B`; its implementation (commands/compareCommand.ts) loads when it runs. */
export const registerCompareCommand = (program: Command, run: RunCommand): void => {
  program
    .command("compare")
    .description("compare run B with run A seed by seed: the difference, its 95% CI and whether it is significant")
    .argument("<a>", "run directory (or, with --backend, job id) of the baseline")
    .argument("<b>", "run directory (or, with --backend, job id) of the candidate")
    .option("--json", "print the comparison as JSON")
    .option("--markdown", "print the comparison as GitHub markdown (a PR comment)")
    .option("--fail-if-worse", "exit 1 when B is significantly worse than A (a CI gate)")
    .option("--backend <url>", "job server of job ids (default PROCTOR_BACKEND_URL, then SYNTH_BASE_URL)")
    .option("--api-key <key>", "job server API key (default PROCTOR_API_KEY, then SYNTH_API_KEY)")
    .option("--env-file <path>", "dotenv file with PROCTOR_* / SYNTH_* variables")
    .action((a: string, b: string, options: Options) =>
      run(async (io) => (await import("../commands/compareCommand.js")).compareCommand(a, b, options, io)),
    )
}
