import { StringDecoder } from "node:string_decoder"

/** A line longer than this is skipped whole: one event must not hold proctor's memory (the output is unbounded). */
const MAX_LINE_CHARS = 64 * 1024 * 1024

/**
 * Reads JSON lines from output that arrives in pieces (a line, or a character, may be split across chunks): each
 * whole line that is a JSON object goes to `onEvent` as soon as its newline arrives; other lines are skipped.
 */
export const jsonLines = (onEvent: (event: unknown) => void) => {
  const decoder = new StringDecoder("utf8")
  let partial = ""
  /** The start of an overlong line was dropped: its rest, up to the next newline, is dropped too. */
  let skipping = false
  const line = (text: string) => {
    if (!text.startsWith("{")) return
    try {
      onEvent(JSON.parse(text))
    } catch {
      // A line that only looks like JSON (a log line starting with a brace) is no event.
    }
  }
  return {
    push: (chunk: Uint8Array) => {
      const lines = (partial + decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))).split("\n")
      partial = lines.pop() ?? ""
      for (const text of lines) {
        if (skipping) skipping = false
        else line(text)
      }
      if (partial.length > MAX_LINE_CHARS) {
        partial = ""
        skipping = true
      }
    },
    /** The output ended: a last line without its newline counts too. */
    end: () => {
      if (!skipping) line(partial + decoder.end())
      partial = ""
    },
  }
}
