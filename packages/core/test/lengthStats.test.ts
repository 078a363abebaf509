import { describe, expect, it } from "@effect/vitest"
import { testResult } from "@proctor/test-kit"
import type { EvalResult } from "../src/result/EvalResult.js"
import { SummaryAccumulator } from "../src/summary/Summary.js"

const summarize = (results: ReadonlyArray<EvalResult>, passThreshold = 1) => {
  const accumulator = new SummaryAccumulator({ attempts: 1, passThreshold })
  for (const [seed, result] of results.entries()) accumulator.add({ ...result, seed })
  return accumulator.summarize({ runId: "r", plannedKeys: results.length, missingKeys: [], durationMs: 1000 })
}

const ok = (score: number, stop: EvalResult["stop_reason"], messages?: number): EvalResult =>
  testResult({ score, stop_reason: stop, ...(messages === undefined ? {} : { messages }) })

describe("nanoeval's length statistics (Summary.length_stats)", () => {
  it("fractions over completions: system errors left out, limits counted among incorrect results only", () => {
    const results = [
      ok(1, "model_ended", 4), // correct
      ok(1, "max_turns", 10), // correct although it hit a limit: counted as correct, not as max_turns
      ok(0, "max_turns", 12),
      ok(0, "max_time", 6),
      ok(0.5, "max_tokens", 8), // below the threshold of 1: incorrect
      ok(0, "max_cost", 2),
      ok(0, "model_ended", 5),
      // A task error (its verifier broke) is a completion, incorrect, with no limit: model ended.
      testResult({ status: "error", error_kind: "verifier", error: "no reward" }),
      // System errors are no completions.
      testResult({ status: "error", error_kind: "sandbox", error: "died" }),
      testResult({ status: "error", error_kind: "timeout", error: "slow" }),
    ]
    const stats = summarize(results).length_stats!
    // 8 completions: 2 correct; incorrect: max_turns 1, max_time 1, max_tokens 1, max_cost 1, model ended 2.
    expect(stats.completions).toBe(8)
    expect(stats.frac_correct).toBe(2 / 8)
    expect(stats.frac_max_turns).toBe(1 / 8)
    expect(stats.frac_max_time).toBe(1 / 8)
    expect(stats.frac_max_tokens).toBe(1 / 8)
    expect(stats.frac_max_cost).toBe(1 / 8)
    expect(stats.frac_model_ended).toBe(2 / 8)
    // Messages 2, 4, 5, 6, 8, 10, 12 (n = 7): numpy's linear percentiles at positions 1.5, 3 and 4.5.
    expect(stats.convo_len_percentiles).toEqual({ p25: 4.5, p50: 6, p75: 9 })
    expect(stats.stop_reasons).toEqual({ model_ended: 2, max_turns: 2, max_time: 1, max_tokens: 1, max_cost: 1 })
  })

  it("the pass threshold decides what is correct; percentiles of one value are that value", () => {
    const stats = summarize([ok(0.5, "max_time", 3), ok(0.2, "max_time")], 0.5).length_stats!
    expect(stats).toMatchObject({ completions: 2, frac_correct: 0.5, frac_max_time: 0.5, frac_model_ended: 0 })
    expect(stats.convo_len_percentiles).toEqual({ p25: 3, p50: 3, p75: 3 })
  })

  it("is absent when no result has a stop reason (task-app runs keep their summary as it was)", () => {
    expect(summarize([testResult({ score: 1 })]).length_stats).toBeUndefined()
  })
})
