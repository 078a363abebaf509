import { describe, expect, it } from "@effect/vitest"
import { jsonLines } from "../src/agent/internal/jsonLines.js"

/** Feeds `text` to a reader in chunks of `size` bytes, noting which events had arrived after each chunk. */
const feed = (text: string, size: number) => {
  const events: Array<unknown> = []
  const reader = jsonLines((event) => events.push(event))
  const bytes = Buffer.from(text)
  const seenAfter: Array<number> = []
  for (let i = 0; i < bytes.length; i += size) {
    reader.push(bytes.subarray(i, i + size))
    seenAfter.push(events.length)
  }
  reader.end()
  return { events, seenAfter }
}

describe("jsonLines: an agent's JSONL output read as it arrives", () => {
  it("each event arrives with its newline, whatever the chunks cut (a character included); other lines are skipped", () => {
    const text = '{"type":"a","text":"é✓"}\nWARN not json\n{broken\n{"type":"b"}\n{"type":"c"}'
    for (const size of [1, 2, 3, 7, 1024]) {
      const { events } = feed(text, size)
      expect(events).toEqual([{ type: "a", text: "é✓" }, { type: "b" }, { type: "c" }])
    }
    // The first event is there before the rest of the output.
    const { seenAfter } = feed(text, 1)
    expect(seenAfter[Buffer.byteLength('{"type":"a","text":"é✓"}\n') - 1]).toBe(1)
  })
})
