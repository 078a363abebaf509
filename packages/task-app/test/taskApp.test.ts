import {
  checkTaskApp,
  outcomeOf,
  type RolloutRequest,
  type RolloutResponse,
  TaskAppClient,
  TaskAppError,
} from "@proctor/core"
import { waitFor } from "@proctor/test-kit"
import { Effect, Either, Redacted } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import {
  createTaskApp,
  type RolloutContext,
  type RunningTaskApp,
  type TaskAppDefinition,
  TaskAppHttpError,
  TaskAppSetupError,
} from "../src/index.js"

const KEY = "sk-env-test-key"

const rolloutRequest = (overrides: Partial<RolloutRequest> = {}): RolloutRequest => ({
  run_id: "math-seed-3-0badf00d",
  trace_correlation_id: "math-seed-3-0badf00d",
  env: { env_name: "math", config: {}, seed: 3 },
  policy: {
    policy_name: "math-react",
    config: { model: "m", inference_url: "http://127.0.0.1:9/v1?cid=math-seed-3-0badf00d" },
  },
  record: { trajectories: true, logprobs: false, value: false, return_trace: true, trace_format: "compact" },
  on_done: "reset",
  safety: { max_ops: 100, max_time_s: 60 },
  training_session_id: null,
  synth_base_url: null,
  mode: "eval",
  ...overrides,
})

const definition = (overrides: Partial<TaskAppDefinition> = {}): TaskAppDefinition => ({
  appId: "math",
  name: "Math",
  description: "arithmetic",
  version: "1.2.3",
  taskset: { splits: ["train"], size: 100 },
  taskInfo: (seed) => ({ task_metadata: { seed, question: `q${seed}` } }),
  apiKey: KEY,
  rollout: async (request) => {
    const seed = request.env.seed ?? 0
    if (seed === 13) throw new Error("boom")
    if (seed === 14) throw "not an error"
    if (seed === 15) {
      throw new TaskAppHttpError({
        status: 503,
        code: "upstream_rate_limited",
        message: "slow down",
        headers: { "retry-after": "2" },
      })
    }
    return {
      score: 1,
      steps: [
        { obs: { turn: 0 }, tool_calls: [{ name: "calculator" }], reward: 0.5, info: { usage: { total_tokens: 7 } } },
        { obs: { turn: 1 }, done: true },
      ],
      final: { answer: 42 },
      details: { tokens: 7, correct: true },
      eventsScore: 0.25,
      trace: { schema_version: "3.0", event_history: [], metadata: { seed } },
    }
  },
  ...overrides,
})

const auth = { "x-api-key": KEY }

const getJson = async (url: string, headers: Record<string, string> = auth) => {
  const response = await fetch(url, { headers })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const postRollout = async (url: string, body: unknown, headers: Record<string, string> = auth) => {
  const response = await fetch(`${url}/rollout`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }
}

describe("createTaskApp endpoints", () => {
  let server: RunningTaskApp
  beforeAll(async () => {
    server = await createTaskApp(definition()).listen()
  })
  afterAll(() => server.close())

  it("listens on a free 127.0.0.1 port", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it("GET / needs no key", async () => {
    expect(await getJson(`${server.url}/`, {})).toEqual({ status: 200, body: { status: "ok", service: "math" } })
  })

  it("HEAD / answers too, for synth-ai's preflight", async () => {
    expect((await fetch(`${server.url}/`, { method: "HEAD" })).status).toBe(200)
  })

  it("GET /health", async () => {
    const { status, body } = await getJson(`${server.url}/health`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ healthy: true, status: "healthy", auth: { required: true } })
  })

  it("GET /info describes the service and the taskset", async () => {
    const { status, body } = await getJson(`${server.url}/info`)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      service: { task: { id: "math", name: "Math", version: "1.2.3" }, version: "1.2.3" },
      taskset: { splits: ["train"], size: 100 },
    })
  })

  it("GET /task_info: none → taskset, one → object, several → list", async () => {
    expect((await getJson(`${server.url}/task_info`)).body).toEqual({ taskset: { splits: ["train"], size: 100 } })
    const one = await getJson(`${server.url}/task_info?seed=4`)
    expect(one.body).toMatchObject({
      task: { id: "math" },
      environment: "math",
      task_metadata: { seed: 4, question: "q4" },
    })
    const several = await getJson(`${server.url}/task_info?seed=1&seed=2&seeds=5`)
    expect(
      (several.body as unknown as Array<{ task_metadata: { seed: number } }>).map((i) => i.task_metadata.seed),
    ).toEqual([1, 2, 5])
  })

  it("GET /task_info with a non-integer seed is a 422 naming it", async () => {
    const { status, body } = await getJson(`${server.url}/task_info?seed=abc`)
    expect(status).toBe(422)
    expect(body.detail).toEqual([expect.objectContaining({ loc: ["query", "seed", 0] })])
  })

  it("an unknown path is FastAPI's 404", async () => {
    expect(await getJson(`${server.url}/nope`)).toEqual({ status: 404, body: { detail: "Not Found" } })
  })
})

