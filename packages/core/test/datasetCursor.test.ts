import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { loadDataset } from "../src/dataset/Dataset.js"
import { jsonlCursor } from "../src/dataset/DatasetCursor.js"

const tmp = mkdtempSync(join(tmpdir(), "proctor-dataset-cursor-"))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/**
 * The cursor `proctor grade` reads a JSONL dataset with (one row held at a time) against the plain path, the whole
 * file loaded as a run loads it: every row alike, whatever the lines' lengths, blank lines and the last newline.
 */
describe("a JSONL dataset read forward by a cursor", () => {
  it("gives the rows loadDataset gives, in order, again after going back, and says which row is missing", () => {
    let file = 0
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            row: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
            // Long lines cross the cursor's 1 MiB buffer and make it grow.
            pad: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 1_500_000 })),
            blankAfter: fc.boolean(),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.boolean(),
        (lines, lastNewline) => {
          const path = join(tmp, `rows-${file++}.jsonl`)
          const text = lines
            .map(({ row, pad, blankAfter }) => {
              const { id: _, ...rest } = row
              return `${JSON.stringify({ ...rest, pad: "x".repeat(pad) })}${blankAfter ? "\n  \n" : "\n"}`
            })
            .join("")
          writeFileSync(path, lastNewline ? text : text.trimEnd())
          const { rows } = Effect.runSync(loadDataset(path))
          const cursor = jsonlCursor(path)
          try {
            expect(rows.map((_, index) => cursor.row(index))).toEqual(rows)
            expect(cursor.row(0)).toEqual(rows[0])
            expect(cursor.row(rows.length - 1)).toEqual(rows.at(-1))
            expect(cursor.row(rows.length)).toBe(`dataset ${path} has no row ${rows.length + 1}`)
          } finally {
            cursor.close()
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it("a line that is no JSON object is that row's error, naming the line; the rows after it still read", () => {
    const path = join(tmp, "broken.jsonl")
    writeFileSync(path, '{"a": 1}\n\n{"a": \n[1]\n{"a": 4}\n')
    const cursor = jsonlCursor(path)
    expect([0, 1, 2, 3].map(cursor.row)).toEqual([
      { a: 1 },
      expect.stringMatching(new RegExp(`^dataset ${path} line 3: not JSON \\(`)),
      `dataset ${path} line 4: expected a JSON object`,
      { a: 4 },
    ])
    cursor.close()
  })
})
