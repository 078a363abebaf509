import { mkdtemp, readdir, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { traceFileName } from "@proctor/core"
import { Effect } from "effect"
import { writeTraces } from "../src/traces.js"
import { result } from "./fixtures.js"

const tempDir = Effect.promise(() => mkdtemp(join(tmpdir(), "proctor-traces-")))

describe("traces", () => {
  it("names files like synth-ai, with the attempt when there are several", () => {
    expect(traceFileName(3, 0, 1)).toBe("seed_3_trace.json")
    expect(traceFileName(3, 2, 4)).toBe("seed_3_attempt_2_trace.json")
  })

  it.effect("writes one file per result with a trace, creating the directory", () =>
    Effect.gen(function* () {
      const dir = join(yield* tempDir, "nested", "traces")
      const trace = { session_id: "s", event_history: [{ usage: { total_tokens: 3 } }] }
      const paths = yield* writeTraces(
        dir,
        [
          result({ seed: 1, trace }),
          result({ seed: 2 }),
          result({ seed: 3, trace: null }),
          result({ seed: 4, trace: 7 }),
        ],
        { attempts: 1 },
      )
      expect(paths).toEqual([join(dir, "seed_1_trace.json"), join(dir, "seed_4_trace.json")])
      expect((yield* Effect.promise(() => readdir(dir))).sort()).toEqual(["seed_1_trace.json", "seed_4_trace.json"])
      expect(yield* Effect.promise(() => readFile(paths[0]!, "utf8"))).toBe(JSON.stringify(trace, null, 2))
    }),
  )

  it.effect("reads async sources and keeps attempts apart", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      async function* results() {
        for (let attempt = 0; attempt < 3; attempt++) yield result({ seed: 5, attempt, trace: { attempt } })
      }
      const paths = yield* writeTraces(dir, results(), { attempts: 3 })
      expect(paths.map((p) => p.slice(dir.length + 1))).toEqual([
        "seed_5_attempt_0_trace.json",
        "seed_5_attempt_1_trace.json",
        "seed_5_attempt_2_trace.json",
      ])
    }),
  )

  it.effect("fails with ReportWriteError when the source fails", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      // biome-ignore lint/correctness/useYield: a source that fails before yielding anything
      async function* broken() {
        throw new Error("journal unreadable")
      }
      const error = yield* Effect.flip(writeTraces(dir, broken(), { attempts: 1 }))
      expect(error._tag).toBe("ReportWriteError")
      expect(error.message).toBe("journal unreadable")
    }),
  )
})
