import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { testResult } from "@proctor/test-kit"
import { Effect, Either } from "effect"
import fc from "fast-check"
import { type EvalResult, rolloutKeyId } from "../src/result/EvalResult.js"
import { type JournalPlan, openJournal, RESULTS_FILE, repairJournal } from "../src/store/RunDirectory.js"

/**
 * A valid journal (what proctor writes: one line per stored key, all planned, in finishing order), then
 * corruptions of it. Every line of the corrupted file is tagged with where it came from, so the test knows
 * which lines a reader must refuse without reading them the way the reader does.
 */
type Origin = "original" | "copy" | "variant" | "garbage" | "torn" | "unplanned"

interface Line {
  readonly text: string
  readonly origin: Origin
  /** The key of an original, copy or variant line. */
  readonly key?: string
}

interface Corrupted {
  readonly plan: JournalPlan
  readonly originals: ReadonlyMap<string, string>
  readonly lines: ReadonlyArray<Line>
  /** The file does not end in a newline: its last line is a write that may have been cut short. */
  readonly unterminated: boolean
}

const resultArbitrary = (key: { seed: number; attempt: number }) =>
  fc
    .record({
      score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      status: fc.constantFrom("ok" as const, "error" as const),
      retries: fc.nat({ max: 3 }),
      latency_ms: fc.option(fc.double({ min: 0, max: 1e5, noNaN: true }), { nil: null }),
    })
    .map(
      (fields): EvalResult =>
        testResult({ ...key, ...fields, error_kind: fields.status === "error" ? "timeout" : null }),
    )

const validJournal = fc
  .record({ seedCount: fc.integer({ min: 1, max: 6 }), attempts: fc.integer({ min: 1, max: 3 }) })
  .chain(({ seedCount, attempts }) => {
    const seeds = Array.from({ length: seedCount }, (_, i) => i * 3)
    const keys = seeds.flatMap((seed) => Array.from({ length: attempts }, (_, attempt) => ({ seed, attempt })))
    return fc
      .shuffledSubarray(keys)
      .chain((stored) => fc.tuple(...stored.map(resultArbitrary)))
      .map((results) => ({ plan: { seeds, attempts }, results: results as ReadonlyArray<EvalResult> }))
  })

/**
 * A different result for the same key: the kind of line that silently moved a mean before. Made of ok
 * results only, and ok itself: a later try after an errored result is a retry (`--retry-errors`), which
 * wins; that is tested on its own.
 */
const variantOf = (text: string, change: number): string => {
  const result = JSON.parse(text) as EvalResult
  return change % 2 === 0
    ? JSON.stringify({ ...result, score: result.score === null ? 0.5 : result.score + 1 })
    : JSON.stringify({ ...result, retries: result.retries + 1 })
}

const noNewline = (text: string) => text.replaceAll("\n", " ")

type Insertion =
  | { readonly kind: "garbage"; readonly text: string }
  | { readonly kind: "junk"; readonly bytes: Uint8Array }
  | { readonly kind: "torn" | "copy" | "variant"; readonly of: number; readonly cut: number }
  | { readonly kind: "unplanned"; readonly seed: number; readonly attempt: number }

const insertion: fc.Arbitrary<{ at: number; what: Insertion }> = fc.record({
  at: fc.nat(),
  what: fc.oneof(
    fc.record({ kind: fc.constant("garbage" as const), text: fc.string({ maxLength: 30 }) }),
    fc.record({ kind: fc.constant("junk" as const), bytes: fc.uint8Array({ maxLength: 30 }) }),
    fc.record({
      kind: fc.constantFrom("torn" as const, "copy" as const, "variant" as const),
      of: fc.nat(),
      cut: fc.nat(),
    }),
    fc.record({
      kind: fc.constant("unplanned" as const),
      seed: fc.integer({ min: -5, max: 40 }),
      attempt: fc.integer({ min: -1, max: 5 }),
    }),
  ),
})

/** Only what proctor itself can leave behind (with lost lines and a torn end, added below). */
const harmlessInsertion: fc.Arbitrary<{ at: number; what: Insertion }> = fc.record({
  at: fc.nat(),
  what: fc.oneof(
    fc.record({ kind: fc.constant("copy" as const), of: fc.nat(), cut: fc.nat() }),
    fc.record({ kind: fc.constant("garbage" as const), text: fc.constantFrom("", " ", "\r", "\t ") }),
  ),
})