describe("auth", () => {
  let server: RunningTaskApp
  beforeAll(async () => {
    vi.stubEnv("ENVIRONMENT_API_KEY", "primary-key")
    vi.stubEnv("ENVIRONMENT_API_KEY_ALIASES", "alias-one, alias-two")
    const { apiKey: _, ...keyFromEnvironment } = definition()
    server = await createTaskApp(keyFromEnvironment).listen()
    vi.unstubAllEnvs()
  })
  afterAll(() => server.close())

  it.each([
    ["X-API-Key", { "x-api-key": "primary-key" }],
    ["Authorization: Bearer", { authorization: "Bearer primary-key" }],
    ["X-API-Keys list", { "x-api-keys": "stale-key,alias-two" }],
    ["an alias in X-API-Key", { "x-api-key": "alias-one" }],
  ])("accepts %s", async (_name, headers) => {
    expect((await getJson(`${server.url}/health`, headers)).status).toBe(200)
  })

  it.each([
    ["no key", {}],
    ["a wrong key", { "x-api-key": "wrong" }],
    ["a non-bearer Authorization", { authorization: "primary-key" }],
  ])("answers %s with synth-ai's 400 unauthorised envelope", async (_name, headers) => {
    for (const path of ["/health", "/info", "/task_info"]) {
      const { status, body } = await getJson(`${server.url}${path}`, headers)
      expect(status).toBe(400)
      expect(body).toEqual({ detail: { error: { code: "unauthorised", message: "API key missing or invalid" } } })
    }
    expect((await postRollout(server.url, rolloutRequest(), headers)).status).toBe(400)
  })

  it("refuses to create an app with no key to check, saying how to fix it", () => {
    vi.stubEnv("ENVIRONMENT_API_KEY", "")
    vi.stubEnv("DEV_ENVIRONMENT_API_KEY", "")
    vi.stubEnv("ENVIRONMENT_API_KEY_ALIASES", "")
    try {
      const { apiKey: _, ...keyFromEnvironment } = definition()
      for (const candidate of [
        keyFromEnvironment,
        definition({ apiKey: [] }),
        definition({ apiKey: [], auth: "key" }),
      ]) {
        expect(() => createTaskApp(candidate)).toThrow(TaskAppSetupError)
        expect(() => createTaskApp(candidate)).toThrow(/ENVIRONMENT_API_KEY.*auth: "none"/)
      }
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('auth: "none" serves everyone, and warns that it does', async () => {
    const warnings: Array<Error> = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on("warning", onWarning)
    const open = await createTaskApp(definition({ apiKey: [], auth: "none" })).listen()
    try {
      const { status, body } = await getJson(`${open.url}/health`, {})
      expect(status).toBe(200)
      expect(body).toMatchObject({ auth: { required: false } })
      await vi.waitFor(() =>
        expect(warnings.map((w) => w.message)).toContain(
          'task app "math" serves every caller without a key (auth: "none")',
        ),
      )
    } finally {
      process.off("warning", onWarning)
      await open.close()
    }
  })
})

describe("POST /rollout", () => {
  let server: RunningTaskApp
  beforeAll(async () => {
    server = await createTaskApp(definition()).listen()
  })
  afterAll(() => server.close())

  it("answers with both metric vocabularies and echoes both ids", async () => {
    const { status, body } = await postRollout(server.url, rolloutRequest())
    expect(status).toBe(200)
    expect(body.run_id).toBe("math-seed-3-0badf00d")
    expect(body.trace_correlation_id).toBe("math-seed-3-0badf00d")
    expect(body.metrics).toEqual({
      episode_returns: [1],
      mean_return: 1,
      num_steps: 2,
      num_episodes: 1,
      outcome_score: 1,
      events_score: 0.25,
      outcome_reward: 1,
      outcome_objectives: { reward: 1 },
      event_rewards: [0.5],
      reward_mean: 1,
      details: { tokens: 7, correct: true },
    })
    expect(body.reward_info).toEqual(body.metrics)
    expect(body.aborted).toBe(false)
    expect(body.ops_executed).toBe(2)
    expect(body.pipeline_metadata).toEqual({ trace_correlation_id: "math-seed-3-0badf00d" })
    expect(body.trajectories).toEqual([
      {
        env_id: "math:3",
        policy_id: "math-react",
        steps: [
          {
            obs: { turn: 0 },
            tool_calls: [{ name: "calculator" }],
            reward: 0.5,
            done: false,
            truncated: null,
            info: { usage: { total_tokens: 7 } },
          },
          { obs: { turn: 1 }, tool_calls: [], reward: null, done: true, truncated: null, info: null },
        ],
        final: { answer: 42 },
        length: 2,
        inference_url: "http://127.0.0.1:9/v1?cid=math-seed-3-0badf00d",
        trace_correlation_id: "math-seed-3-0badf00d",
      },
    ])
    expect(body.trace).toEqual({
      schema_version: "3.0",
      event_history: [],
      metadata: {
        seed: 3,
        trace_correlation_id: "math-seed-3-0badf00d",
        correlation_ids: { trace_correlation_id: "math-seed-3-0badf00d" },
      },
    })
  })

  it("leaves the trace out unless return_trace asks for it", async () => {
    const request = rolloutRequest()
    const { body } = await postRollout(server.url, { ...request, record: { ...request.record, return_trace: false } })
    expect(body.trace).toBeNull()
  })

  it("falls back to the correlation id in the inference URL, then to run_id", async () => {
    const { trace_correlation_id: _, ...withoutId } = rolloutRequest()
    expect((await postRollout(server.url, withoutId)).body.trace_correlation_id).toBe("math-seed-3-0badf00d")
    const bare = { ...withoutId, run_id: "r-1", policy: { policy_name: "p", config: {} } }
    expect((await postRollout(server.url, bare)).body.trace_correlation_id).toBe("r-1")
  })

  it("a body missing a field is a 422 naming it", async () => {
    const { env: _, ...withoutEnv } = rolloutRequest()
    const { status, body } = await postRollout(server.url, withoutEnv)
    expect(status).toBe(422)
    expect(body.detail).toEqual([{ type: "missing", loc: ["body", "env"], msg: "Field required" }])
  })

  it("a field of the wrong type is a 422 naming its path", async () => {
    const request = rolloutRequest()
    const { status, body } = await postRollout(server.url, { ...request, env: { ...request.env, seed: "three" } })
    expect(status).toBe(422)
    expect(body.detail).toEqual([
      { type: "value_error", loc: ["body", "env", "seed"], msg: 'expected number, got "three"' },
    ])
  })

  it("a body that is not JSON is a 422, not a 500", async () => {
    const { status, body } = await postRollout(server.url, "{not json")
    expect(status).toBe(422)
    expect(body.detail).toEqual([expect.objectContaining({ type: "json_invalid", loc: ["body"] })])
  })

  it("a throwing handler is a JSON 500 naming the failure, its stack logged, and the server stays up", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true)
    try {
      const failed = await postRollout(server.url, rolloutRequest({ env: { env_name: "math", config: {}, seed: 13 } }))
      expect(failed.status).toBe(500)
      expect(failed.body).toEqual({
        detail: { error: { code: "rollout_failed", message: "the rollout handler threw Error: boom" } },
      })
      const logged = stderr.mock.calls.map((call) => String(call[0])).join("")
      expect(logged).toContain("POST /rollout: the rollout handler threw Error: boom")
      expect(logged).toMatch(/Error: boom\n\s+at /)
      const weird = await postRollout(server.url, rolloutRequest({ env: { env_name: "math", config: {}, seed: 14 } }))
      expect(weird.status).toBe(500)
      expect(weird.body).toEqual({
        detail: {
          error: { code: "rollout_failed", message: 'the rollout handler threw a non-Error value: "not an error"' },
        },
      })
    } finally {
      stderr.mockRestore()
    }
    expect((await postRollout(server.url, rolloutRequest())).status).toBe(200)
  })

  it("a handler's TypeError is a 500 naming it, and a failing task_info handler likewise", async () => {
    const sloppy = await createTaskApp(
      definition({
        rollout: async (request) => ({ score: (request.policy.config!.missing as string).length }),
        taskInfo: () => {
          throw new RangeError("no such seed")
        },
      }),
    ).listen()
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true)
    try {
      const rollout = await postRollout(sloppy.url, rolloutRequest())
      expect(rollout.status).toBe(500)
      expect(rollout.body).toMatchObject({
        detail: {
          error: { code: "rollout_failed", message: expect.stringMatching(/^the rollout handler threw TypeError: /) },
        },
      })
      const info = await getJson(`${sloppy.url}/task_info?seed=1`)
      expect(info.status).toBe(500)
      expect(info.body).toEqual({
        detail: {
          error: { code: "task_info_failed", message: "the task_info handler threw RangeError: no such seed" },
        },
      })
    } finally {
      stderr.mockRestore()
      await sloppy.close()
    }
  })

  it("a request missing a field the task requires is a 400 naming it; the handler never runs", async () => {
    const rollout = vi.fn(async () => ({ score: 1 }))
    const strict = await createTaskApp(
      definition({ requires: ["policy.config.inference_url", "policy.config.model", "env.seed"], rollout }),
    ).listen()
    try {
      const request = rolloutRequest()
      for (const inference_url of [undefined, null, "", "  "]) {
        const { status, body } = await postRollout(strict.url, {
          ...request,
          policy: { ...request.policy, config: { model: "m", inference_url } },
        })
        expect(status).toBe(400)
        expect(body).toEqual({
          detail: {
            error: {
              code: "missing_field",
              field: "policy.config.inference_url",
              message: "policy.config.inference_url is required by this task app",
            },
          },
        })
      }
      const noConfig = await postRollout(strict.url, { ...request, policy: { policy_name: "p", config: null } })
      expect(noConfig.body).toMatchObject({ detail: { error: { field: "policy.config.inference_url" } } })
      const noSeed = await postRollout(strict.url, { ...request, env: { env_name: "math", seed: null } })
      expect(noSeed.body).toMatchObject({ detail: { error: { field: "env.seed" } } })
      expect(rollout).not.toHaveBeenCalled()
      expect((await postRollout(strict.url, request)).status).toBe(200)
    } finally {
      await strict.close()
    }
  })

  it("a TaskAppHttpError chooses the status and headers", async () => {
    const { status, headers, body } = await postRollout(
      server.url,
      rolloutRequest({ env: { env_name: "math", config: {}, seed: 15 } }),
    )
    expect(status).toBe(503)
    expect(headers.get("retry-after")).toBe("2")
    expect(body).toEqual({ detail: { error: { code: "upstream_rate_limited", message: "slow down" } } })
  })

  it("a handler resolving without a finite score is a 500 saying so", async () => {
    const bad = await createTaskApp(definition({ rollout: async () => ({ score: Number.NaN }) })).listen()
    try {
      const { status, body } = await postRollout(bad.url, rolloutRequest())
      expect(status).toBe(500)
      expect(body).toMatchObject({ detail: { error: { code: "invalid_rollout_result" } } })
    } finally {
      await bad.close()
    }
  })
})

