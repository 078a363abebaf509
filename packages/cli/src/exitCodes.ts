/** The CLI's exit codes: scripts and CI branch on these. */
export const ExitCode = {
  Ok: 0,
  /** The run failed, its results are not valid, or the score is below `--fail-under`. */
  Failed: 1,
  /** Bad usage or config: nothing ran. */
  Usage: 2,
  /** Stopped by Ctrl-C / SIGTERM; finished results are kept and the run is resumable. */
  Interrupted: 130,
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]
