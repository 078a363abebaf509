import { mkdtemp, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { formatOutputTxt, writeOutputTxt } from "../src/outputTxt.js"
import { goldenResults, goldenTable, result } from "./fixtures.js"

const config = { app_id: "math", seeds: [0, 1] }

describe("output txt", () => {
  it("lays out config and table as synth-ai does", () => {
    expect(formatOutputTxt(config, "TABLE")).toBe(
      'Eval config\n{\n  "app_id": "math",\n  "seeds": [\n    0,\n    1\n  ]\n}\n\nResults\nTABLE\n',
    )
  })

  it.effect("writes the full table in two passes over the results", () =>
    Effect.gen(function* () {
      const dir = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "proctor-txt-")))
      const path = join(dir, "eval.txt")
      let passes = 0
      async function* journal() {
        passes++
        yield* goldenResults
      }
      yield* writeOutputTxt(path, config, journal)
      expect(passes).toBe(2)
      expect(yield* Effect.promise(() => readFile(path, "utf8"))).toBe(formatOutputTxt(config, goldenTable))
    }),
  )

  it.effect("sizes columns for every row, with an attempt column when asked", () =>
    Effect.gen(function* () {
      const dir = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "proctor-txt-")))
      const path = join(dir, "eval.txt")
      const results = [result({ seed: 7, attempt: 1, score: 1 }), result({ seed: 123456, attempt: 0, score: 0.25 })]
      yield* writeOutputTxt(path, {}, () => results, { attempts: 2 })
      const text = yield* Effect.promise(() => readFile(path, "utf8"))
      expect(text.split("\n").slice(3)).toEqual([
        "Results",
        "seed   | attempt | score | reward_mean | outcome | events | latency_ms | verifier | tokens | cost_usd | error",
        "-------+---------+-------+-------------+---------+--------+------------+----------+--------+----------+------",
        "7      | 1       | 1     | -           | -       | -      | -          | -        | -      | -        | -    ",
        "123456 | 0       | 0.25  | -           | -       | -      | -          | -        | -      | -        | -    ",
        "avg    | -       | 0.625 | -           | -       | -      | -          | -        | -      | -        | -    ",
        "",
      ])
    }),
  )
})
