import { StringDecoder } from "node:string_decoder"

/**
 * Reads JSON lines from output that arrives in pieces (a line, or a character, may be split across chunks): each
 * whole line that is a JSON object goes to `onEvent` as soon as its newline arrives; other lines are skipped.
 */
export const jsonLines = (onEvent: (event: unknown) => void) => {
  const decoder = new StringDecoder("utf8")
  let partial = ""
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
      for (const text of lines) line(text)
    },
    /** The output ended: a last line without its newline counts too. */
    end: () => {
      line(partial + decoder.end())
      partial = ""
    },
  }
}