describe("the rollout context", () => {
  let seen: RolloutContext | undefined
  let release: () => void = () => {}
  let server: RunningTaskApp
  beforeAll(async () => {
    server = await createTaskApp(
      definition({
        rollout: (_request, context) =>
          new Promise((resolve) => {
            seen = context
            release = () => resolve({ score: 0 })
          }),
      }),
    ).listen()
  })
  afterEach(() => release())
  afterAll(() => server.close())

  it("aborts the signal when the caller hangs up", async () => {
    const caller = new AbortController()
    const pending = fetch(`${server.url}/rollout`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(rolloutRequest()),
      signal: caller.signal,
    }).catch(() => undefined)
    await vi.waitFor(() => expect(seen).toBeDefined())
    expect(seen!.traceCorrelationId).toBe("math-seed-3-0badf00d")
    expect(seen!.signal.aborted).toBe(false)
    caller.abort()
    await pending
    await vi.waitFor(() => expect(seen!.signal.aborted).toBe(true))
  })
})

describe("with proctor's TaskAppClient", () => {
  let server: RunningTaskApp
  beforeAll(async () => {
    server = await createTaskApp(definition()).listen()
  })
  afterAll(() => server.close())

  const withClient = <A>(apiKey: string, use: (client: TaskAppClient["Type"]) => Effect.Effect<A, TaskAppError>) =>
    Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(
          TaskAppClient.make({ baseUrl: server.url, apiKey: Redacted.make(apiKey), timeoutMs: 5_000 }),
          (c) => Effect.either(use(c)),
        ),
      ),
    )

  it("decodes the rollout response and reads the score and tokens", async () => {
    const result = await withClient(KEY, (client) => client.rollout(rolloutRequest()))
    const started = Either.getOrThrow(result)
    if (started._tag !== "Finished") throw new Error("a sync app answers with the result")
    const response = started.response
    expect(response.trace_correlation_id).toBe("math-seed-3-0badf00d")
    expect(outcomeOf(response)).toMatchObject({
      score: 1,
      reward_mean: 1,
      outcome_score: 1,
      events_score: 0.25,
      tokens: 7,
    })
  })

  it("reads health, info and task_info", async () => {
    const result = await withClient(KEY, (client) =>
      Effect.all([client.health(), client.info(), client.taskInfo([]), client.taskInfo([1, 2])]),
    )
    const [health, , taskset, list] = Either.getOrThrow(result)
    expect(health).toMatchObject({ healthy: true })
    expect(taskset).toEqual({ taskset: { splits: ["train"], size: 100 } })
    expect(list).toHaveLength(2)
  })

  it("classifies the 400 envelope as Unauthorized, not retryable", async () => {
    const result = await withClient("wrong-key", (client) => client.rollout(rolloutRequest()))
    const error = Either.getLeft(result).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    expect(error).toBeInstanceOf(TaskAppError)
    expect(error?.reason).toBe("Unauthorized")
    expect(error?.retryable).toBe(false)
  })

  it("classifies a handler's 500 as retryable", async () => {
    const result = await withClient(KEY, (client) =>
      client.rollout(rolloutRequest({ env: { env_name: "math", config: {}, seed: 13 } })),
    )
    const error = Either.getLeft(result).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    expect(error).toMatchObject({ reason: "HttpStatus", status: 500 })
    expect(error?.retryable).toBe(true)
  })
})

