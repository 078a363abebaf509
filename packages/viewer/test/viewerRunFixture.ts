import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  CONFIG_FILE,
  type EvalResult,
  type EvalRunConfig,
  initRunDirectory,
  type ModelCall,
  makeRunDirectoryStore,
  type ResultStoreService,
  type RolloutStep,
  type RunSummary,
  STEPS_FILE,
} from "@proctor/core"
import { Effect } from "effect"
import { testRunConfig } from "../../core/test/fixtures/runConfig.js"

export const freshDir = () => join(mkdtempSync(join(tmpdir(), "proctor-viewer-")), "run")

/** A model call of a conversation: turn `turn` of the rollout, its request holding every earlier message. */
export const conversationCall = (seed: number, attempt: number, turn: number): ModelCall => {
  const messages: Array<unknown> = [{ role: "user", content: `problem ${seed}` }]
  for (let i = 0; i < turn; i++) {
    messages.push({ role: "assistant", content: `step ${i} of seed ${seed}` }, { role: "tool", content: `ok ${i}` })
  }
  return {
    call_id: `call-${seed}-${attempt}-${turn}`,
    run_id: "run-view",
    rollout_id: `rollout-${seed}-${attempt}`,
    seed,
    attempt,
    api: "chat_completions",
    provider: "openai",
    model: "gpt-4o-mini",
    stream: false,
    request: { model: "gpt-4o-mini", messages },
    response_message: { role: "assistant", content: `step ${turn} of seed ${seed}` },
    status: 200,
    outcome: "ok",
    error: null,
    started_at: "2025-01-01T00:00:00.000Z",
    completed_at: "2025-01-01T00:00:00.100Z",
    latency_ms: 100,
    ttft_ms: null,
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cached_tokens: null, reasoning_tokens: null },
    finish_reason: "stop",
    cost_usd: 0.0001,
  }
}

export interface RunWriter {
  readonly dir: string
  /** Appends a rollout's calls, then its result, as the runner does. */
  readonly add: (result: EvalResult, calls?: number) => Effect.Effect<void>
  readonly finish: (summary: RunSummary) => Effect.Effect<void>
  /** Appends steps to the run's `steps.jsonl`, as an agent's rollouts write them. */
  readonly step: (...steps: ReadonlyArray<RolloutStep>) => void
}

export interface RunOptions {
  /** Over the fixture's config (seeds, attempts, pass threshold 0.5). */
  readonly config?: Partial<EvalRunConfig>
  /** The manifest's `created_at` (default: now, as `proctor eval` writes it). */
  readonly createdAt?: string
}

export { testStep } from "../../core/test/fixtures/rolloutStep.js"

/** A run directory written by core's own writer, as `proctor eval` writes one. */
export const writeRun = (dir: string, seeds: ReadonlyArray<number>, attempts = 1, options: RunOptions = {}) =>
  Effect.gen(function* () {
    const config = testRunConfig({ seeds: [...seeds], attempts, pass_threshold: 0.5, ...options.config })
    yield* initRunDirectory(dir, "run-view", config)
    if (options.createdAt !== undefined) {
      const manifest = JSON.parse(readFileSync(join(dir, CONFIG_FILE), "utf8")) as Record<string, unknown>
      writeFileSync(join(dir, CONFIG_FILE), JSON.stringify({ ...manifest, created_at: options.createdAt }))
    }
    const store: ResultStoreService = yield* makeRunDirectoryStore(dir, config)
    return {
      dir,
      add: (result, calls = 0) =>
        Effect.zipRight(
          store.appendModelCalls(
            Array.from({ length: calls }, (_, turn) => conversationCall(result.seed, result.attempt, turn)),
          ),
          store.append(result),
        ).pipe(Effect.orDie),
      finish: (summary) => Effect.orDie(store.saveSummary(summary)),
      step: (...steps) =>
        appendFileSync(join(dir, STEPS_FILE), steps.map((step) => `${JSON.stringify(step)}\n`).join("")),
    } satisfies RunWriter
  }).pipe(Effect.orDie)