const corruptedJournal = (harmfulToo: boolean): fc.Arbitrary<Corrupted> =>
  fc
    .record({
      journal: validJournal,
      deleted: fc.array(fc.nat(), { maxLength: 3 }),
      insertions: fc.array(harmfulToo ? insertion : harmlessInsertion, { maxLength: 5 }),
      end: fc.constantFrom("newline" as const, "unterminated" as const, "torn" as const),
      endCut: fc.nat(),
    })
    .map(({ journal, deleted, insertions, end, endCut }): Corrupted => {
      const originals = new Map(journal.results.map((r) => [rolloutKeyId(r), JSON.stringify(r)]))
      const kept = [...originals].filter((_, i) => !deleted.includes(i))
      const lines: Array<Line> = kept.map(([key, text]) => ({ text, origin: "original", key }))
      for (const { at, what } of insertions) {
        const line = materialize(what, kept, journal.plan)
        if (line !== null) lines.splice(at % (lines.length + 1), 0, line)
      }
      const last = lines[lines.length - 1]
      const hasVariant = (key: string | undefined) => lines.some((l) => l.origin === "variant" && l.key === key)
      // Tearing an original whose key also has a variant would be an edit in place, which no reader can see.
      if (end === "torn" && last !== undefined && last.text.length > 1 && !hasVariant(last.key)) {
        lines[lines.length - 1] = { text: last.text.slice(0, 1 + (endCut % (last.text.length - 1))), origin: "torn" }
      }
      return { plan: journal.plan, originals, lines, unterminated: end !== "newline" && lines.length > 0 }
    })

function materialize(what: Insertion, kept: ReadonlyArray<[string, string]>, plan: JournalPlan): Line | null {
  switch (what.kind) {
    case "garbage":
      return { text: noNewline(what.text), origin: "garbage" }
    case "junk":
      return { text: Buffer.from(what.bytes.filter((b) => b !== 0x0a)).toString("latin1"), origin: "garbage" }
    case "unplanned": {
      if (plan.seeds.includes(what.seed) && what.attempt >= 0 && what.attempt < plan.attempts) return null
      return { text: JSON.stringify(testResult({ seed: what.seed, attempt: what.attempt })), origin: "unplanned" }
    }
    default: {
      if (kept.length === 0) return null
      const [key, text] = kept[what.of % kept.length]!
      if (what.kind === "copy") return { text, origin: "copy", key }
      if (what.kind === "variant") {
        return (JSON.parse(text) as EvalResult).status === "ok"
          ? { text: variantOf(text, what.cut), origin: "variant", key }
          : null
      }
      return { text: text.slice(0, 1 + (what.cut % (text.length - 1))), origin: "torn" }
    }
  }
}

/** A line as the reader sees it: the file's bytes decoded as UTF-8. */
const asRead = (line: Line) => Buffer.from(line.text, "latin1").toString("utf8")
const isBlank = (line: Line) => asRead(line).trim() === ""

/** The lines a reader must refuse: anything not a planned result, but for a torn unterminated last line. */
const mustRefuse = (c: Corrupted): Array<number> =>
  c.lines.flatMap((line, i) => {
    if (line.origin === "original" || line.origin === "copy" || isBlank(line)) return []
    const isLast = i === c.lines.length - 1
    if (isLast && c.unterminated && !parses(asRead(line))) return []
    return [i + 1]
  })

const parses = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

let root: string | undefined
const scratch = () => {
  root ??= mkdtempSync(join(tmpdir(), "proctor-journal-"))
  return mkdtempSync(join(root, "run-"))
}
afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
})

const write = (dir: string, c: Corrupted) =>
  writeFileSync(
    join(dir, RESULTS_FILE),
    Buffer.from(
      `${c.lines.map((l) => l.text).join("\n")}${c.unterminated || c.lines.length === 0 ? "" : "\n"}`,
      "latin1",
    ),
  )

