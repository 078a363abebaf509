/**
 * Server-Sent Events over `fetch` and a stream reader: EventSource cannot send an Authorization header, and
 * the job server's key must never travel in a URL.
 */

export interface ServerEvent {
  readonly event: string
  readonly data: string
}

/** Splits an event stream into events (the WHATWG format: `field: value` lines, a blank line ends an event). */
export class EventParser {
  private buffer = ""
  private event = "message"
  private data: Array<string> = []

  push(chunk: string, emit: (event: ServerEvent) => void): void {
    this.buffer += chunk
    let end = this.buffer.search(/\r\n|\r|\n/)
    // A CR that ends the chunk may be the first half of a CRLF split across chunks: wait for the next one.
    while (end >= 0 && !(end === this.buffer.length - 1 && this.buffer[end] === "\r")) {
      const line = this.buffer.slice(0, end)
      const breakLength = this.buffer.startsWith("\r\n", end) ? 2 : 1
      this.buffer = this.buffer.slice(end + breakLength)
      this.line(line, emit)
      end = this.buffer.search(/\r\n|\r|\n/)
    }
  }

  private line(line: string, emit: (event: ServerEvent) => void): void {
    if (line === "") {
      if (this.data.length > 0) emit({ event: this.event, data: this.data.join("\n") })
      this.event = "message"
      this.data = []
      return
    }
    if (line.startsWith(":")) return
    const colon = line.indexOf(":")
    const field = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "")
    if (field === "event") this.event = value
    else if (field === "data") this.data.push(value)
  }
}

const MAX_RECONNECT_MS = 10_000

/**
 * Follows an event stream until `stop` is called: reconnects after a dropped connection (1 s, doubling to
 * 10 s), and gives up on 401/403/404, which another try would not change.
 */
export const followEvents = (
  url: string,
  headers: Readonly<Record<string, string>>,
  onEvent: (event: ServerEvent) => void,
): (() => void) => {
  const controller = new AbortController()
  let wait = 1000
  const connect = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(url, {
          headers: { accept: "text/event-stream", ...headers },
          signal: controller.signal,
        })
        if ([401, 403, 404].includes(response.status)) return
        if (response.ok && response.body !== null) {
          wait = 1000
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
          const parser = new EventParser()
          for (;;) {
            const { done, value } = await reader.read()
            if (done) break
            parser.push(value, onEvent)
          }
        }
      } catch {
        if (controller.signal.aborted) return
      }
      await new Promise((resolve) => setTimeout(resolve, wait))
      wait = Math.min(wait * 2, MAX_RECONNECT_MS)
    }
  }
  void connect()
  return () => controller.abort()
}
