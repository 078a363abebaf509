import type { Effect } from "effect"
import { ColumnAverages, resultCells, tableHeaders } from "./columns.js"
import type { ReportWriteError } from "./ReportWriteError.js"
import type { ReportConfig, ResultSource } from "./source.js"
import { fitWidths, renderRow, renderSeparator } from "./textLayout.js"
import { writeChunks } from "./writeChunks.js"

const preamble = (config: ReportConfig): string => `Eval config\n${JSON.stringify(config, null, 2)}\n\nResults\n`

/** synth-ai's `--output-txt` layout, `Eval config\n{json}\n\nResults\n{table}\n`, around a rendered table. */
export const formatOutputTxt = (config: ReportConfig, table: string): string => `${preamble(config)}${table}\n`

/**
 * The `--output-txt` report with every result, line by line. Column widths depend on every row, so the
 * results are read twice — `results` is called once per pass and must yield the same results both times —
 * rather than held in memory.
 */
export async function* outputTxtChunks(
  config: ReportConfig,
  results: () => ResultSource,
  options: { readonly attempts?: number } = {},
): AsyncGenerator<string> {
  const withAttempt = (options.attempts ?? 1) > 1
  const headers = tableHeaders(withAttempt)
  const widths: Array<number> = []
  const averages = new ColumnAverages()
  fitWidths(widths, headers)
  for await (const result of results()) {
    fitWidths(widths, resultCells(result, withAttempt))
    averages.add(result)
  }
  const average = averages.cells(withAttempt)
  fitWidths(widths, average)

  yield preamble(config)
  yield `${renderRow(headers, widths)}\n${renderSeparator(widths)}\n`
  for await (const result of results()) yield `${renderRow(resultCells(result, withAttempt), widths)}\n`
  yield `${renderRow(average, widths)}\n`
}

export const writeOutputTxt = (
  path: string,
  config: ReportConfig,
  results: () => ResultSource,
  options: { readonly attempts?: number } = {},
): Effect.Effect<void, ReportWriteError> => writeChunks(path, () => outputTxtChunks(config, results, options))
