import { describe, expect, it } from "@effect/vitest"
import { formatMarkdown } from "../src/markdown.js"
import { ResultTable } from "../src/table.js"
import { result, summaryOf } from "./fixtures.js"

describe("formatMarkdown", () => {
  it("renders the summary and a capped results table as GitHub markdown", () => {
    const results = [
      result({ seed: 0, score: 1, latency_ms: 10 }),
      result({ seed: 1, status: "error", error_kind: "http_4xx", error: "HTTP 422 | <b>bad</b>", latency_ms: 30 }),
      result({ seed: 2, score: 0, latency_ms: 20 }),
    ]
    const table = new ResultTable({ rows: { first: 2, last: 0, failures: 0 } })
    for (const r of results) table.add(r)
    expect(formatMarkdown(summaryOf(results), table)).toBe(
      [
        "### proctor eval `run-7` — ⚠️ not valid",
        "",
        "| metric | value |",
        "| --- | --- |",
        "| score | 0.50 (95% CI 0.09 – 0.91; n=2; rollouts independent) |",
        "| pass rate | 0.5 (score ≥ 1) |",
        "| with errors as 0 | 0.33 (95% CI 0.06 – 0.79; n=3) · 0.3333 pass rate |",
        "| rollouts | 3 of 3 completed · 2 ok · 1 errored (http_4xx 1) · 0 missing |",
        "| valid | no — 33.3% of rollouts errored (more than 5%) |",
        "| latency ms | p50 20 · p90 28 · p99 29.8 · max 30 · mean 20 |",
        "| tokens | unreported |",
        "| cost | unpriced · prices: @pydantic/genai-prices 0.1.8 (bundled), 2026-09-23 |",
        "| retries | 0 |",
        "| duration | 2.5 s · 1.2 rollouts/s |",
        "",
        "#### Results",
        "",
        "| seed | score | reward_mean | outcome | events | latency_ms | verifier | tokens | cost_usd | error |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        "| 0 | 1 | - | - | - | 10 | - | - | - | - |",
        "| 1 | - | - | - | - | 30 | - | - | - | HTTP 422 \\| &lt;b>bad&lt;/b> |",
        "| **avg** | **0.5** | - | - | - | **20** | - | - | - | - |",
        "",
        "… 1 more row not shown; the avg row covers them all.",
        "",
      ].join("\n"),
    )
  })

  it("renders the summary alone when no table is given", () => {
    const text = formatMarkdown(summaryOf([result({ score: 1 })]))
    expect(text.startsWith("### proctor eval `run-7` — ✅ valid\n")).toBe(true)
    expect(text).not.toContain("#### Results")
  })
})
