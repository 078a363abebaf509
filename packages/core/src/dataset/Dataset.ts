import { readFileSync } from "node:fs"
import { parse } from "csv-parse/sync"
import { Effect } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import { isRecord } from "../internal/isRecord.js"

export type DatasetRowId = string | number

/** A dataset's rows, each a task: seed `i` is row `i`, its task id the row's `id` column or its row number. */
export interface Dataset {
  readonly path: string
  readonly rows: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly ids: ReadonlyArray<DatasetRowId>
}

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** "row 12" and, when it has one, its id: how an error names the row it is about. */
export const describeRow = (dataset: Dataset, index: number): string => {
  const id = dataset.ids[index]
  return id === index + 1 ? `row ${index + 1}` : `row ${index + 1} (id ${JSON.stringify(id)})`
}

const jsonlRows = (path: string, text: string) =>
  Effect.gen(function* () {
    const rows: Array<Record<string, unknown>> = []
    const lines = text.split("\n")
    for (const [index, raw] of lines.entries()) {
      const line = raw.trim()
      if (line === "") continue
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch (error) {
        return yield* invalid(`dataset ${path} line ${index + 1}: not JSON (${(error as Error).message})`)
      }
      if (!isRecord(value)) return yield* invalid(`dataset ${path} line ${index + 1}: expected a JSON object`)
      rows.push(value)
    }
    return rows
  })

interface CsvParseError {
  readonly code?: string
  readonly lines?: number
  readonly message: string
}

/** CSV via csv-parse: the first line names the columns; a row of another width is an error naming its line. */
const csvRows = (path: string, text: string) =>
  Effect.try({
    try: () =>
      parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: false }) as Array<Record<string, string>>,
    catch: (error) => {
      const problem = error as CsvParseError
      if (
        problem.code === "CSV_RECORD_INCONSISTENT_COLUMNS" ||
        problem.code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH"
      ) {
        const widths = /columns length is (\d+), got (\d+)/.exec(problem.message)
        const detail = widths === null ? problem.message : `${widths[2]} fields where the header has ${widths[1]}`
        return invalid(`dataset ${path} line ${problem.lines ?? "?"}: ${detail}`)
      }
      return invalid(`dataset ${path}: ${problem.message}`)
    },
  })

const idOf = (row: Readonly<Record<string, unknown>>, index: number): DatasetRowId | undefined => {
  if (!Object.hasOwn(row, "id")) return index + 1
  const id = row.id
  if (typeof id === "number" && Number.isFinite(id)) return id
  if (typeof id === "string" && id.trim() !== "") return id
  return undefined
}

/**
 * Reads a JSONL (one JSON object a line) or CSV dataset (by its extension). Every problem is one line naming the
 * file and its line: a line that is not an object, a ragged CSV row, a missing or repeated `id`.
 */
export const loadDataset = Effect.fn("Dataset.load")(function* (path: string) {
  const text = yield* Effect.try({
    try: () => readFileSync(path, "utf8"),
    catch: (error) =>
      new ConfigError({ reason: "FileNotFound", message: `dataset ${path}: ${(error as Error).message}` }),
  })
  const isCsv = /\.csv$/i.test(path)
  if (!isCsv && !/\.jsonl?$/i.test(path)) {
    return yield* invalid(`dataset ${path}: expected a .jsonl or .csv file`)
  }
  const rows = isCsv ? yield* csvRows(path, text) : yield* jsonlRows(path, text)
  if (rows.length === 0) return yield* invalid(`dataset ${path}: no rows`)
  const ids: Array<DatasetRowId> = []
  const seen = new Map<DatasetRowId, number>()
  for (const [index, row] of rows.entries()) {
    const id = idOf(row, index)
    if (id === undefined)
      return yield* invalid(`dataset ${path} row ${index + 1}: id must be a non-empty string or a number`)
    const earlier = seen.get(id)
    if (earlier !== undefined) {
      return yield* invalid(`dataset ${path} row ${index + 1}: id ${JSON.stringify(id)} repeats row ${earlier + 1}'s`)
    }
    seen.set(id, index)
    ids.push(id)
  }
  return { path, rows, ids } satisfies Dataset
})
