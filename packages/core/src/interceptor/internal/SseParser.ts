import { StringDecoder } from "node:string_decoder"

/**
 * One complete server-sent event: its raw text (without the blank line that ended it), the `event:` name
 * and the joined `data:` lines (null when the event had none, e.g. a `: keep-alive` comment).
 */
export type SseListener = (raw: string, event: string | null, data: string | null) => void

const COLON = 58
const SPACE = 32

const dispatch = (block: string, listener: SseListener): void => {
  let event: string | null = null
  let data: string | null = null
  let position = 0
  while (position < block.length) {
    let end = block.indexOf("\n", position)
    if (end === -1) end = block.length
    const line = block.slice(position, end)
    position = end + 1
    if (line === "" || line.charCodeAt(0) === COLON) continue
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? "" : line.slice(colon + 1)
    if (value.charCodeAt(0) === SPACE) value = value.slice(1)
    if (field === "data") data = data === null ? value : `${data}\n${value}`
    else if (field === "event") event = value
  }
  listener(block, event, data)
}

/**
 * Splits a `text/event-stream` body into events as its bytes arrive, holding back only the incomplete tail
 * (a multi-byte character or an event cut by a chunk boundary), so each event is seen as soon as it ends.
 */
export class SseParser {
  private readonly decoder = new StringDecoder("utf8")
  private buffer = ""
  private heldCr = false

  push(chunk: Buffer, listener: SseListener): void {
    this.feed(this.decoder.write(chunk), listener)
  }

  /** The body ended: a last event without its blank line still counts (some servers omit it). */
  end(listener: SseListener): void {
    this.feed(this.decoder.end(), listener)
    if (this.heldCr) this.heldCr = false
    const rest = this.buffer
    this.buffer = ""
    if (rest.trim() !== "") dispatch(rest.replace(/\n+$/, ""), listener)
  }

  private feed(input: string, listener: SseListener): void {
    let text = input
    if (this.heldCr) {
      text = `\r${text}`
      this.heldCr = false
    }
    if (text.includes("\r")) {
      // A CR at the end may be the first half of a CRLF split across chunks: decide when the next one comes.
      if (text.endsWith("\r")) {
        text = text.slice(0, -1)
        this.heldCr = true
      }
      text = text.replace(/\r\n?/g, "\n")
    }
    if (text === "") return
    const buffer = this.buffer === "" ? text : this.buffer + text
    let start = 0
    for (;;) {
      const end = buffer.indexOf("\n\n", start)
      if (end === -1) break
      if (end > start) dispatch(buffer.slice(start, end), listener)
      start = end + 2
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start)
  }
}
