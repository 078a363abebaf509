import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { conversation, testResult, testStep } from "@proctor/test-kit"
import { Chunk, Effect, Option, Stream } from "effect"
import type { EvalResult } from "../src/result/EvalResult.js"
import type { ModelCall } from "../src/result/ModelCall.js"
import type { RolloutStep } from "../src/result/RolloutStep.js"
import { encodeModelCalls } from "../src/store/ModelCallCodec.js"
import {
  MODEL_CALLS_FILE,
  makeRunDirectoryStore,
  openJournal,
  RESULTS_FILE,
  STEPS_FILE,
  SUMMARY_FILE,
} from "../src/store/RunDirectory.js"
import { openRunReader } from "../src/store/RunReader.js"

const dirs: Array<string> = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A run directory with the given journal and model-call lines (full form: what proctor wrote before deltas). */
const runDir = (results: ReadonlyArray<EvalResult>, calls: ReadonlyArray<ModelCall> = []) => {
  const dir = mkdtempSync(join(tmpdir(), "proctor-reader-"))
  dirs.push(dir)
  writeFileSync(join(dir, RESULTS_FILE), results.map((r) => `${JSON.stringify(r)}\n`).join(""))
  writeFileSync(join(dir, MODEL_CALLS_FILE), calls.map((c) => `${JSON.stringify(c)}\n`).join(""))
  return dir
}

/** A step of seed `seed`'s first try, as a line of steps.jsonl. */
const stepLine = (seed: number, index: number, over: Partial<RolloutStep>): string =>
  `${JSON.stringify(testStep(seed, index, "note", over))}\n`

const allResults = (reader: { results: (from?: number) => Stream.Stream<EvalResult, unknown> }, from?: number) =>
  Effect.map(Stream.runCollect(reader.results(from)), Chunk.toArray)

