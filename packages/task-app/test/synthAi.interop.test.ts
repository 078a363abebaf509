import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import {
  type EvalResult,
  type EvalRunConfig,
  HttpTaskAppSolverLayer,
  ResultStore,
  runRollouts,
  TaskAppClient,
} from "@proctor/core"
import { Effect, Layer, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTaskApp, type RolloutResult, type RunningTaskApp } from "../src/index.js"

const KEY = "sk-env-synth-interop"

/**
 * The body synth-ai's `run_eval_direct` posts, byte for byte: its pydantic `RolloutRequest` (env, policy,
 * record, safety, …) serialised with `model_dump(mode="json", by_alias=True)` and `json.dumps`, every optional
 * field included, nulls too. Generated with pydantic 2.13 from the model's fields.
 */
const SYNTH_AI_BODY =
  '{"run_id": null, "env": {"env_id": null, "env_name": null, "config": {}, "seed": 0}, "policy": {"policy_id": null, "policy_name": null, "config": {"model": "gpt-4o-mini", "inference_url": "http://127.0.0.1:9/v1"}, "output_mode": "tool_calls", "structured_config": null}, "record": {"logprobs": false, "value": false, "return_trace": true, "trace_format": "compact"}, "on_done": "reset", "safety": {"max_time_s": 3600.0}, "training_session_id": null, "synth_base_url": null, "mode": "eval"}'

