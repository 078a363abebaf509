import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { compareManyResults } from "@proctor/report"
import { freshDir, testResult as result, writeRun } from "@proctor/test-kit"
import { Effect, Exit } from "effect"
import type { GridView } from "../src/api.js"
import { openRunDirectoryRun } from "../src/backend/runDirectoryRun.js"
import { makeViewerApi } from "../src/backend/ViewerApi.js"
import { GRID_ANSWER_CHARS, GridViewBuilder } from "../src/gridView.js"

const answered = (seed: number, score: number, answer: string, over: Parameters<typeof result>[0] = {}) =>
  result({ seed, score, details: { answer }, ...over })

/**
 * Three variants over four tasks: `strong` passes all, `mixed` has two attempts of task 1 (one wrong) and task 2
 * wrong, `broken` errors on task 3 and has not run task 0 yet.
 */
const VARIANTS = [
  { name: "mixed", model: "m", prompt: "p1" },
  { name: "strong", model: "s" },
  { name: "broken", model: "b", system: "be terse" },
]
const RESULTS = [
  [
    answered(0, 1, "0"),
    answered(1, 0, "wrong", { attempt: 1 }),
    answered(1, 1, "1"),
    answered(2, 0, "two"),
    answered(3, 1, "3"),
  ],
  [answered(0, 1, "0"), answered(1, 1, "1"), answered(2, 1, "2"), answered(3, 1, "x".repeat(GRID_ANSWER_CHARS + 10))],
  [
    answered(1, 1, "1", { task_id: "task-1" }),
    answered(2, 1, "2"),
    result({ seed: 3, status: "error", error_kind: "timeout", error: "deadline" }),
  ],
]

const built = () => {
  const builder = new GridViewBuilder({ name: "g", variants: VARIANTS })
  RESULTS.forEach((results, variant) => {
    for (const r of results) builder.add(variant, r)
  })
  return builder.view(1)
}

describe("a grid's page data", () => {
  it("ranks the variants by the same computation as proctor compare, and orders the matrix's columns by it", () => {
    const grid = built()
    const reference = compareManyResults(
      VARIANTS.map((variant, i) => ({ label: variant.name, results: RESULTS[i]! })),
      { passThreshold: 1 },
    )
    expect(grid.comparison).toEqual(reference)
    expect(grid.variants.map((v) => [v.name, v.run])).toEqual([
      ["strong", 1],
      ["broken", 2],
      ["mixed", 0],
    ])
    expect(grid.variants[1]).toEqual({ name: "broken", model: "b", system: "be terse", run: 2 })
  })

  it("gives every task a row and every variant a cell: its mean score, pass, first attempt's answer or error", () => {
    const grid = built()
    expect(grid.tasks.map((task) => [task.seed, task.task_id])).toEqual([
      [0, null],
      [1, "task-1"],
      [2, null],
      [3, null],
    ])
    const [strong, broken, mixed] = [0, 1, 2].map((column) => grid.tasks.map((task) => task.cells[column] ?? null))
    expect(broken![0]).toBeNull()
    expect(mixed![1]).toEqual({
      score: 0.5,
      passed: false,
      attempts: 2,
      errored: 0,
      attempt: 0,
      answer: "1",
      error_kind: null,
    })
    expect(mixed![2]).toMatchObject({ score: 0, passed: false, answer: "two" })
    expect(broken![3]).toEqual({
      score: null,
      passed: null,
      attempts: 1,
      errored: 1,
      attempt: 0,
      answer: null,
      error_kind: "timeout",
    })
    const long = strong![3]!.answer!
    expect(long).toHaveLength(GRID_ANSWER_CHARS)
    expect(long.endsWith("…")).toBe(true)
  })

  it("passes a cell as the comparison passes a task, so the matrix shows exactly its flips", () => {
    const grid = built()
    const pair = grid.comparison.pairs.find((p) => p.a === "strong" && p.b === "mixed")!
    const passedOnlyBy = (column: number, other: number) =>
      grid.tasks
        .filter((task) => task.cells[column]?.passed === true && task.cells[other]?.passed === false)
        .map((task) => task.seed)
    expect(passedOnlyBy(0, 2)).toEqual(pair.flips.a_only)
    expect(passedOnlyBy(2, 0)).toEqual(pair.flips.b_only)
    expect(pair.flips.a_only).toEqual([1, 2])
  })
})

describe("the viewer data API of a grid", () => {
  it.scoped("answers grid with the variants' runs, and 404 where the runs are no grid", () =>
    Effect.gen(function* () {
      const root = freshDir()
      const runs = yield* Effect.forEach(VARIANTS, (variant, i) =>
        Effect.gen(function* () {
          const run = yield* writeRun(join(root, variant.name), [0, 1, 2, 3], 2, { config: { pass_threshold: 1 } })
          for (const r of RESULTS[i]!) yield* run.add(r)
          return yield* openRunDirectoryRun(run.dir, { name: variant.name })
        }),
      )
      const grid = (yield* makeViewerApi(runs, { grid: { name: "g", variants: VARIANTS } }).get("grid", {})) as GridView
      expect(grid).toEqual(built())

      const exit = yield* Effect.exit(makeViewerApi(runs).get("grid", {}))
      expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error).toMatchObject({
        reason: "NotFound",
        message: "this viewer shows no grid run",
      })
    }),
  )
})