interface AsyncAnswer {
  readonly rollout_id: string
  readonly status: string
  readonly [key: string]: unknown
}

describe("the async form (rolloutMode: async)", () => {
  let server: RunningTaskApp
  /** Each seed's rollout waits here until the test settles it. */
  const gates = new Map<
    number,
    { promise: Promise<number>; resolve: (score: number) => void; reject: (e: Error) => void }
  >()
  const gateOf = (seed: number) => {
    let gate = gates.get(seed)
    if (gate === undefined) {
      let resolve!: (score: number) => void
      let reject!: (e: Error) => void
      const promise = new Promise<number>((res, rej) => {
        resolve = res
        reject = rej
      })
      gate = { promise, resolve, reject }
      gates.set(seed, gate)
    }
    return gate
  }
  const aborted: Array<number> = []
  beforeAll(async () => {
    server = await createTaskApp(
      definition({
        rolloutMode: "async",
        rollout: async (request, { signal }) => {
          const seed = request.env.seed ?? 0
          signal.addEventListener("abort", () => aborted.push(seed))
          const score = await gateOf(seed).promise
          return { score, details: { tokens: 3 } }
        },
      }),
    ).listen()
  })
  afterAll(() => server.close())

  const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return {
      status: response.status,
      location: response.headers.get("location"),
      body: (await response.json()) as AsyncAnswer,
    }
  }
  const start = (seed: number) =>
    call("POST", "/rollout", rolloutRequest({ env: { env_name: "math", config: {}, seed } }))

  it("answers 202 with a rollout id at once, says running, then completed with the rollout response", async () => {
    const started = await start(1)
    expect(started.status).toBe(202)
    const id = started.body.rollout_id
    expect(started.body).toMatchObject({ status: "running", status_url: `/rollouts/${id}` })
    expect(started.location).toBe(`/rollouts/${id}`)
    expect((await call("GET", `/rollouts/${id}`)).body).toEqual({
      rollout_id: id,
      status: "running",
      terminated: false,
    })
    gateOf(1).resolve(0.5)
    await waitFor(
      "the rollout to complete",
      async () => (await call("GET", `/rollouts/${id}`)).body.status === "completed",
    )
    const done = (await call("GET", `/rollouts/${id}`)).body
    expect(done).toMatchObject({ rollout_id: id, terminated: true, metrics: { outcome_score: 0.5 } })
    expect(outcomeOf(done as RolloutResponse)).toMatchObject({ score: 0.5, tokens: 3 })
  })

  it("terminate aborts the handler's signal and the rollout answers terminated; an unknown id is 404", async () => {
    const id = (await start(2)).body.rollout_id
    const terminated = await call("POST", `/rollouts/${id}/terminate`, { reason: "timeout" })
    expect(terminated.body).toMatchObject({ status: "terminated", aborted: true, reason: "timeout" })
    expect(aborted).toContain(2)
    // The handler's late result does not undo the terminate.
    gateOf(2).resolve(1)
    expect((await call("GET", `/rollouts/${id}`)).body.status).toBe("terminated")
    expect((await call("GET", "/rollouts/nope")).status).toBe(404)
    expect((await call("POST", "/rollouts/nope/terminate", {})).status).toBe(404)
  })

  it("a handler that throws leaves its rollout failed, with the error", async () => {
    const id = (await start(3)).body.rollout_id
    gateOf(3).reject(new Error("env crashed"))
    await waitFor("the rollout to fail", async () => (await call("GET", `/rollouts/${id}`)).body.status === "failed")
    expect((await call("GET", `/rollouts/${id}`)).body.error).toMatchObject({ code: "rollout_failed" })
  })

  it("proctor check follows the async form to the rollout's result", async () => {
    gateOf(5).resolve(1)
    const findings = await Effect.runPromise(
      checkTaskApp({
        url: server.url,
        apiKey: Redacted.make(KEY),
        seed: 5,
        inferenceUrl: "http://127.0.0.1:9/v1",
      }).pipe(
        Effect.provide(TaskAppClient.layer({ baseUrl: server.url, apiKey: Redacted.make(KEY), timeoutMs: 5_000 })),
      ),
    )
    const byCheck = new Map(findings.map((f) => [f.check, f]))
    expect(byCheck.get("POST /rollout")).toMatchObject({
      status: "pass",
      detail: expect.stringContaining("async form"),
    })
    expect(byCheck.get("rollout score")).toMatchObject({ status: "pass", detail: "score 1" })
    expect(byCheck.get("rollout run_id")?.status).toBe("pass")
  })

  it("proctor's client sees the async form and polls it to the result", async () => {
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(
          TaskAppClient.make({ baseUrl: server.url, apiKey: Redacted.make(KEY), timeoutMs: 5_000 }),
          (client) =>
            Effect.gen(function* () {
              const started = yield* client.rollout(rolloutRequest({ env: { env_name: "math", config: {}, seed: 4 } }))
              if (started._tag !== "Accepted") throw new Error("an async app answers 202")
              gateOf(4).resolve(0.25)
              for (;;) {
                const polled = yield* client.pollRollout(started.accepted.statusPath)
                if (polled.state._tag !== "Running") return polled.state
                yield* Effect.sleep("20 millis")
              }
            }),
        ),
      ),
    )
    expect(result._tag === "Done" && outcomeOf(result.result).score).toBe(0.25)
  })
})
