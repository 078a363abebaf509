import { open } from "node:fs/promises"

const NEWLINE = 0x0a
const CHUNK_BYTES = 1024 * 1024

/**
 * `bytes` is the line without its newline, a view of a buffer that is reused: read it during the call, do
 * not keep it. `offset` is where the line starts in the file.
 */
export type OnLine = (bytes: Buffer, offset: number, terminated: boolean) => void

/**
 * Calls `onLine` for each line of a file from byte `start` on, with its offset and whether a newline ended
 * it (only the last line can lack one). Resolves to the offset just past the last newline read, where a
 * later call can resume once the file has grown. Reads through one buffer (grown only for a longer line),
 * so scanning a file of gigabytes leaves no garbage behind but the lines' own.
 */
export const forEachLine = async (path: string, onLine: OnLine, start = 0): Promise<number> => {
  const file = await open(path, "r")
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES)
    /** Bytes at the buffer's start that belong to a line not yet ended, and the file offset of the buffer's start. */
    let carried = 0
    let bufferOffset = start
    for (;;) {
      if (carried === buffer.length) {
        const grown = Buffer.allocUnsafe(buffer.length * 2)
        buffer.copy(grown, 0, 0, carried)
        buffer = grown
      }
      const { bytesRead } = await file.read(buffer, carried, buffer.length - carried, bufferOffset + carried)
      if (bytesRead === 0) break
      const filled = buffer.subarray(0, carried + bytesRead)
      let from = 0
      for (let end = filled.indexOf(NEWLINE, carried); end !== -1; end = filled.indexOf(NEWLINE, from)) {
        onLine(filled.subarray(from, end), bufferOffset + from, true)
        from = end + 1
      }
      filled.copy(buffer, 0, from)
      carried = filled.length - from
      bufferOffset += from
    }
    if (carried > 0) onLine(buffer.subarray(0, carried), bufferOffset, false)
    return bufferOffset
  } finally {
    await file.close()
  }
}
