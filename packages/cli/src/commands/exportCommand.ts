import { ConfigError, openRunReader } from "@proctor/core"
import {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportTally,
  exportRun,
  writeStreamToFile,
  writeToStream,
} from "@proctor/report"
import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { ExportOptions } from "../program/export.js"

const usage = (message: string) => new ConfigError({ reason: "InvalidValue", message })

const isFormat = (format: string | undefined): format is ExportFormat =>
  (EXPORT_FORMATS as ReadonlyArray<string | undefined>).includes(format)

const minScoreOf = (minScore: number | undefined, format: ExportFormat) =>
  minScore === undefined || format === "sft"
    ? Effect.succeed(minScore)
    : Effect.fail(usage(`--min-score: only --format sft filters by score, not ${format}`))

const WRITTEN = {
  csv: "rows",
  jsonl: "results",
  junit: "test cases",
  markdown: null,
  sft: "fine-tuning examples",
  "traces-zip": "traces",
} as const

/** `wrote 29 fine-tuning examples of 30 rollouts to stdout; left out: 1 errored or scored below 1`. */
const tallyLine = (tally: ExportTally, format: ExportFormat, where: string): string => {
  const what = WRITTEN[format]
  const wrote =
    what === null
      ? `wrote the summary of ${tally.rollouts} rollouts to ${where}`
      : `wrote ${tally.written} ${what} of ${tally.rollouts} rollouts to ${where}`
  const left = Array.from(tally.skipped, ([reason, count]) => `${count} ${reason}`)
  return left.length === 0 ? wrote : `${wrote}; left out: ${left.join("; ")}`
}

/**
 * `proctor export RUN_DIR --format F [--output FILE]`: the run's results in one of @proctor/report's export
 * formats, to stdout or a file (a traces zip only to a file); what was written and left out goes to stderr.
 */
export const exportCommand = (runDir: string, options: ExportOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    const format = options.format
    if (!isFormat(format))
      return yield* usage(`--format: expected one of ${EXPORT_FORMATS.join(", ")}, got "${format}"`)
    if (format === "traces-zip" && options.output === undefined) {
      return yield* usage("--format traces-zip writes a zip archive: pass --output FILE")
    }
    const minScore = yield* minScoreOf(options.minScore, format)
    const reader = yield* openRunReader(runDir)
    const { chunks, tally } = exportRun(reader, format, { minScore })
    if (options.output === undefined) yield* writeToStream(chunks, io.stdout)
    else yield* writeStreamToFile(options.output, chunks)
    io.stderr.write(`${tallyLine(tally, format, options.output ?? "stdout")}\n`)
    return ExitCode.Ok
  }).pipe(
    Effect.catchTags({
      ConfigError: (error) => failWith(io, error.message, ExitCode.Usage),
      StoreError: (error) => failWith(io, error.message, error.reason === "Io" ? ExitCode.Failed : ExitCode.Usage),
      ReportWriteError: (error) => failWith(io, `cannot write ${error.path}: ${error.message}`, ExitCode.Failed),
    }),
  )

const failWith = (io: Io, message: string, code: ExitCode) =>
  Effect.sync(() => {
    io.stderr.write(`proctor export: ${message}\n`)
    return code
  })