const post = async (url: string, body: string) => {
  const response = await fetch(`${url}/rollout`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body,
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

type Json = Record<string, unknown>
const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)
const num = (u: unknown) => (typeof u === "number" ? u : 0)

/**
 * synth-ai's reading of one rollout response, transcribed from its `run_eval_direct` (`_eval_seed`) over its
 * pydantic `RolloutMetrics`: each column as the task app sent it (`reward_mean` defaults to 0.0 in the model),
 * score by precedence, `verifier_score`/`tokens`/`cost_usd` from `details`, tokens otherwise from the trace
 * (when asked for) or the trajectory steps, 0 tokens reported as none.
 */
const synthAiReading = (response: Json, returnTrace: boolean) => {
  const metrics = response.metrics as Json
  const rewardMean = (metrics.reward_mean as number | undefined) ?? 0
  const outcomeScore = (metrics.outcome_score as number | null | undefined) ?? null
  const eventsScore = (metrics.events_score as number | null | undefined) ?? null
  const objectives = metrics.outcome_objectives
  let reward: unknown = isRecord(objectives) ? (objectives.reward ?? null) : null
  if (reward === null && metrics.outcome_reward != null) reward = metrics.outcome_reward
  if (reward === null && outcomeScore !== null) reward = outcomeScore
  if (reward === null) reward = rewardMean
  const details = isRecord(metrics.details) ? metrics.details : {}
  let tokens = (details.tokens as number | undefined) ?? null
  const trace = returnTrace ? response.trace : null
  if (tokens === null) {
    if (isRecord(trace) && Object.keys(trace).length > 0) {
      const usage = isRecord(trace.usage) ? num(trace.usage.total_tokens) : 0
      tokens =
        usage > 0
          ? usage
          : ((trace.event_history as Array<Json> | undefined) ?? []).reduce(
              (sum, event) =>
                sum +
                (isRecord(event.usage) ? num(event.usage.total_tokens) : 0) +
                (isRecord(event.response) && isRecord(event.response.usage)
                  ? num(event.response.usage.total_tokens)
                  : 0),
              0,
            )
    } else {
      const steps = ((response.trajectories as Array<Json> | undefined) ?? []).flatMap(
        (t) => (t.steps as Array<Json>) ?? [],
      )
      tokens = steps.reduce((sum, step) => {
        const info = isRecord(step.info) ? step.info : {}
        return sum + num(info.tokens) + (isRecord(info.usage) ? num(info.usage.total_tokens) : 0)
      }, 0)
    }
    if (tokens === 0) tokens = null
  }
  return {
    score: reward === null ? null : Number(reward),
    reward_mean: rewardMean,
    outcome_score: outcomeScore,
    events_score: eventsScore,
    verifier_score: (details.verifier_score as number | undefined) ?? null,
    tokens,
    cost_usd: (details.cost_usd as number | undefined) ?? null,
  }
}

const columnsOf = (result: EvalResult) => ({
  score: result.score,
  reward_mean: result.reward_mean,
  outcome_score: result.outcome_score,
  events_score: result.events_score,
  verifier_score: result.verifier_score,
  tokens: result.tokens,
  cost_usd: result.cost_usd,
})

const runConfig = (url: string, seeds: ReadonlyArray<number>, returnTrace: boolean): EvalRunConfig => ({
  app_id: "interop",
  task_app_url: url,
  task_app_api_key: Redacted.make(KEY),
  env_name: "interop",
  seeds,
  attempts: 1,
  concurrency: 4,
  timeout_s: 10,
  max_retries: 0,
  return_trace: returnTrace,
  trace_format: "compact",
  model: "m",
  provider: null,
  policy_name: "p",
  policy_config: { model: "m", inference_url: "http://127.0.0.1:9/v1" },
  env_config: {},
  ops: null,
  pass_threshold: 1,
  max_response_bytes: 16 * 1024 * 1024,
})

/** Every seed through proctor's real path: request encoder, task-app client, HTTP solver, runner. */
const runThroughProctor = (config: EvalRunConfig) => {
  const rows: Array<EvalResult> = []
  const store = Layer.succeed(ResultStore, {
    location: null,
    completed: Effect.succeed([]),
    append: (result: EvalResult) => Effect.sync(() => void rows.push(result)),
    appendModelCalls: () => Effect.void,
    appendSteps: () => Effect.void,
    saveSummary: () => Effect.void,
  })
  const solver = HttpTaskAppSolverLayer.pipe(
    Layer.provide(
      TaskAppClient.layer({ baseUrl: config.task_app_url, apiKey: config.task_app_api_key, timeoutMs: 10_000 }),
    ),
  )
  return Effect.runPromise(
    runRollouts({ runId: "interop", config }).pipe(
      Effect.provide(Layer.merge(store, solver)),
      Effect.map(() => new Map(rows.map((row) => [row.seed, row]))),
    ),
  )
}

describe("synth-ai's run_eval_direct against a task app built with proctor's SDK", () => {
  let server: RunningTaskApp
  const seen: Array<unknown> = []
  beforeAll(async () => {
    server = await createTaskApp({
      appId: "interop",
      name: "Interop",
      taskset: {},
      apiKey: KEY,
      requires: ["policy.config.inference_url"],
      rollout: (request) => {
        seen.push(request)
        return { score: 1 }
      },
    }).listen()
  })
  afterAll(() => server.close())

  it("accepts synth-ai's exact request body, nulls and all", async () => {
    const { status, body } = await post(server.url, SYNTH_AI_BODY)
    expect(status).toBe(200)
    // No id was sent, so the app made one and echoes it in both places synth-ai reads.
    expect(body.trace_correlation_id).toMatch(/^rollout-[0-9a-f]{8}$/)
    expect(body.run_id).toBe(body.trace_correlation_id)
    expect(seen.at(-1)).toMatchObject({
      run_id: body.run_id,
      env: { config: {}, seed: 0 },
      policy: { config: { model: "gpt-4o-mini", inference_url: "http://127.0.0.1:9/v1" }, output_mode: "tool_calls" },
      record: { return_trace: true, trace_format: "compact" },
      safety: { max_time_s: 3600 },
      mode: "eval",
    })
    expect(seen.at(-1)).not.toHaveProperty("env.env_name")
  })

  it("accepts the body with the run id and names run_eval_direct fills in, and echoes the run id", async () => {
    const named = SYNTH_AI_BODY.replace('"run_id": null', '"run_id": "interop-seed-0-0badf00d"')
      .replace('"env_name": null', '"env_name": "interop"')
      .replace('"policy_name": null', '"policy_name": "react"')
    const { status, body } = await post(server.url, named)
    expect(status).toBe(200)
    expect(body.run_id).toBe("interop-seed-0-0badf00d")
    expect(body.trace_correlation_id).toBe("interop-seed-0-0badf00d")
  })

  it("accepts null for every optional field of the request", async () => {
    const allNull = {
      run_id: null,
      trace_correlation_id: null,
      env: { env_id: null, env_name: null, config: null, seed: null },
      policy: {
        policy_id: null,
        policy_name: null,
        config: { inference_url: "http://127.0.0.1:9/v1" },
        output_mode: null,
        structured_config: null,
      },
      record: { trajectories: null, logprobs: null, value: null, return_trace: null, trace_format: null },
      on_done: null,
      safety: { max_ops: null, max_time_s: null },
      training_session_id: null,
      synth_base_url: null,
      mode: null,
      ops: null,
    }
    expect((await post(server.url, JSON.stringify(allNull))).status).toBe(200)
    expect((await post(server.url, JSON.stringify({ ...allNull, record: null, safety: null }))).status).toBe(200)
  })
})

/** Rollout responses of several synth-ai generations, by seed, served as they are. */
const CANNED: ReadonlyArray<Json> = [
  // 0: outcome_score sent as null next to outcome_reward: reported null, not filled from outcome_reward.
  { metrics: { outcome_reward: 0.7, outcome_score: null, reward_mean: 0.7, events_score: null, details: {} } },
  // 1: outcome_objectives.reward wins the score; each column as sent.
  {
    metrics: {
      outcome_objectives: { reward: 0.9 },
      outcome_reward: 0.2,
      outcome_score: 0.3,
      reward_mean: 0.4,
      events_score: 0.5,
      details: { verifier_score: 0.8, tokens: 120, cost_usd: 0.002 },
    },
  },
  // 2: legacy vocabulary only (outcome_score, reward_mean).
  { metrics: { episode_returns: [1], mean_return: 1, num_steps: 1, outcome_score: 0.25, reward_mean: 0.6 } },
  // 3: tokens from the trace's usage.
  { metrics: { outcome_reward: 1, reward_mean: 1, details: {} }, trace: { usage: { total_tokens: 42 } } },
  // 4: tokens from the trace's event history.
  {
    metrics: { outcome_reward: 0, reward_mean: 0 },
    trace: { event_history: [{ usage: { total_tokens: 10 } }, { response: { usage: { total_tokens: 5 } } }] },
  },
  // 5: no trace: tokens from the trajectory steps.
  {
    metrics: { outcome_reward: 1, reward_mean: 1 },
    trajectories: [{ steps: [{ info: { tokens: 7 } }, { info: { usage: { total_tokens: 3 } } }] }],
  },
  // 6: the newer alias reward_info beside metrics; metrics is what synth-ai reads.
  { metrics: { outcome_reward: 0.5, reward_mean: 0.5, events_score: 0.1 }, reward_info: { outcome_reward: 0.5 } },
]

describe("a round trip of every synth-ai metric field: proctor reports what synth-ai reads", () => {
  let raw: { url: string; close: () => Promise<void> }
  beforeAll(async () => {
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const { run_id, env } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Json & { env: { seed: number } }
        const body = JSON.stringify({ run_id, trace_correlation_id: run_id, ...CANNED[env.seed] })
        response.writeHead(200, { "content-type": "application/json" }).end(body)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    raw = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    }
  })
  afterAll(() => raw.close())

  it("for responses of every generation", async () => {
    const seeds = CANNED.map((_, seed) => seed)
    const rows = await runThroughProctor(runConfig(raw.url, seeds, true))
    for (const seed of seeds) {
      expect({ seed, ...columnsOf(rows.get(seed)!) }).toEqual({ seed, ...synthAiReading(CANNED[seed]!, true) })
    }
    expect(rows.get(0)!.outcome_score).toBeNull()
  })

  it("for responses built by proctor's SDK from what a handler returns", async () => {
    const results: ReadonlyArray<RolloutResult> = [
      { score: 1 },
      { score: 0.5, outcomeScore: null, eventsScore: 0.25 },
      { score: 0, outcomeScore: 0.4, details: { verifier_score: 0.3, tokens: 11, cost_usd: 0.001 } },
      { score: 1, steps: [{ info: { usage: { total_tokens: 9 } } }] },
      { score: 1, trace: { usage: { total_tokens: 64 } } },
    ]
    const sdk = await createTaskApp({
      appId: "interop",
      name: "Interop",
      taskset: {},
      apiKey: KEY,
      rollout: (request) => results[request.env.seed ?? 0]!,
    }).listen()
    try {
      const seeds = results.map((_, seed) => seed)
      const config = runConfig(sdk.url, seeds, true)
      const rows = await runThroughProctor(config)
      for (const seed of seeds) {
        const body = SYNTH_AI_BODY.replace('"seed": 0', `"seed": ${seed}`)
        const { body: response } = await post(sdk.url, body)
        expect({ seed, ...columnsOf(rows.get(seed)!) }).toEqual({ seed, ...synthAiReading(response, true) })
      }
      expect(rows.get(1)!.outcome_score).toBeNull()
    } finally {
      await sdk.close()
    }
  })
})
