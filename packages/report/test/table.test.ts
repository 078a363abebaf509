import { describe, expect, it } from "@effect/vitest"
import { COMPACT_ROWS, formatTable, ResultTable } from "../src/table.js"
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

  it("names an agent run's rows by task, with each one's stop reason and turns", () => {
    const table = new ResultTable({ rowKind: "tasks", hideEmptyColumns: true, numbers: "human" })
    table.add(result({ seed: 0, task_id: "find-the-secret", score: 0, stop_reason: "max_turns", turns: 10 }))
    table.add(result({ seed: 1, task_id: "hello-file", score: 1, stop_reason: "model_ended", turns: 2 }))
    table.add(result({ seed: 2, task_id: "memory-hog", status: "error", error_kind: "verifier", error: "no reward" }))
    expect(table.toText()).toBe(
      [
        "task            | stop_reason | turns | score | error    ",
        "----------------+-------------+-------+-------+----------",
        "find-the-secret | max_turns   | 10    | 0     | -        ",
        "hello-file      | model_ended | 2     | 1     | -        ",
        "memory-hog      | -           | -     | -     | no reward",
        "avg             | -           | 6     | 0.5   | -        ",
      ].join("\n"),
    )
  })

  it("caps the rows shown but averages over all of them", () => {
    const results = Array.from({ length: 1000 }, (_, seed) => result({ seed, score: seed < 2 ? 0 : 1 }))
    const lines = formatTable(results, { rows: { first: 2, last: 0, failures: 0 } }).split("\n")
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

  it("shows the first and last rows and every failure, with a line where rows were left out", () => {
    const results = Array.from({ length: 400 }, (_, seed) =>
      seed === 100 || seed === 398
        ? result({ seed, status: "error", error_kind: "timeout", error: "deadline" })
        : result({ seed, score: 1 }),
    )
    const table = new ResultTable({ rows: COMPACT_ROWS })
    for (const r of results) table.add(r)
    const lines = table.toText().split("\n")
    expect(lines.map((line) => line.split(/ \||-\+/)[0]!.trim())).toEqual([
      "seed",
      "----",
      "0",
      "1",
      "2",
      "3",
      "4",
      "… 95 more rows",
      "100",
      "… 294 more rows",
      "395",
      "396",
      "397",
      "398",
      "399",
      "avg",
    ])
    expect([table.totalRows, table.hiddenRows, table.hiddenFailures]).toEqual([400, 389, 0])
  })

  it("caps the failures shown and counts the rest", () => {
    const table = new ResultTable({ rows: { first: 1, last: 1, failures: 2 } })
    for (let seed = 0; seed < 10; seed++) table.add(result({ seed, status: "error", error_kind: "timeout" }))
    // seeds 0 (first), 1 and 2 (failures), 9 (last)
    expect(table.rows.map((row) => row[0])).toEqual(["0", "1", "2", "9"])
    expect(table.hiddenFailures).toBe(6)
  })

  it("hides columns no row has a value in, when asked (the terminal), and names them", () => {
    const table = new ResultTable({ hideEmptyColumns: true, numbers: "human" })
    table.add(result({ seed: 0, score: 1, latency_ms: 12, cost_usd: 0.0000589 }))
    table.add(result({ seed: 1, score: 0, latency_ms: 8, cost_usd: 0.000025 }))
    expect(table.toText()).toBe(
      [
        "seed | score | latency_ms | cost_usd ",
        "-----+-------+------------+----------",
        "0    | 1     | 12         | 0.0000589",
        "1    | 0     | 8          | 0.000025 ",
        "avg  | 0.5   | 10         | 0.000042 ",
      ].join("\n"),
    )
    expect(table.hiddenColumns).toEqual(["reward_mean", "outcome", "events", "verifier", "tokens", "error"])
    // synth-ai's numbers, as the output files keep them, would round these costs to 0.0001 and 0
    expect(formatTable([result({ cost_usd: 0.0000589 }), result({ cost_usd: 0.000025 })])).toMatch(/\| 0\.0001 +\|/)
  })
})
