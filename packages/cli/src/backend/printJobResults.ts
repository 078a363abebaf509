import type { EvalResult, RunSummary } from "@proctor/core"
import { formatSummaryText, formatTable, type ReportConfig, writeOutputJson, writeOutputTxt } from "@proctor/report"
import { Effect } from "effect"

/** Beyond this many rows the terminal table shows the first ones only, as in direct mode; files have all. */
const TERMINAL_ROWS = 200

export interface JobOutputOptions {
  readonly output?: string | undefined
  readonly outputJson?: string | undefined
  readonly outputTxt?: string | undefined
  readonly json?: boolean | undefined
}

export interface PrintJobInput {
  readonly jobId: string
  readonly baseUrl: string
  readonly status: string
  readonly config: ReportConfig
  readonly results: ReadonlyArray<EvalResult>
  readonly summary: RunSummary
  readonly attempts: number
  readonly options: JobOutputOptions
  readonly io: { readonly stdout: NodeJS.WritableStream }
  readonly tracesDir: string | null
}

/**
 * Direct mode's outputs for a job's results: the same `--output-json` / `--output-txt` files, the same table
 * and summary (or `--json`), with the job in place of the run directory.
 */
export const printJobResults = Effect.fn("cli.printJobResults")(function* (input: PrintJobInput) {
  const { options, io, results, config } = input
  const jsonPath = options.outputJson ?? options.output
  if (jsonPath !== undefined) yield* writeOutputJson(jsonPath, config, results, input.summary)
  if (options.outputTxt !== undefined) {
    yield* writeOutputTxt(options.outputTxt, config, () => results, { attempts: input.attempts })
  }
  if (options.json === true) {
    const document = {
      run_id: input.summary.run_id,
      job_id: input.jobId,
      backend: input.baseUrl,
      status: input.status,
      summary: input.summary,
    }
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`)
    return
  }
  const files = [
    `job: ${input.jobId} (${input.status}) on ${input.baseUrl}`,
    ...(jsonPath === undefined ? [] : [`results json: ${jsonPath}`]),
    ...(options.outputTxt === undefined ? [] : [`results txt: ${options.outputTxt}`]),
    ...(input.tracesDir === null ? [] : [`traces: ${input.tracesDir}`]),
  ]
  io.stdout.write(`${formatTable(results, { attempts: input.attempts, maxRows: TERMINAL_ROWS })}\n\n`)
  io.stdout.write(`${formatSummaryText(input.summary)}\n`)
  io.stdout.write(`${files.join("\n")}\n`)
})
