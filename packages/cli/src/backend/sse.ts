import { Option, Stream } from "effect"

/** One server-sent event: its `event:` name ("message" when absent) and its `data:` lines joined by "\n". */
export interface SseMessage {
  readonly event: string
  readonly data: string
  readonly id: string | null
}

interface Pending {
  readonly event: string | null
  readonly data: ReadonlyArray<string>
  readonly id: string | null
}

const EMPTY: Pending = { event: null, data: [], id: null }

/**
 * Folds one line of an event stream into the message being built (the WHATWG rules, minus `retry:`, which
 * this client does not use: a dropped stream falls back to polling instead of reconnecting).
 */
export const feedSseLine = (pending: Pending, line: string): readonly [Pending, Option.Option<SseMessage>] => {
  if (line === "") {
    if (pending.data.length === 0) return [EMPTY, Option.none()]
    return [EMPTY, Option.some({ event: pending.event ?? "message", data: pending.data.join("\n"), id: pending.id })]
  }
  if (line.startsWith(":")) return [pending, Option.none()]
  const colon = line.indexOf(":")
  const field = colon === -1 ? line : line.slice(0, colon)
  const raw = colon === -1 ? "" : line.slice(colon + 1)
  const value = raw.startsWith(" ") ? raw.slice(1) : raw
  switch (field) {
    case "event":
      return [{ ...pending, event: value }, Option.none()]
    case "data":
      return [{ ...pending, data: [...pending.data, value] }, Option.none()]
    case "id":
      return [{ ...pending, id: value }, Option.none()]
    default:
      return [pending, Option.none()]
  }
}

/** Bytes of a `text/event-stream` body → its messages. */
export const sseMessages = <E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<SseMessage, E, R> =>
  bytes.pipe(
    Stream.decodeText(),
    Stream.splitLines,
    Stream.mapAccum(EMPTY, feedSseLine),
    Stream.filterMap((message) => message),
  )
