/** The grid page's logic that needs no browser: the matrix's order and filter, the flips, the URL's state. */
import { describe, expect, it } from "@effect/vitest"
import type { GridCell, GridTaskRow, GridView } from "../src/apiShapes.js"
import { flipOf, flipsBetween, matrixRows } from "../src/ui/gridMatrix.js"
import { type GridQuery, gridQueryOf, gridQueryParams } from "../src/ui/gridQuery.js"

const cell = (score: number | null): GridCell => ({
  score,
  passed: score === null ? null : score >= 1,
  attempts: 1,
  errored: score === null ? 1 : 0,
  attempt: 0,
  answer: score === null ? null : String(score),
  error_kind: score === null ? "timeout" : null,
})

const task = (seed: number, task_id: string | number | null, scores: ReadonlyArray<number | null>): GridTaskRow => ({
  seed,
  task_id,
  cells: scores.map((score) => cell(score)),
})

const TASKS = [task(0, "q-b", [1, 0]), task(1, "q-a", [0.5, null]), task(2, "q-d", [null, 1]), task(3, "q-c", [0, 1])]
const seedsOf = (tasks: ReadonlyArray<GridTaskRow>, rows: ReadonlyArray<number>) => rows.map((i) => tasks[i]!.seed)
const order = { column: null, descending: false, flips: null, flipsOnly: false }

const comparison = {
  pairs: [{ a: "best", b: "worst", flips: { a_only: [0, 5], b_only: [3] } }],
} as unknown as GridView["comparison"]

describe("the grid's flips", () => {
  it("reads a pair's flips either way round, and nothing for an unknown pair", () => {
    const forward = flipsBetween(comparison, "best", "worst")!
    expect([...forward.aOnly]).toEqual([0, 5])
    expect([...forward.bOnly]).toEqual([3])
    const backward = flipsBetween(comparison, "worst", "best")!
    expect([...backward.aOnly]).toEqual([3])
    expect([...backward.bOnly]).toEqual([0, 5])
    expect(flipsBetween(comparison, "best", "best")).toBeNull()
    expect(flipsBetween(comparison, "best", "other")).toBeNull()
    expect([flipOf(forward, 0), flipOf(forward, 3), flipOf(forward, 1)]).toEqual(["a", "b", null])
  })
})

describe("the matrix's rows", () => {
  it("sort by task id either way, else by seed", () => {
    expect(seedsOf(TASKS, matrixRows(TASKS, order))).toEqual([1, 0, 3, 2])
    expect(seedsOf(TASKS, matrixRows(TASKS, { ...order, descending: true }))).toEqual([2, 3, 0, 1])
    const someWithoutIds = [...TASKS, task(4, null, [1, 1])]
    expect(seedsOf(someWithoutIds, matrixRows(someWithoutIds, order))).toEqual([0, 1, 2, 3, 4])
    const numbered = [task(0, 10, [1]), task(1, 9, [1]), task(2, 100, [1])]
    expect(seedsOf(numbered, matrixRows(numbered, order))).toEqual([1, 0, 2])
  })

  it("sort by a variant's scores either way, unscored tasks last, ties by seed", () => {
    expect(seedsOf(TASKS, matrixRows(TASKS, { ...order, column: 0 }))).toEqual([3, 1, 0, 2])
    expect(seedsOf(TASKS, matrixRows(TASKS, { ...order, column: 0, descending: true }))).toEqual([0, 1, 3, 2])
    expect(seedsOf(TASKS, matrixRows(TASKS, { ...order, column: 1, descending: true }))).toEqual([2, 3, 0, 1])
  })

  it("keep only the tasks that flip when asked, and all of them until two variants are picked", () => {
    const flips = flipsBetween(comparison, "worst", "best")
    expect(seedsOf(TASKS, matrixRows(TASKS, { ...order, flips, flipsOnly: true }))).toEqual([0, 3])
    expect(seedsOf(TASKS, matrixRows(TASKS, { ...order, flips, flipsOnly: false }))).toHaveLength(4)
    expect(seedsOf(TASKS, matrixRows(TASKS, { ...order, flips: null, flipsOnly: true }))).toHaveLength(4)
  })
})

describe("the grid page's URL", () => {
  it("round-trips its state and leaves defaults out", () => {
    const query: GridQuery = { a: 2, b: 0, sort: 1, descending: true, flipsOnly: true }
    const params = gridQueryParams(query)
    expect(params).toEqual({ a: 2, b: 0, sort: 1, desc: 1, flips: "only" })
    expect(gridQueryOf(new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])))).toEqual(query)
    const none = gridQueryOf(new URLSearchParams("a=x&sort=-1"))
    expect(none).toEqual({ a: null, b: null, sort: null, descending: false, flipsOnly: false })
    expect(gridQueryParams(none)).toEqual({})
  })
})
