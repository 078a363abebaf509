import type { EvalResult } from "@proctor/core"
import { ColumnAverages, leadingColumns, type NumberStyle, type RowKind, resultCells, tableHeaders } from "./columns.js"
import { fitWidths, moreRows, renderRow, renderSeparator } from "./textLayout.js"

/** Which rows a table shows: the first and the last ones, and failures (errors and wrong answers) up to a cap. */
export interface RowSelection {
  readonly first: number
  readonly last: number
  readonly failures: number
}

/** The terminal's default: enough to see the run's shape and every failure of a run that mostly worked. */
export const COMPACT_ROWS: RowSelection = { first: 5, last: 5, failures: 20 }

export interface TableOptions {
  /** The run's attempts per seed; above 1 the table gets an `attempt` column. */
  readonly attempts?: number
  /** Rows to show (default all); a `… N more rows` line stands where rows were left out, the `avg` row covers all. */
  readonly rows?: RowSelection
  /** Leave out the numeric and error columns no row has a value in (the terminal); files keep synth-ai's columns. */
  readonly hideEmptyColumns?: boolean
  readonly numbers?: NumberStyle
  /** A scored row below this is a wrong answer, a failure like an error (the run's `pass_threshold`, default 1). */
  readonly passThreshold?: number
  /** `tasks` for an agent run (`--tasks`): rows named by task, with their stop reason and turns. */
  readonly rowKind?: RowKind
}

interface KeptRow {
  readonly index: number
  readonly failure: boolean
  readonly cells: ReadonlyArray<string>
}

const isFailure = (result: EvalResult, passThreshold: number) =>
  result.status === "error" || (result.score !== null && result.score < passThreshold)

/**
 * The results table, fed one result at a time in the order to show them (for instance from the journal).
 * It keeps the cells of the rows it will show only, and running sums for the `avg` row, so a 100,000-row run
 * costs a few rows of memory.
 */
export class ResultTable {
  private readonly withAttempt: boolean
  private readonly selection: RowSelection | null
  private readonly hideEmptyColumns: boolean
  private readonly numbers: NumberStyle
  private readonly passThreshold: number
  private readonly kind: RowKind
  private readonly allHeaders: ReadonlyArray<string>
  private readonly head: Array<KeptRow> = []
  private readonly failures: Array<KeptRow> = []
  private readonly tail: Array<KeptRow> = []
  private readonly averages = new ColumnAverages()
  private total = 0
  private failureCount = 0
  private anyErrorText = false

  constructor(options: TableOptions = {}) {
    this.withAttempt = (options.attempts ?? 1) > 1
    this.selection = options.rows ?? null
    this.hideEmptyColumns = options.hideEmptyColumns === true
    this.numbers = options.numbers ?? "synth-ai"
    this.passThreshold = options.passThreshold ?? 1
    this.kind = options.rowKind ?? "seeds"
    this.allHeaders = tableHeaders(this.withAttempt, this.kind)
  }

  add(result: EvalResult): void {
    const index = this.total++
    this.averages.add(result)
    const failure = isFailure(result, this.passThreshold)
    if (failure) this.failureCount++
    if (result.status === "error" || result.error !== null) this.anyErrorText = true
    const keep = (): KeptRow => ({
      index,
      failure,
      cells: resultCells(result, this.withAttempt, this.numbers, this.kind),
    })
    const selection = this.selection
    if (selection === null || index < selection.first) {
      this.head.push(keep())
      return
    }
    const row = failure && this.failures.length < selection.failures ? keep() : null
    if (row !== null) this.failures.push(row)
    if (selection.last > 0) {
      this.tail.push(row ?? keep())
      if (this.tail.length > selection.last) this.tail.shift()
    }
  }

  /** The shown columns' headers. */
  get headers(): ReadonlyArray<string> {
    return this.visible(this.allHeaders)
  }

  /** Columns left out because no row has a value in them. */
  get hiddenColumns(): ReadonlyArray<string> {
    const shown = this.columnShown()
    return this.allHeaders.filter((_, i) => !shown[i])
  }

  /** The shown rows, in the order they were added. */
  get rows(): ReadonlyArray<ReadonlyArray<string>> {
    return this.keptRows().map((row) => this.visible(row.cells))
  }

  get averageRow(): ReadonlyArray<string> {
    return this.visible(this.averages.cells(this.withAttempt, this.numbers, this.kind))
  }

  get totalRows(): number {
    return this.total
  }

  get hiddenRows(): number {
    return this.total - this.keptRows().length
  }

  /** Failed rows (errors, wrong answers) beyond the selection's cap of failures. */
  get hiddenFailures(): number {
    return this.failureCount - this.keptRows().filter((row) => row.failure).length
  }

  /** synth-ai's layout; columns are as wide as the shown rows need. */
  toText(): string {
    const headers = this.headers
    const kept = this.keptRows()
    const rows = kept.map((row) => this.visible(row.cells))
    const average = this.averageRow
    const widths: Array<number> = []
    for (const row of [headers, ...rows, average]) fitWidths(widths, row)
    const lines = [renderRow(headers, widths), renderSeparator(widths)]
    let next = 0
    kept.forEach((row, i) => {
      if (row.index > next) lines.push(moreRows(row.index - next))
      lines.push(renderRow(rows[i]!, widths))
      next = row.index + 1
    })
    if (this.total > next) lines.push(moreRows(this.total - next))
    lines.push(renderRow(average, widths))
    return lines.join("\n")
  }

  /** Head, failures and tail merged in order, each row once. */
  private keptRows(): ReadonlyArray<KeptRow> {
    if (this.selection === null) return this.head
    const byIndex = new Map<number, KeptRow>()
    for (const row of [...this.head, ...this.failures, ...this.tail]) byIndex.set(row.index, row)
    return [...byIndex.values()].sort((a, b) => a.index - b.index)
  }

  private columnShown(): ReadonlyArray<boolean> {
    const numericFrom = leadingColumns(this.withAttempt, this.kind)
    const errorColumn = this.allHeaders.length - 1
    return this.allHeaders.map((_, i) => {
      if (!this.hideEmptyColumns || i < numericFrom) return true
      if (i === errorColumn) return this.anyErrorText
      return this.averages.hasValues(i - numericFrom)
    })
  }

  private visible(cells: ReadonlyArray<string>): ReadonlyArray<string> {
    if (!this.hideEmptyColumns) return cells
    const shown = this.columnShown()
    return cells.filter((_, i) => shown[i])
  }
}

/** The table of every result (or a selection) in synth-ai's layout, without a trailing newline. */
export const formatTable = (results: Iterable<EvalResult>, options: TableOptions = {}): string => {
  const table = new ResultTable(options)
  for (const result of results) table.add(result)
  return table.toText()
}
