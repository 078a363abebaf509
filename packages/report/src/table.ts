import type { EvalResult } from "@proctor/core"
import { ColumnAverages, resultCells, tableHeaders } from "./columns.js"
import { fitWidths, moreRows, renderRow, renderSeparator } from "./textLayout.js"

export interface TableOptions {
  /** The run's attempts per seed; above 1 the table gets an `attempt` column. */
  readonly attempts?: number
  /** Rows to show; the rest are counted in a `… N more rows` line, and the `avg` row still covers them. */
  readonly maxRows?: number
}

/**
 * The results table, fed one result at a time (for instance as a run finishes them). It keeps the cells of
 * the first `maxRows` rows only, and running sums for the `avg` row.
 */
export class ResultTable {
  readonly headers: ReadonlyArray<string>
  private readonly withAttempt: boolean
  private readonly maxRows: number
  private readonly shown: Array<ReadonlyArray<string>> = []
  private readonly averages = new ColumnAverages()
  private total = 0

  constructor(options: TableOptions = {}) {
    this.withAttempt = (options.attempts ?? 1) > 1
    this.maxRows = options.maxRows ?? Number.POSITIVE_INFINITY
    this.headers = tableHeaders(this.withAttempt)
  }

  add(result: EvalResult): void {
    this.total++
    this.averages.add(result)
    if (this.shown.length < this.maxRows) this.shown.push(resultCells(result, this.withAttempt))
  }

  get rows(): ReadonlyArray<ReadonlyArray<string>> {
    return this.shown
  }

  get averageRow(): ReadonlyArray<string> {
    return this.averages.cells(this.withAttempt)
  }

  get hiddenRows(): number {
    return this.total - this.shown.length
  }

  /** synth-ai's layout; columns are as wide as the shown rows need. */
  toText(): string {
    const average = this.averageRow
    const widths: Array<number> = []
    for (const row of [this.headers, ...this.shown, average]) fitWidths(widths, row)
    const lines = [renderRow(this.headers, widths), renderSeparator(widths)]
    for (const row of this.shown) lines.push(renderRow(row, widths))
    if (this.hiddenRows > 0) lines.push(moreRows(this.hiddenRows))
    lines.push(renderRow(average, widths))
    return lines.join("\n")
  }
}

/** The table of every result (or the first `maxRows`) in synth-ai's layout, without a trailing newline. */
export const formatTable = (results: Iterable<EvalResult>, options: TableOptions = {}): string => {
  const table = new ResultTable(options)
  for (const result of results) table.add(result)
  return table.toText()
}
