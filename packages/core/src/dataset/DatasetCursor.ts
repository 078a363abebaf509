import { closeSync, openSync, readSync } from "node:fs"
import { isRecord } from "../internal/isRecord.js"

const NEWLINE = 0x0a
const CHUNK_BYTES = 1024 * 1024

export interface DatasetCursor {
  /** Row `index` (0-based, blank lines not counted, as a run counts them); a string saying why not when it is no row. */
  readonly row: (index: number) => Readonly<Record<string, unknown>> | string
  readonly close: () => void
}

/**
 * A JSONL dataset's rows read forward from the file, one at a time. A re-grade walks its results in seed order, so
 * asked for rising indexes the cursor reads the file once and holds one line: re-grading a run of 100,000 rows keeps
 * none of them in memory. Asked for an earlier row, it starts again from the top.
 */
export const jsonlCursor = (path: string): DatasetCursor => {
  const fd = openSync(path, "r")
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES)
  /** `buffer[from, filled)` is read from the file and not yet split into lines; `position` is where reading goes on. */
  let from = 0
  let filled = 0
  let position = 0
  let line = 0
  let index = -1
  let current: Readonly<Record<string, unknown>> | string = ""

  /** The next non-blank line's text and its line number, or null at the end of the file. */
  const nextLine = (): string | null => {
    for (;;) {
      let end = buffer.indexOf(NEWLINE, from)
      while (end === -1 || end >= filled) {
        buffer.copy(buffer, 0, from, filled)
        filled -= from
        from = 0
        if (filled === buffer.length) {
          const grown = Buffer.allocUnsafe(buffer.length * 2)
          buffer.copy(grown, 0, 0, filled)
          buffer = grown
        }
        const read = readSync(fd, buffer, filled, buffer.length - filled, position)
        position += read
        if (read === 0) {
          if (filled === 0) return null
          end = filled
          break
        }
        filled += read
        end = buffer.indexOf(NEWLINE, from)
      }
      const text = buffer.toString("utf8", from, end).trim()
      from = Math.min(end + 1, filled)
      line++
      if (text !== "") return text
    }
  }

  const rewind = () => {
    from = filled = position = line = 0
    index = -1
  }

  return {
    row: (wanted) => {
      if (wanted < index) rewind()
      while (index < wanted) {
        const text = nextLine()
        if (text === null) return `dataset ${path} has no row ${wanted + 1}`
        index++
        if (index < wanted) continue
        try {
          const value = JSON.parse(text) as unknown
          current = isRecord(value) ? value : `dataset ${path} line ${line}: expected a JSON object`
        } catch (error) {
          current = `dataset ${path} line ${line}: not JSON (${(error as Error).message})`
        }
      }
      return current
    },
    close: () => closeSync(fd),
  }
}