const open = (dir: string, plan: JournalPlan) =>
  Effect.runPromise(
    Effect.either(Effect.map(openJournal(dir, plan), (journal) => Array.from(journal.results(), (r) => r))),
  )

/** What a reader must return: each stored key once, its result as stored, and nothing else. */
const expectStoredResults = (results: ReadonlyArray<EvalResult>, c: Corrupted, keys: ReadonlySet<string>) => {
  expect(results.map(rolloutKeyId).sort()).toEqual([...keys].sort())
  for (const result of results) expect(result).toEqual(JSON.parse(c.originals.get(rolloutKeyId(result))!))
}

/** Keys with a whole line of their stored result left (a torn last line is cut back). */
const survivingKeys = (c: Corrupted) =>
  new Set(c.lines.filter((l) => l.origin === "original" || l.origin === "copy").map((l) => l.key!))

describe("the journal reader, over arbitrary corruptions of a valid journal", () => {
  it("either resumes to exactly the stored planned results, or refuses naming a line that is not one", async () => {
    await fc.assert(
      fc.asyncProperty(corruptedJournal(true), async (c) => {
        const dir = scratch()
        write(dir, c)
        const before = readFileSync(join(dir, RESULTS_FILE))
        const refuse = mustRefuse(c)
        const opened = await open(dir, c.plan)
        if (Either.isLeft(opened)) {
          expect(opened.left.reason).toBe("Corrupt")
          const named = Number(/ line (\d+) /.exec(opened.left.message)?.[1])
          const variantKeys = new Set(c.lines.filter((l) => l.origin === "variant").map((l) => l.key))
          // The named line is one that must be refused, or a line whose key a variant contradicts.
          expect(refuse.includes(named) || variantKeys.has(c.lines[named - 1]?.key)).toBe(true)
          // A refusal changes nothing on disk.
          expect(readFileSync(join(dir, RESULTS_FILE)).equals(before)).toBe(true)
          return
        }
        expect(refuse).toEqual([])
        expectStoredResults(opened.right, c, survivingKeys(c))
        // Later appends start on a line of their own (a blank tail is harmless: JSON allows leading spaces).
        const text = readFileSync(join(dir, RESULTS_FILE), "latin1")
        expect(text.slice(text.lastIndexOf("\n") + 1).trim()).toBe("")
      }),
      { numRuns: 300 },
    )
  })

  it("never refuses what proctor's own crashes leave: lost lines, exact copies, blank lines, a torn last line", async () => {
    await fc.assert(
      fc.asyncProperty(corruptedJournal(false), async (c) => {
        const dir = scratch()
        write(dir, c)
        const opened = await open(dir, c.plan)
        if (Either.isLeft(opened)) throw new Error(`refused: ${opened.left.message}`)
        expectStoredResults(opened.right, c, survivingKeys(c))
        // Reading again after the torn line was cut back gives the same results.
        const again = await open(dir, c.plan)
        expect(again).toEqual(opened)
      }),
      { numRuns: 200 },
    )
  })

  it("--repair keeps a byte-exact backup and leaves only stored results, a key two lines disagree on dropped", async () => {
    await fc.assert(
      fc.asyncProperty(corruptedJournal(true), async (c) => {
        const dir = scratch()
        write(dir, c)
        const before = readFileSync(join(dir, RESULTS_FILE))
        const repair = await Effect.runPromise(repairJournal(dir, c.plan))
        const backups = readdirSync(dir).filter((name) => name.startsWith(`${RESULTS_FILE}.bak-`))
        if (repair.backup === null) {
          expect(repair.dropped).toEqual([])
          expect(backups).toEqual([])
        } else {
          expect(readFileSync(repair.backup).equals(before)).toBe(true)
        }
        const opened = await open(dir, c.plan)
        if (Either.isLeft(opened)) throw new Error(`after --repair: ${opened.left.message}`)
        const contradicted = new Set(c.lines.filter((l) => l.origin === "variant").map((l) => l.key!))
        const expected = [...survivingKeys(c)].filter((key) => !contradicted.has(key))
        expectStoredResults(opened.right, c, new Set(expected))
        for (const line of mustRefuse(c)) expect(repair.dropped.map((d) => d.line)).toContain(line)
      }),
      { numRuns: 300 },
    )
  })
})
