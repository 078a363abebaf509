import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { testCall, testResult } from "@proctor/test-kit"
import fc from "fast-check"
import { forEachLine } from "../src/store/internal/forEachLine.js"
import { callLineKey, resultLineKey } from "../src/store/internal/lineKey.js"

const dir = mkdtempSync(join(tmpdir(), "proctor-lines-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const linesOf = async (path: string, start = 0) => {
  const lines: Array<{ text: string; offset: number; terminated: boolean }> = []
  const end = await forEachLine(
    path,
    (bytes, offset, terminated) => lines.push({ text: bytes.toString("utf8"), offset, terminated }),
    start,
  )
  return { lines, end }
}

describe("forEachLine", () => {
  it("gives every line with its offset, across reads and lines longer than its buffer, from any line's start", async () => {
    const texts = [
      "short",
      "x".repeat(3 * 1024 * 1024 + 7),
      "",
      "é…ü",
      "y".repeat(1024 * 1024 - 1),
      "last, unterminated",
    ]
    const path = join(dir, "long.jsonl")
    writeFileSync(path, texts.join("\n"))
    const { lines, end } = await linesOf(path)
    expect(lines.map((l) => l.text)).toEqual(texts)
    expect(lines.map((l) => l.terminated)).toEqual([true, true, true, true, true, false])
    const offsets = texts.map((_, i) =>
      Buffer.byteLength(
        texts
          .slice(0, i)
          .map((t) => `${t}\n`)
          .join(""),
      ),
    )
    expect(lines.map((l) => l.offset)).toEqual(offsets)
    expect(end).toBe(offsets.at(-1))
    const from = await linesOf(path, offsets[3]!)
    expect(from.lines.map((l) => l.text)).toEqual(texts.slice(3))
  })
})

describe("the (seed, attempt) of a line, read from its opening", () => {
  const text = fc.string({ unit: "binary" })
  it("property: a result's key is the one its JSON holds, whatever comes before `attempt` or however its keys are ordered", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e12 }),
        fc.nat({ max: 5000 }),
        fc.option(text, { nil: null }),
        fc.jsonValue(),
        fc.constantFrom("as the runner writes it", "a nested attempt before it", "keys reordered"),
        (seed, attempt, error, details, shape) => {
          const { seed: _seed, ...rest } = testResult({ seed, attempt, error, details })
          const result = { seed, ...rest }
          const line =
            shape === "as the runner writes it"
              ? result
              : shape === "a nested attempt before it"
                ? { seed, trace: { seed: seed + 1, attempt: attempt + 1 }, ...rest }
                : { details, ...result }
          expect(resultLineKey(Buffer.from(JSON.stringify(line)))).toEqual({ seed, attempt })
        },
      ),
    )
  })

  it("property: a call's key is the one its JSON holds, whatever its ids hold", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e12 }),
        fc.nat({ max: 5000 }),
        text,
        text,
        (seed, attempt, runId, rolloutId) => {
          const call = testCall({ seed, attempt, run_id: runId, rollout_id: rolloutId })
          expect(callLineKey(Buffer.from(JSON.stringify(call)))).toEqual({ seed, attempt })
        },
      ),
    )
  })

  it("is null for a line that is not a result or not a call", () => {
    for (const line of ["", "not json", "{}", '{"seed":1}', '{"seed":1.5,"attempt":0}', "[1,2]"]) {
      expect(resultLineKey(Buffer.from(line))).toBeNull()
      expect(callLineKey(Buffer.from(line))).toBeNull()
    }
  })
})
