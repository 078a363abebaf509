import { join } from "node:path"
import {
  ConfigError,
  type JournalRepair,
  openResumedRun,
  RESULTS_FILE,
  type ResumeOptions,
  repairJournal,
} from "@proctor/core"
import { Effect, Either } from "effect"
import { proctorCommand } from "../invocation.js"

/** Dropped lines listed one by one up to here; the backup holds them all anyway. */
const LISTED_LINES = 20

const usage = (message: string) => Either.left(new ConfigError({ reason: "InvalidValue", message }))

/** Flags that belong to a resume only, or never to one: refused with why, never silently ignored. */
export const checkResumeFlags = (options: {
  readonly repair?: boolean | undefined
  readonly retryErrors?: boolean | undefined
  readonly resume?: string | undefined
  readonly runDir?: string | undefined
}) => {
  if (options.resume === undefined) {
    if (options.repair === true) return usage("--repair works with --resume <run_dir> only")
    if (options.retryErrors === true) return usage("--retry-errors works with --resume <run_dir> only")
  } else if (options.runDir !== undefined) {
    return usage(
      `--run-dir: a resume continues in the run directory it is given (${options.resume}); leave --run-dir out, or copy the directory first and resume the copy`,
    )
  }
  return Either.right(undefined)
}

const describeRepair = (journal: string, repair: JournalRepair): string => {
  if (repair.backup === null) return `--repair: every line of ${journal} is a planned result; nothing dropped\n`
  const count = repair.dropped.length
  const listed = repair.dropped.slice(0, LISTED_LINES).map((line) => `  line ${line.line} ${line.problem}\n`)
  const more = count > LISTED_LINES ? [`  … and ${count - LISTED_LINES} more\n`] : []
  const header = `--repair: dropped ${count} line${count === 1 ? "" : "s"} of ${journal}; as it was, it is kept in ${repair.backup}\n`
  return [header, ...listed, ...more].join("")
}

/** What to do about a journal that disagrees with its run's plan: said under the error naming the line. */
export const repairHint = (runDir: string): string =>
  `nothing was run. To keep a backup of the journal and drop every line that is not a result of the run's plan: ${proctorCommand("eval", "--resume", runDir, "--repair")}\n`

/**
 * Opens a run directory to resume it. Settings the resume changes are said, one line each; with `--repair`, the
 * journal is repaired first and what was dropped is said.
 */
export const resumeRun = Effect.fn("cli.resumeRun")(function* (
  runDir: string,
  settings: Pick<ResumeOptions, "apiKey" | "secrets" | "settings">,
  repair: boolean,
  stderr: NodeJS.WritableStream,
) {
  const run = yield* openResumedRun(runDir, settings)
  for (const change of run.changes)
    stderr.write(`resuming: ${change}
`)
  if (repair) stderr.write(describeRepair(join(runDir, RESULTS_FILE), yield* repairJournal(runDir, run.config)))
  return run
})
