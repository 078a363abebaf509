import { describe, expect, it } from "@effect/vitest"
import { formatTable, ResultTable } from "../src/table.js"
import { goldenResults, goldenTable, result } from "./fixtures.js"

describe("formatTable", () => {
  it("renders synth-ai's table, alignment and avg row included", () => {
    expect(formatTable(goldenResults)).toBe(goldenTable)
  })

  it("adds an attempt column after seed when a run makes several attempts", () => {
    const table = formatTable([result({ seed: 0, attempt: 0, score: 1 }), result({ seed: 0, attempt: 1, score: 0 })], {
      attempts: 2,
    })
    expect(table).toBe(
      [
        "seed | attempt | score | reward_mean | outcome | events | latency_ms | verifier | tokens | cost_usd | error",
        "-----+---------+-------+-------------+---------+--------+------------+----------+--------+----------+------",
        "0    | 0       | 1     | -           | -       | -      | -          | -        | -      | -        | -    ",
        "0    | 1       | 0     | -           | -       | -      | -          | -        | -      | -        | -    ",
        "avg  | -       | 0.5   | -           | -       | -      | -          | -        | -      | -        | -    ",
      ].join("\n"),
    )
  })

  it("caps the rows shown but averages over all of them", () => {
    const results = Array.from({ length: 1000 }, (_, seed) => result({ seed, score: seed < 2 ? 0 : 1 }))
    const lines = formatTable(results, { maxRows: 2 }).split("\n")
    expect(lines).toEqual([
      "seed | score | reward_mean | outcome | events | latency_ms | verifier | tokens | cost_usd | error",
      "-----+-------+-------------+---------+--------+------------+----------+--------+----------+------",
      "0    | 0     | -           | -       | -      | -          | -        | -      | -        | -    ",
      "1    | 0     | -           | -       | -      | -          | -        | -      | -        | -    ",
      "… 998 more rows",
      "avg  | 0.998 | -           | -       | -      | -          | -        | -      | -        | -    ",
    ])
  })

  it("shows the error kind when an errored rollout has no message, and truncates long errors", () => {
    const table = new ResultTable()
    table.add(result({ status: "error", error_kind: "timeout" }))
    table.add(result({ seed: 1, status: "error", error_kind: "decode", error: `bad body: ${"y".repeat(300)}` }))
    expect(table.rows[0]!.at(-1)).toBe("timeout")
    expect(table.rows[1]!.at(-1)).toHaveLength(80)
    expect(table.rows[1]!.at(-1)).toMatch(/^bad body: y+…$/)
  })

  it("renders an empty table with an empty avg row", () => {
    expect(formatTable([])).toBe(
      [
        "seed | score | reward_mean | outcome | events | latency_ms | verifier | tokens | cost_usd | error",
        "-----+-------+-------------+---------+--------+------------+----------+--------+----------+------",
        "avg  | -     | -           | -       | -      | -          | -        | -      | -        | -    ",
      ].join("\n"),
    )
  })
})
