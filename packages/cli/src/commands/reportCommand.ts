import { existsSync, statSync } from "node:fs"
import { basename, dirname, resolve } from "node:path"
import { isGridRunDir, openRunReader, readGridManifest, type StoreError, variantRunDir } from "@proctor/core"
import { type HtmlReportOptions, writeHtmlReport } from "@proctor/viewer/html"
import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { ReportOptions } from "../program/report.js"

const MB = 1024 * 1024

/** What is wrong with the arguments, naming the flag or argument, or null. */
const usageProblem = (runDirs: ReadonlyArray<string>, options: ReportOptions): string | null => {
  if (options.html === undefined || options.html.trim() === "")
    return "--html: expected the file to write (--html report.html)"
  if (runDirs.length > 2) return `expected one run directory, or two to compare; got ${runDirs.length}`
  for (const dir of runDirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return `${dir}: no such run directory`
  }
  const grid = runDirs.find(isGridRunDir)
  if (grid !== undefined && runDirs.length > 1) return `${grid} is a grid run directory: report it on its own`
  const target = dirname(options.html)
  if (!existsSync(target)) return `--html: ${target} does not exist`
  return null
}

/** The report's runs: a grid run's variants (named by variant) with its grid, else the run directories as given. */
const reportedRuns = (runDirs: ReadonlyArray<string>): Effect.Effect<Omit<HtmlReportOptions, "file">, StoreError> => {
  const [first] = runDirs
  if (runDirs.length !== 1 || first === undefined || !isGridRunDir(first)) {
    return Effect.map(
      Effect.forEach(runDirs, (dir) => Effect.map(openRunReader(dir), (reader) => ({ name: dir, reader }))),
      (runs) => ({ runs }),
    )
  }
  return Effect.gen(function* () {
    const { variants } = yield* readGridManifest(first)
    const runs = yield* Effect.forEach(variants, (variant) =>
      Effect.map(openRunReader(variantRunDir(first, variant.name)), (reader) => ({ name: variant.name, reader })),
    )
    return { runs, grid: { name: basename(resolve(first)), variants } }
  })
}

/**
 * `proctor report RUN_DIR [RUN_DIR_B] --html FILE`: the viewer with the runs in it, one file that opens from disk; of a
 * grid run directory, its variants and its grid page.
 */
export const reportCommand = (
  runDirs: ReadonlyArray<string>,
  options: ReportOptions,
  io: Io,
): Effect.Effect<ExitCode> => {
  const problem = usageProblem(runDirs, options)
  if (problem !== null) {
    io.stderr.write(`proctor report: ${problem}\n`)
    return Effect.succeed(ExitCode.Usage)
  }
  const file = options.html!
  return reportedRuns(runDirs).pipe(
    Effect.flatMap((reported) =>
      Effect.map(
        writeHtmlReport({ ...reported, file, transcriptBudgetBytes: options.maxTranscriptsMb * MB }),
        (written) => ({ written, grid: reported.grid }),
      ),
    ),
    Effect.map(({ written, grid }) => {
      const left = written.omitted === 0 ? "" : `; ${written.omitted} transcripts left out (over --max-transcripts-mb)`
      const what = grid === undefined ? "" : `the grid of ${grid.variants.length} variants, `
      io.stdout.write(
        `wrote ${file} (${(written.bytes / MB).toFixed(1)} MB): ${what}${written.rollouts} rollouts, ${written.transcripts} transcripts${left}\n`,
      )
      return ExitCode.Ok as ExitCode
    }),
    Effect.catchTags({
      StoreError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor report: ${error.message}\n`)
          return error.reason === "Io" ? ExitCode.Failed : ExitCode.Usage
        }),
      ReportWriteError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor report: cannot write ${error.path}: ${error.message}\n`)
          return ExitCode.Failed
        }),
    }),
  )
}
