import { type Journal, publicConfig, type RunOutcome, type StoreError } from "@proctor/core"
import { formatSummaryText, formatTable, writeOutputJson, writeOutputTxt } from "@proctor/report"
import { Effect } from "effect"
import type { EvalCommandOptions } from "./evalCommand.js"

/** Beyond this many rows the terminal table shows the first ones only; output files always have all. */
const TERMINAL_ROWS = 200

interface PrintInput {
  readonly outcome: RunOutcome
  /** Opened only when rows are printed or written: `--json` alone never reads the results back. */
  readonly journal: Effect.Effect<Journal, StoreError>
  readonly config: Parameters<typeof publicConfig>[0]
  readonly options: EvalCommandOptions
  readonly io: { readonly stdout: NodeJS.WriteStream; readonly stderr: NodeJS.WriteStream }
  readonly runDir: string
  readonly tracesDir: string | null
}

/** Writes the requested output files, then the table and summary (or `--json`) to stdout. */
export const printResults = Effect.fn("cli.printResults")(function* (input: PrintInput) {
  const { outcome, options, io } = input
  const jsonPath = options.outputJson ?? options.output
  const needsRows = jsonPath !== undefined || options.outputTxt !== undefined || options.json !== true
  // Read back from the journal on each pass, so 100,000 results never sit in memory at once.
  const results = needsRows ? (yield* input.journal).results : () => []
  const config = publicConfig(input.config)
  if (jsonPath !== undefined) yield* writeOutputJson(jsonPath, config, results(), outcome.summary)
  if (options.outputTxt !== undefined) {
    yield* writeOutputTxt(options.outputTxt, config, results, { attempts: config.attempts })
  }
  if (options.json === true) {
    const document = {
      run_id: outcome.runId,
      run_dir: input.runDir,
      interrupted: outcome.interrupted,
      summary: outcome.summary,
    }
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`)
    return
  }
  const files = [
    `run directory: ${input.runDir}`,
    ...(jsonPath === undefined ? [] : [`results json: ${jsonPath}`]),
    ...(options.outputTxt === undefined ? [] : [`results txt: ${options.outputTxt}`]),
    ...(input.tracesDir === null ? [] : [`traces: ${input.tracesDir}`]),
  ]
  io.stdout.write(`${formatTable(results(), { attempts: config.attempts, maxRows: TERMINAL_ROWS })}\n\n`)
  io.stdout.write(`${formatSummaryText(outcome.summary)}\n`)
  io.stdout.write(`${files.join("\n")}\n`)
})
