import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { defaults, type EvalRunConfig, initRunDirectory } from "@proctor/core"
import { Effect } from "effect"

/**
 * A finished dataset run of `rollouts` rows written straight to disk, as `proctor eval --dataset` leaves one: the
 * dataset file, `config.json` and a journal whose answers are right on nine rows in ten.
 */
export const writeStoredRun = (dir: string, rollouts: number): string => {
  mkdirSync(dir, { recursive: true })
  const dataset = join(dir, "rows.jsonl")
  const rows: Array<string> = []
  const results: Array<string> = []
  const now = new Date().toISOString()
  for (let seed = 0; seed < rollouts; seed++) {
    const answer = String(seed * 7)
    rows.push(JSON.stringify({ id: seed + 1, question: `What is ${seed} * 7?`, answer }))
    const given = seed % 10 === 0 ? String(seed * 7 + 1) : answer
    results.push(
      JSON.stringify({
        seed,
        attempt: 0,
        score: seed % 10 === 0 ? 0 : 1,
        reward_mean: null,
        outcome_score: null,
        events_score: null,
        latency_ms: 20,
        verifier_score: null,
        tokens: 12,
        cost_usd: null,
        error: null,
        status: "ok",
        error_kind: null,
        retries: 0,
        started_at: now,
        finished_at: now,
        run_id: `bench-seed-${seed}`,
        details: { answer: given },
        grades: { equals: { score: seed % 10 === 0 ? 0 : 1, passed: seed % 10 !== 0 } },
        task_id: seed + 1,
      }),
    )
  }
  writeFileSync(dataset, `${rows.join("\n")}\n`)
  const runDir = join(dir, "run")
  const config: EvalRunConfig = {
    ...defaults,
    app_id: "rows",
    task_app_url: `dataset:${dataset}`,
    task_app_api_key: null,
    env_name: null,
    seeds: Array.from({ length: rollouts }, (_, seed) => seed),
    model: "baseline",
    provider: null,
    policy_name: null,
    policy_config: {},
    env_config: {},
    ops: null,
    dataset,
    prompt: "{{ item.question }}",
    graders: [{ type: "equals" }],
  }
  Effect.runSync(initRunDirectory(runDir, "rows-bench", config))
  writeFileSync(join(runDir, "results.jsonl"), `${results.join("\n")}\n`)
  return runDir
}