describe("RunReader", () => {
  it.effect("reads results in journal order and a rollout with its calls, from full-form files", () =>
    Effect.gen(function* () {
      const results = [
        testResult({ seed: 7, score: 1 }),
        testResult({ seed: 3, attempt: 1, score: 0, error: 'a "quoted" error, attempt:9' }),
      ]
      const calls = [...conversation(3, { seed: 7, attempt: 0 }), ...conversation(2, { seed: 3, attempt: 1 })]
      const reader = yield* openRunReader(runDir(results, calls))
      expect(reader.count()).toBe(2)
      expect(yield* allResults(reader)).toEqual(results)
      expect(yield* allResults(reader, 1)).toEqual([results[1]])
      const rollout = Option.getOrThrow(yield* reader.rollout(3, 1))
      expect(rollout.result).toEqual(results[1])
      expect(rollout.calls.map((c) => JSON.stringify(c))).toEqual(calls.slice(3).map((c) => JSON.stringify(c)))
      expect(Option.isNone(yield* reader.rollout(3, 0))).toBe(true)
      expect([reader.callCount(7, 0), reader.callCount(3, 1), reader.callCount(3, 0)]).toEqual([3, 2, 0])
      expect(reader.manifest).toBeNull()
      expect(reader.summary()).toBeNull()
    }),
  )

  it.effect("reads around a line an older proctor glued to the end of a call cut short by a crash", () =>
    Effect.gen(function* () {
      const [kept, cut] = conversation(2, { seed: 2, attempt: 0 })
      const [glued, after] = conversation(2, { seed: 3, attempt: 0 })
      const dir = runDir([testResult({ seed: 2 }), testResult({ seed: 3 })], [kept!])
      // The crashed session's last call, half written; the resumed session appended straight after it.
      const cutText = JSON.stringify(cut)
      appendFileSync(join(dir, MODEL_CALLS_FILE), `${cutText.slice(0, cutText.length / 2)}${JSON.stringify(glued)}\n`)
      appendFileSync(join(dir, MODEL_CALLS_FILE), `${JSON.stringify(after)}\n`)
      const reader = yield* openRunReader(dir)
      expect(Option.getOrThrow(yield* reader.rollout(2, 0)).calls).toEqual([kept])
      expect(Option.getOrThrow(yield* reader.rollout(3, 0)).calls).toEqual([after])
    }),
  )

  it.effect("streams results over many reads, from any index", () =>
    Effect.gen(function* () {
      const results = Array.from({ length: 2_500 }, (_, i) => testResult({ seed: 2_500 - i, score: i % 2 }))
      const reader = yield* openRunReader(runDir(results))
      expect(yield* allResults(reader)).toEqual(results)
      expect(yield* allResults(reader, 1_499)).toEqual(results.slice(1_499))
      expect(yield* allResults(reader, 2_500)).toEqual([])
    }),
  )

  it.effect("follows a growing run: a torn last line waits until it is whole", () =>
    Effect.gen(function* () {
      const dir = runDir([testResult({ seed: 0 })], conversation(1, { seed: 0, attempt: 0 }))
      const reader = yield* openRunReader(dir)
      const [call] = conversation(1, { seed: 1, attempt: 0 })
      const result = JSON.stringify(testResult({ seed: 1, score: 0.5 }))
      // Written the way the store writes: calls first, then the result; each cut mid-line here.
      appendFileSync(join(dir, MODEL_CALLS_FILE), JSON.stringify(call).slice(0, 40))
      appendFileSync(join(dir, RESULTS_FILE), result.slice(0, 30))
      expect(yield* reader.refresh()).toBe(1)
      expect(Option.isNone(yield* reader.rollout(1, 0))).toBe(true)
      appendFileSync(join(dir, MODEL_CALLS_FILE), `${JSON.stringify(call).slice(40)}\n`)
      appendFileSync(join(dir, RESULTS_FILE), `${result.slice(30)}\n`)
      expect(yield* reader.refresh()).toBe(2)
      const rollout = Option.getOrThrow(yield* reader.rollout(1, 0))
      expect(rollout.result.score).toBe(0.5)
      expect(rollout.calls).toEqual([call])
      expect((yield* allResults(reader)).map((r) => r.seed)).toEqual([0, 1])
    }),
  )

  it.effect("follows steps still being written: a line is read once it has ended, a line cut by a crash left out", () =>
    Effect.gen(function* () {
      const dir = runDir([])
      const reader = yield* openRunReader(dir)
      expect(yield* reader.steps(0, 0)).toEqual([])
      const path = join(dir, STEPS_FILE)
      appendFileSync(path, stepLine(0, 0, { text: "start" }))
      const half = stepLine(0, 1, { kind: "command", command: "make", exit_code: 0, stdout: "x".repeat(3000) })
      appendFileSync(path, half.slice(0, 1000))
      yield* reader.refresh()
      expect((yield* reader.steps(0, 0)).map((s) => s.index)).toEqual([0])
      expect(reader.stepTotal()).toBe(1)
      appendFileSync(path, half.slice(1000))
      yield* reader.refresh()
      expect((yield* reader.steps(0, 0)).map((s) => s.index)).toEqual([0, 1])
      // A line that is not a step (cut by a crash, alone or with the next session's first step glued to it) is left
      // out; the next lines still count.
      const glued = `{"seed":0,"attempt":0,"kind":"no${stepLine(0, 9, { text: "lost" })}`
      appendFileSync(path, `{"seed":0,"att\n${glued}${stepLine(0, 2, { text: "end" })}`)
      yield* reader.refresh()
      expect((yield* reader.steps(0, 0)).map((s) => s.text ?? s.command)).toEqual(["start", "make", "end"])
      expect(reader.stepTotal()).toBe(3)
    }),
  )

  it.live("never shows a result before its calls, even to a reader asking while the index is brought up to date", () =>
    Effect.gen(function* () {
      const dir = runDir([testResult({ seed: 0 })], conversation(1, { seed: 0, attempt: 0 }))
      const reader = yield* openRunReader(dir)
      // Written the way the store writes: a rollout's calls first, then its result.
      appendFileSync(
        join(dir, MODEL_CALLS_FILE),
        conversation(3, { seed: 1, attempt: 0 })
          .map((c) => `${JSON.stringify(c)}\n`)
          .join(""),
      )
      appendFileSync(join(dir, RESULTS_FILE), `${JSON.stringify(testResult({ seed: 1 }))}\n`)
      // What a viewer request sees at each turn of the event loop while the refresh reads the files.
      const seen: Array<[number, number]> = []
      let refreshing = true
      const look = () => {
        seen.push([reader.count(), reader.callCount(1, 0)])
        if (refreshing) setImmediate(look)
      }
      setImmediate(look)
      yield* reader.refresh()
      refreshing = false
      expect(seen.length).toBeGreaterThan(1)
      expect(seen.filter(([count, calls]) => count === 2 && calls !== 3)).toEqual([])
      expect([reader.count(), reader.callCount(1, 0)]).toEqual([2, 3])
    }),
  )

  it.effect("indexes a journal replaced by a repair afresh, and reads summary.json once written", () =>
    Effect.gen(function* () {
      const dir = runDir([testResult({ seed: 0 }), testResult({ seed: 1 })])
      const reader = yield* openRunReader(dir)
      writeFileSync(join(dir, "new.jsonl"), `${JSON.stringify(testResult({ seed: 1, score: 1 }))}\n`)
      renameSync(join(dir, "new.jsonl"), join(dir, RESULTS_FILE))
      expect(yield* reader.refresh()).toBe(1)
      expect(Option.getOrThrow(yield* reader.rollout(1, 0)).result.score).toBe(1)
      expect(Option.isNone(yield* reader.rollout(0, 0))).toBe(true)
      writeFileSync(join(dir, SUMMARY_FILE), JSON.stringify({ run_id: "r", completed: 1 }))
      expect(reader.summary()).toMatchObject({ run_id: "r", completed: 1 })
    }),
  )

  it.effect("keeps the first of two lines for one rollout, and skips lines that are no result", () =>
    Effect.gen(function* () {
      const dir = runDir([testResult({ seed: 0, score: 1 }), testResult({ seed: 0, score: 0 })])
      appendFileSync(join(dir, RESULTS_FILE), "not json\n{}\n")
      const reader = yield* openRunReader(dir)
      expect(reader.count()).toBe(1)
      expect((yield* allResults(reader)).map((r) => r.score)).toEqual([1])
    }),
  )

  it.effect("a later try of an errored rollout (--retry-errors) wins, as it does on resume", () =>
    Effect.gen(function* () {
      const errored = testResult({ seed: 0, score: null, status: "error", error_kind: "timeout", error: "slow" })
      const dir = runDir([errored, testResult({ seed: 1, score: 1 }), testResult({ seed: 0, score: 0.5 })])
      const reader = yield* openRunReader(dir)
      expect(reader.count()).toBe(2)
      expect((yield* allResults(reader)).map((r) => [r.seed, r.status, r.score])).toEqual([
        [0, "ok", 0.5],
        [1, "ok", 1],
      ])
      const journal = yield* openJournal(dir, { seeds: [0, 1], attempts: 1 })
      expect(Array.from(journal.results(), (r) => r.score)).toEqual([0.5, 1])
    }),
  )

  it.effect("reads back what the store wrote relative to earlier calls, across a crash in the middle of a write", () =>
    Effect.gen(function* () {
      const dir = runDir([])
      const plan = { seeds: [0, 1, 2], attempts: 1 }
      const first = conversation(5, { seed: 0, attempt: 0 })
      const cutShort = conversation(3, { seed: 2, attempt: 0 })
      const second = conversation(4, { seed: 1, attempt: 0 })
      yield* Effect.scoped(
        Effect.gen(function* () {
          const store = yield* makeRunDirectoryStore(dir, plan)
          yield* store.appendModelCalls(first)
          yield* store.append(testResult({ seed: 0, score: 1 }))
        }),
      )
      // Killed while writing seed 2's calls: one whole line, then half of the next.
      const [whole, torn] = encodeModelCalls(cutShort).map((call) => JSON.stringify(call))
      appendFileSync(join(dir, MODEL_CALLS_FILE), `${whole}\n${torn!.slice(0, torn!.length / 2)}`)
      const reader = yield* openRunReader(dir)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const store = yield* makeRunDirectoryStore(dir, plan)
          yield* store.appendModelCalls(second)
          yield* store.append(testResult({ seed: 1, score: 0 }))
        }),
      )
      expect(yield* reader.refresh()).toBe(2)
      const texts = (calls: ReadonlyArray<ModelCall>) => calls.map((call) => JSON.stringify(call))
      expect(texts(Option.getOrThrow(yield* reader.rollout(0, 0)).calls)).toEqual(texts(first))
      expect(texts(Option.getOrThrow(yield* reader.rollout(1, 0)).calls)).toEqual(texts(second))
      // Stored relative to earlier calls, and smaller than the calls themselves.
      const stored = readFileSync(join(dir, MODEL_CALLS_FILE), "utf8")
      expect(stored).toContain(`"request_delta":{"base":"${first[0]!.call_id}"`)
      expect(stored.length).toBeLessThan(texts([...first, cutShort[0]!, ...second]).join("\n").length)
    }),
  )

  it.effect("refuses a directory that is not a run directory", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "proctor-reader-"))
      dirs.push(dir)
      const error = yield* Effect.flip(openRunReader(dir))
      expect(error.reason).toBe("NotFound")
      expect(error.message).toContain("not a run directory")
    }),
  )
})
