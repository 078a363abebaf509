import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  defaults,
  type EvalResult,
  type EvalRunConfig,
  initRunDirectory,
  type ModelCall,
  makeRunDirectoryStore,
  SummaryAccumulator,
} from "@proctor/core"
import { Effect } from "effect"

/** Written last: a directory without it was cut short and is generated again. */
const MARKER = "bench-generated.json"

export interface GeneratedRun {
  readonly dir: string
  readonly rollouts: number
  readonly calls: number
  /** What model_calls.jsonl would weigh with every call's whole conversation in it (the form before deltas). */
  readonly fullFormCallBytes: number
}

const config = (rollouts: number): EvalRunConfig => ({
  ...defaults,
  app_id: "bench-viewer",
  task_app_url: "http://127.0.0.1:9",
  task_app_api_key: null,
  env_name: null,
  seeds: Array.from({ length: rollouts }, (_, seed) => seed),
  model: "gpt-4o-mini",
  provider: "openai",
  policy_name: null,
  policy_config: { model: "gpt-4o-mini" },
  env_config: {},
  ops: null,
  pass_threshold: 1,
})

const problem = (seed: number) =>
  `Seed ${seed}: a warehouse holds ${seed % 97} crates of ${seed % 13} boxes each; after shipping ${seed % 31} boxes, ` +
  "how many remain? Use the calculator tool for every arithmetic step and answer with the number only."

/** Turn `turn` of a seed's conversation: the request holds every earlier message, as agents send them. */
const call = (seed: number, turn: number, turns: number): ModelCall => {
  const messages: Array<unknown> = [
    { role: "system", content: "You are a careful assistant that solves arithmetic word problems with tools." },
    { role: "user", content: problem(seed) },
  ]
  for (let i = 0; i < turn; i++) {
    messages.push(
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: `t${i}`, type: "function", function: { name: "calc", arguments: `{"expr":"${seed}*${i}"}` } },
        ],
      },
      { role: "tool", tool_call_id: `t${i}`, content: String(seed * i) },
    )
  }
  const last = turn === turns - 1
  const t0 = Date.UTC(2026, 0, 1) + seed * 1_000 + turn * 150
  return {
    call_id: `call_${seed.toString(16).padStart(8, "0")}${turn}`,
    run_id: "bench-viewer",
    rollout_id: `bench-seed-${seed}`,
    seed,
    attempt: 0,
    api: "chat_completions",
    provider: "openai",
    model: "gpt-4o-mini",
    stream: false,
    request: { model: "gpt-4o-mini", temperature: 0, messages },
    response_message: last
      ? { role: "assistant", content: String((seed % 97) * (seed % 13) - (seed % 31)) }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: `t${turn}`, type: "function", function: { name: "calc", arguments: `{"expr":"${seed}*${turn}"}` } },
          ],
        },
    status: 200,
    outcome: "ok",
    error: null,
    started_at: new Date(t0).toISOString(),
    completed_at: new Date(t0 + 120).toISOString(),
    latency_ms: 120,
    ttft_ms: null,
    usage: {
      prompt_tokens: 80 + turn * 30,
      completion_tokens: 12,
      total_tokens: 92 + turn * 30,
      cached_tokens: null,
      reasoning_tokens: null,
    },
    finish_reason: last ? "stop" : "tool_calls",
    cost_usd: 0.0000192 + turn * 0.0000045,
  }
}

const resultOf = (seed: number, calls: ReadonlyArray<ModelCall>): EvalResult => {
  const errored = seed % 50 === 7
  const score = errored ? null : seed % 3 === 0 ? 0 : 1
  const started = calls[0]!.started_at
  return {
    seed,
    attempt: 0,
    score,
    reward_mean: score,
    outcome_score: score,
    events_score: null,
    latency_ms: 600 + (seed % 400),
    verifier_score: null,
    tokens: calls.reduce((sum, c) => sum + (c.usage?.total_tokens ?? 0), 0),
    cost_usd: calls.reduce((sum, c) => sum + (c.cost_usd ?? 0), 0),
    error: errored ? "HTTP 503 from the task app: upstream model overloaded" : null,
    status: errored ? "error" : "ok",
    error_kind: errored ? "http_5xx" : null,
    retries: errored ? 3 : 0,
    started_at: started,
    finished_at: calls.at(-1)!.completed_at,
    run_id: `bench-seed-${seed}`,
    details: { expected: (seed % 97) * (seed % 13) - (seed % 31), turns: calls.length },
  }
}

/**
 * A run directory of `rollouts` rollouts with `callsPerRollout` model calls each, written by core's own writer
 * (so whatever storage form it uses applies), with its summary. Kept between runs of the bench.
 */
export const generateRun = (dir: string, rollouts: number, callsPerRollout: number) =>
  Effect.gen(function* () {
    const marker = join(dir, MARKER)
    if (existsSync(marker)) {
      const previous = JSON.parse(readFileSync(marker, "utf8")) as GeneratedRun
      if (previous.rollouts === rollouts && previous.calls === rollouts * callsPerRollout) return previous
      return yield* Effect.dieMessage(`${dir} holds another generated run; remove it or give another --dir`)
    }
    const runConfig = config(rollouts)
    yield* initRunDirectory(dir, "bench-viewer", runConfig)
    const summary = new SummaryAccumulator({ attempts: 1, passThreshold: 1 })
    let fullFormCallBytes = 0
    yield* Effect.scoped(
      Effect.gen(function* () {
        const store = yield* makeRunDirectoryStore(dir, runConfig)
        for (let seed = 0; seed < rollouts; seed++) {
          const calls = Array.from({ length: callsPerRollout }, (_, turn) => call(seed, turn, callsPerRollout))
          for (const c of calls) fullFormCallBytes += Buffer.byteLength(JSON.stringify(c)) + 1
          yield* store.appendModelCalls(calls)
          const result = resultOf(seed, calls)
          yield* store.append(result)
          summary.add(result)
        }
        yield* store.saveSummary(
          summary.summarize({ runId: "bench-viewer", plannedKeys: rollouts, missingKeys: [], durationMs: 3_600_000 }),
        )
      }),
    )
    const generated: GeneratedRun = { dir, rollouts, calls: rollouts * callsPerRollout, fullFormCallBytes }
    writeFileSync(marker, JSON.stringify(generated))
    return generated
  })
