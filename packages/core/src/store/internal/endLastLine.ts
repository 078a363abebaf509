import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs"

const NEWLINE = 0x0a
const CHUNK = 64 * 1024

/** Offset just past the last newline of an open file (0 when it has none), read back from its end. */
const afterLastNewline = (fd: number, size: number): number => {
  const buffer = Buffer.allocUnsafe(CHUNK)
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - CHUNK)
    const read = readSync(fd, buffer, 0, end - start, start)
    const at = buffer.subarray(0, read).lastIndexOf(NEWLINE)
    if (at !== -1) return start + at + 1
    end = start
  }
  return 0
}

const isJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * Makes a JSONL file end on a whole line before more is appended to it: a last line cut short by a crash is
 * cut off (else the next line written would be glued to it), and a whole one missing only its newline gets
 * it. Reads the file's last line only.
 */
export const endLastLine = (path: string): void => {
  let fd: number
  try {
    fd = openSync(path, "r+")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return
    throw error
  }
  try {
    const size = fstatSync(fd).size
    const start = afterLastNewline(fd, size)
    if (start === size) return
    const last = Buffer.allocUnsafe(size - start)
    readSync(fd, last, 0, last.length, start)
    if (isJson(last.toString("utf8"))) writeSync(fd, "\n", size)
    else ftruncateSync(fd, start)
  } finally {
    closeSync(fd)
  }
}
