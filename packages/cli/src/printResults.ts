import type { EvalResult, RunSummary } from "@proctor/core"
import {
  appendSummaryMarkdown,
  COMPACT_ROWS,
  formatSummaryText,
  type ReportConfig,
  type ReportWriteError,
  ResultTable,
  type RowKind,
  writeOutputJson,
  writeOutputTxt,
} from "@proctor/report"
import { Effect } from "effect"

export interface ResultsOutputOptions {
  readonly output?: string | undefined
  readonly outputJson?: string | undefined
  readonly outputTxt?: string | undefined
  readonly json?: boolean | undefined
  /** `full`: every row in the terminal's table; otherwise the failures and the first and last rows. */
  readonly table?: string | undefined
}

export interface PrintResultsInput<E> {
  readonly config: ReportConfig
  readonly summary: RunSummary
  readonly attempts: number
  /**
   * Opened only when rows are printed or written (`--json` alone never reads the results back); each call
   * of the function it yields is a fresh pass, so a journal of 100,000 results is never held in memory.
   */
  readonly results: Effect.Effect<() => Iterable<EvalResult>, E>
  readonly options: ResultsOutputOptions
  readonly io: { readonly stdout: NodeJS.WritableStream }
  /** Where the results live (`run directory: …`, `job: …`), printed first among the paths. */
  readonly location: string
  /** What `--json` prints before the summary: the run's or the job's identity. */
  readonly identity: Readonly<Record<string, unknown>>
  readonly tracesDir: string | null
  /** `$GITHUB_STEP_SUMMARY` of `proctor eval`: the file the run's markdown summary is appended to, if set. */
  readonly stepSummary?: string | undefined
}

/** The terminal's table: failures and first/last rows unless `--table full`, never a column with no values. */
const terminalTable = (
  results: Iterable<EvalResult>,
  attempts: number,
  full: boolean,
  passThreshold: number,
  rowKind: RowKind,
): string => {
  const table = new ResultTable({
    attempts,
    passThreshold,
    rowKind,
    hideEmptyColumns: true,
    numbers: "human",
    ...(full ? {} : { rows: COMPACT_ROWS }),
  })
  for (const result of results) table.add(result)
  const notes: Array<string> = []
  if (table.hiddenRows > 0) {
    const failures = table.hiddenFailures > 0 ? `, ${table.hiddenFailures} of them failures` : ""
    notes.push(
      `showing ${table.totalRows - table.hiddenRows} of ${table.totalRows} rows (failures, first and last)` +
        `; ${table.hiddenRows} hidden${failures}; --table full shows every row`,
    )
  }
  if (table.hiddenColumns.length > 0) notes.push(`columns with no values hidden: ${table.hiddenColumns.join(", ")}`)
  return [table.toText(), ...notes].join("\n")
}

/**
 * What `proctor eval` and `proctor jobs results` print: the requested output files (synth-ai's exact
 * layout), then the summary, the table and where everything is — or the summary as JSON with `--json`.
 */
export const printResults = <E>(input: PrintResultsInput<E>): Effect.Effect<void, E | ReportWriteError> =>
  Effect.gen(function* () {
    const { options, io, config, summary } = input
    const jsonPath = options.outputJson ?? options.output
    const stepSummary = input.stepSummary === "" ? undefined : input.stepSummary
    const needsRows =
      jsonPath !== undefined || options.outputTxt !== undefined || options.json !== true || stepSummary !== undefined
    const results = needsRows ? yield* input.results : () => []
    if (jsonPath !== undefined) yield* writeOutputJson(jsonPath, config, results(), summary)
    if (options.outputTxt !== undefined) {
      yield* writeOutputTxt(options.outputTxt, config, results, { attempts: input.attempts })
    }
    if (stepSummary !== undefined) yield* appendSummaryMarkdown(stepSummary, summary, results(), input.attempts)
    if (options.json === true) {
      io.stdout.write(`${JSON.stringify({ ...input.identity, summary }, null, 2)}\n`)
      return
    }
    const paths = [
      input.location,
      ...(jsonPath === undefined ? [] : [`results json: ${jsonPath}`]),
      ...(options.outputTxt === undefined ? [] : [`results txt: ${options.outputTxt}`]),
      ...(input.tracesDir === null ? [] : [`traces: ${input.tracesDir}`]),
    ]
    io.stdout.write(`${formatSummaryText(summary)}\n\n`)
    // An agent run (`--tasks`) names its rows by task, with each one's stop reason and turns; a dataset run by row id.
    const rowKind: RowKind = typeof config.tasks === "string" || typeof config.dataset === "string" ? "tasks" : "seeds"
    const table = terminalTable(results(), input.attempts, options.table === "full", summary.pass_threshold, rowKind)
    io.stdout.write(`${table}\n\n`)
    io.stdout.write(`${paths.join("\n")}\n`)
  }).pipe(Effect.withSpan("cli.printResults"))
