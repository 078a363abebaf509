import { type EvalResult, SummaryAccumulator } from "@proctor/core"
import { testResult as result } from "@proctor/test-kit"

export { result }

/** Rows whose synth-ai rendering was produced by synth-ai's own `format_eval_table` logic in Python. */
export const goldenResults: ReadonlyArray<EvalResult> = [
  result({ seed: 0, score: 1, reward_mean: 1, outcome_score: 1, latency_ms: 12.5, tokens: 120, cost_usd: 0.00012 }),
  result({
    seed: 1,
    score: 0.5,
    reward_mean: 1 / 3,
    outcome_score: 0.5,
    events_score: 0.25,
    latency_ms: 8.25,
    verifier_score: 0.9,
    tokens: 81,
  }),
  result({ seed: 12, status: "error", error_kind: "http_5xx", error: "HTTP 503 from task app", latency_ms: 30.123456 }),
  result({ seed: 3, score: 0.40625, latency_ms: 1000, cost_usd: 3e-5 }),
]

export const goldenTable = [
  "seed | score  | reward_mean | outcome | events | latency_ms | verifier | tokens | cost_usd | error                 ",
  "-----+--------+-------------+---------+--------+------------+----------+--------+----------+-----------------------",
  "0    | 1      | 1           | 1       | -      | 12.5       | -        | 120    | 0.0001   | -                     ",
  "1    | 0.5    | 0.3333      | 0.5     | 0.25   | 8.25       | 0.9      | 81     | -        | -                     ",
  "12   | -      | -           | -       | -      | 30.1235    | -        | -      | -        | HTTP 503 from task app",
  "3    | 0.4062 | -           | -       | -      | 1000       | -        | -      | 0        | -                     ",
  "avg  | 0.6354 | 0.6667      | 0.75    | 0.25   | 262.7184   | 0.9      | 100    | 0.0001   | -                     ",
].join("\n")

/** A summary as the runner would produce it, with the keys beyond `results` missing. */
export const summaryOf = (
  results: ReadonlyArray<EvalResult>,
  options: { attempts: number; passThreshold: number; planned?: number } = { attempts: 1, passThreshold: 1 },
) => {
  const acc = new SummaryAccumulator(options)
  for (const r of results) acc.add(r)
  const planned = options.planned ?? results.length
  const missingKeys = Array.from({ length: planned - results.length }, (_, i) => ({ seed: 1000 + i, attempt: 0 }))
  return acc.summarize({ runId: "run-7", plannedKeys: planned, missingKeys, durationMs: 2500 })
}
