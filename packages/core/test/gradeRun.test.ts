import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaults, type EvalRunConfig } from "../src/config/EvalRunConfig.js"
import type { GraderSpec } from "../src/grader/GraderSpec.js"
import { gradeRun } from "../src/grader/gradeRun.js"
import type { EvalResult } from "../src/result/EvalResult.js"
import { initRunDirectory, openJournal, RESULTS_FILE } from "../src/store/RunDirectory.js"
import { type RunSummary, SummaryAccumulator } from "../src/summary/Summary.js"

/**
 * `proctor grade`'s fast path (one pass over the stored journal, verdicts appended in batches, the summary taken as
 * it goes) against the plain one: the same results, byte for byte, whether or not it was killed halfway, and the
 * summary a read-back of the set's journal makes.
 */

const at = "2026-11-27T12:00:00.000Z"
const result = (seed: number, attempt: number, padding = 0): EvalResult => ({
  seed,
  attempt,
  score: 1,
  reward_mean: null,
  outcome_score: null,
  events_score: null,
  latency_ms: 10 + ((seed * 7) % 13),
  verifier_score: null,
  tokens: 12,
  cost_usd: null,
  error: seed % 17 === 5 ? "boom" : null,
  status: seed % 17 === 5 ? "error" : "ok",
  error_kind: seed % 17 === 5 ? "http_5xx" : null,
  retries: 0,
  started_at: at,
  finished_at: at,
  run_id: `r-${seed}-${attempt}`,
  details: { answer: seed % 10 === 0 ? String(seed * 7 + 1) : String(seed * 7), padding: "x".repeat(padding) },
  task_id: seed + 1,
})

/** A finished dataset run of `seeds` × `attempts`, its journal written in the shuffled order concurrency leaves. */
const storedRun = (seeds: number, attempts: number, padding: (seed: number) => number) => {
  const dir = mkdtempSync(join(tmpdir(), "proctor-grade-run-"))
  const dataset = join(dir, "rows.jsonl")
  writeFileSync(
    dataset,
    Array.from({ length: seeds }, (_, seed) => JSON.stringify({ id: seed + 1, answer: String(seed * 7) })).join("\n"),
  )
  const runDir = join(dir, "run")
  const config: EvalRunConfig = {
    ...defaults,
    app_id: "rows",
    task_app_url: `dataset:${dataset}`,
    task_app_api_key: null,
    env_name: null,
    model: "baseline",
    provider: null,
    policy_name: null,
    policy_config: {},
    env_config: {},
    ops: null,
    seeds: Array.from({ length: seeds }, (_, seed) => seed),
    attempts,
    dataset,
    prompt: "{{ item.question }}",
  }
  Effect.runSync(initRunDirectory(runDir, "rows-test", config))
  const keys = Array.from({ length: seeds * attempts }, (_, i) => [Math.floor(i / attempts), i % attempts] as const)
  // A fixed shuffle: each key moves up to ~40 places, as 32 rollouts in flight leave them.
  const shuffled = keys
    .map(([seed, attempt], i) => ({ seed, attempt, at: i + ((i * 7919) % 41) }))
    .sort((a, b) => a.at - b.at)
  writeFileSync(
    join(runDir, RESULTS_FILE),
    shuffled.map(({ seed, attempt }) => `${JSON.stringify(result(seed, attempt, padding(seed)))}\n`).join(""),
  )
  return { runDir, config }
}

const specs: ReadonlyArray<GraderSpec> = [{ type: "equals" }, { type: "numeric", name: "close", tolerance: 1 }]
const untimed = ({ duration_s, throughput_per_s, run_duration_s, run_throughput_per_s, ...rest }: RunSummary) => rest

describe("proctor grade's one pass", () => {
  it.effect("reads back a journal larger than its read window, out of order, with a line longer than the window", () =>
    Effect.gen(function* () {
      // ~3 MiB of results, one of them 2 MiB on its own.
      const { runDir, config } = storedRun(1500, 2, (seed) => (seed === 700 ? 2 * 1024 * 1024 : 600))
      const lines = readFileSync(join(runDir, RESULTS_FILE), "utf8").split("\n").filter(Boolean)
      const expected = lines
        .map((line) => JSON.parse(line) as EvalResult)
        .sort((a, b) => a.seed - b.seed || a.attempt - b.attempt)
      const journal = yield* openJournal(runDir, config)
      expect(Array.from(journal.results())).toEqual(expected)
    }),
  )

  it.effect("grades as the plain path would: killed after any batch, it resumes to the same file and summary", () =>
    Effect.gen(function* () {
      const { runDir, config } = storedRun(3000, 2, () => 40)
      const fresh = yield* gradeRun({ runDir, specs, name: "fresh" })
      const freshText = readFileSync(join(fresh.dir, RESULTS_FILE), "utf8")
      expect(fresh.graded).toBe(6000)

      // The plain path: every result graded, and the summary of the set's journal read back.
      const plain = new SummaryAccumulator({ attempts: config.attempts, passThreshold: config.pass_threshold })
      const graded = Array.from((yield* openJournal(fresh.dir, config)).results())
      for (const stored of graded) plain.add(stored)
      expect(untimed(fresh.summary)).toEqual(
        untimed(plain.summarize({ runId: "rows-test", plannedKeys: 6000, missingKeys: [], durationMs: 1 })),
      )
      const row = (seed: number) => String(seed * 7)
      for (const one of graded) {
        if (one.status === "error") continue
        const answer = (one.details as { answer: string }).answer
        expect(one.grades?.equals?.passed).toBe(answer === row(one.seed))
        expect(one.score).toBe((Number(answer === row(one.seed)) + 1) / 2)
      }

      // As kill -9 leaves the set after its first batches: whole lines, then a torn one.
      const cut = freshText.indexOf("\n", Math.floor(freshText.length * 0.37)) + 1
      yield* gradeRun({ runDir, specs, name: "killed" })
      const killedFile = join(runDir, "grades", "killed", RESULTS_FILE)
      writeFileSync(killedFile, `${freshText.slice(0, cut)}${freshText.slice(cut, cut + 50)}`)
      const resumed = yield* gradeRun({ runDir, specs, name: "killed" })
      expect(resumed.resumed).toBe(freshText.slice(0, cut).split("\n").length - 1)
      expect(resumed.graded + resumed.resumed).toBe(6000)
      expect(readFileSync(killedFile, "utf8")).toBe(freshText)
      expect(untimed(resumed.summary)).toEqual(untimed(fresh.summary))
    }),
  )
})
