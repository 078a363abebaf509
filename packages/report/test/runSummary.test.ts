import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { openRunReader } from "@proctor/core"
import { runSummaryOf } from "@proctor/report"
import { Effect } from "effect"
import { result, summaryOf } from "./fixtures.js"

const runDirectory = (results: ReadonlyArray<ReturnType<typeof result>>, summary?: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), "proctor-run-summary-"))
  const config = { app_id: "math", seeds: [0, 1, 2, 3, 4], attempts: 1, pass_threshold: 0.5 }
  writeFileSync(join(dir, "config.json"), JSON.stringify({ run_id: "run-9", created_at: "2026-01-01", config }))
  writeFileSync(join(dir, "results.jsonl"), results.map((r) => `${JSON.stringify(r)}\n`).join(""))
  if (summary !== undefined) writeFileSync(join(dir, "summary.json"), JSON.stringify(summary))
  return dir
}

describe("runSummaryOf", () => {
  const results = [
    result({ seed: 0, score: 1, started_at: "2026-01-01T00:00:00.000Z", finished_at: "2026-01-01T00:00:02.000Z" }),
    result({ seed: 1, score: 0.25, started_at: "2026-01-01T00:00:01.000Z", finished_at: "2026-01-01T00:00:03.000Z" }),
    result({
      seed: 3,
      status: "error",
      error_kind: "timeout",
      error: "timed out",
      started_at: "2026-01-01T00:00:00.500Z",
      finished_at: "2026-01-01T00:00:01.500Z",
    }),
  ]

  it.effect("computes the summary of a run that has not written one, with the manifest's plan", () =>
    Effect.gen(function* () {
      const summary = yield* runSummaryOf(yield* openRunReader(runDirectory(results)))
      expect(summary).toMatchObject({ run_id: "run-9", planned: 5, completed: 3, ok: 2, errored: 1, missing: 2 })
      expect(summary.missing_keys).toEqual([
        { seed: 2, attempt: 0 },
        { seed: 4, attempt: 0 },
      ])
      expect(summary.pass_threshold).toBe(0.5)
      expect(summary.metrics.mean_score).toBeCloseTo(0.625, 12)
      expect(summary.metrics.pass_rate).toBe(0.5)
      expect(summary.duration_s).toBe(3)
      expect(summary.is_valid).toBe(false)
    }),
  )

  it.effect("is summary.json when the run wrote one", () =>
    Effect.gen(function* () {
      const written = summaryOf(results, { attempts: 1, passThreshold: 1, planned: 3 })
      const summary = yield* runSummaryOf(yield* openRunReader(runDirectory(results, written)))
      expect(summary).toEqual(written)
    }),
  )
})
