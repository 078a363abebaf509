import type { RunSummary } from "@proctor/core"

/** The CLI's exit codes: scripts and CI branch on these (what each means: `exitCodeMeanings`). */
export const ExitCode = {
  Ok: 0,
  Failed: 1,
  Usage: 2,
  Interrupted: 130,
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** What each exit code means; the docs' exit-code reference is generated from this. */
export const exitCodeMeanings: Readonly<Record<ExitCode, string>> = {
  0: "Done: the run finished, its results are valid and its mean score is not below --fail-under.",
  1: "The run failed, its results are not valid (too many errors or missing rollouts), or its mean score is below --fail-under; a watched job failed.",
  2: "Bad usage or config (a flag, a key, a file): nothing ran. The message names what was wrong and where.",
  130: "Stopped by Ctrl-C or SIGTERM: finished results are kept and the run is resumable with --resume.",
}

/**
 * The exit code of a run that ended, here or as a job: 1 when its results are not valid or its mean score
 * is below `--fail-under` (said on stderr), else 0.
 */
export const runExitCode = (
  summary: Pick<RunSummary, "is_valid" | "metrics">,
  failUnder: number | null,
  stderr: NodeJS.WritableStream,
): ExitCode => {
  if (!summary.is_valid) return ExitCode.Failed
  const mean = summary.metrics.mean_score
  if (failUnder !== null && (mean === null || mean < failUnder)) {
    stderr.write(`mean score ${mean ?? "n/a"} is below --fail-under ${failUnder}\n`)
    return ExitCode.Failed
  }
  return ExitCode.Ok
}
