import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "@effect/vitest"
import { createTaskApp } from "@proctor/task-app"
import { waitFor } from "@proctor/test-kit"
import { Schema } from "effect"
import {
  createApiKey,
  createJobServer,
  JobEvent,
  type JobServer,
  type JobServerOptions,
  type StoredJobConfig,
} from "../src/index.js"

export const TASK_APP_KEY = "sk-task-app-secret-0123456789"

export const tempDir = (prefix = "proctor-jobs-"): { readonly path: string; readonly remove: () => void } => {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

/** A job's stored config for store-level tests: `seeds`, no policy, the defaults; `overrides` set the rest. */
export const storedJobConfig = (
  seeds: ReadonlyArray<number>,
  overrides: Partial<StoredJobConfig> = {},
): StoredJobConfig => ({
  app_id: "app",
  task_app_url: "http://127.0.0.1:1",
  env_name: null,
  seeds,
  attempts: 1,
  concurrency: 2,
  timeout: 30,
  max_retries: 0,
  return_trace: true,
  trace_format: "compact",
  model: null,
  provider: null,
  policy_name: null,
  policy_config: {},
  env_config: {},
  ops: null,
  pass_threshold: 1,
  max_response_bytes: 16 * 1024 * 1024,
  mode: "eval",
  ...overrides,
})

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export interface TaskAppCounters {
  /** Rollouts the task app started, per seed. */
  readonly started: Map<number, number>
  /** Rollouts the task app answered (not aborted by a caller that went away), per seed. */
  readonly completed: Map<number, number>
}

export interface TestTaskAppOptions {
  /** The key callers must send; default TASK_APP_KEY. */
  readonly apiKey?: string
  /** Default "counting". */
  readonly appId?: string
  /** Milliseconds each rollout takes (of its seed, when a function). */
  readonly delayMs?: number | ((seed: number) => number)
  /** Rollouts of seeds at or above this wait until `open()` (or until the caller goes away). */
  readonly gateFrom?: number
  /** Seeds whose rollouts fail with a 500 (system error, retried). */
  readonly failSeeds?: ReadonlySet<number>
  /** Default: 1 for even seeds, 0 for odd ones. */
  readonly score?: (seed: number) => number
}

/**
 * The one fake task app of the test suites (this package's and the CLI's): written with this package's SDK,
 * it does no real work (waits as told, scores by seed) and records what it is asked to do — per seed, and in
 * order with the phase a test labelled it with and the policy config each request carried.
 */
export const startTestTaskApp = async (options: TestTaskAppOptions = {}) => {
  const counters: TaskAppCounters = { started: new Map(), completed: new Map() }
  const started: Array<{ seed: number; phase: string; policyConfig: Readonly<Record<string, unknown>> }> = []
  const served: Array<{ seed: number; phase: string }> = []
  let phase = "first"
  let holdAt = Number.POSITIVE_INFINITY
  let openGate: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    openGate = resolve
  })
  const bump = (map: Map<number, number>, seed: number) => map.set(seed, (map.get(seed) ?? 0) + 1)
  const app = createTaskApp({
    appId: options.appId ?? "counting",
    name: "Counting",
    taskset: { size: 1_000_000 },
    apiKey: options.apiKey ?? TASK_APP_KEY,
    rollout: async (request, context) => {
      const seed = request.env.seed ?? 0
      const label = phase
      bump(counters.started, seed)
      started.push({ seed, phase: label, policyConfig: request.policy.config ?? {} })
      const aborted = new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()))
      if ((options.gateFrom !== undefined && seed >= options.gateFrom) || served.length >= holdAt) {
        await Promise.race([gate, aborted])
      }
      const delayMs = typeof options.delayMs === "function" ? options.delayMs(seed) : (options.delayMs ?? 0)
      if (delayMs > 0) await Promise.race([sleep(delayMs), aborted])
      if (context.signal.aborted) throw new Error("caller went away")
      if (options.failSeeds?.has(seed)) throw new Error(`seed ${seed} always fails`)
      bump(counters.completed, seed)
      served.push({ seed, phase: label })
      const score = options.score?.(seed) ?? (seed % 2 === 0 ? 1 : 0)
      return {
        score,
        steps: [{ obs: { seed }, reward: score, done: true, info: { usage: { total_tokens: 10 + seed } } }],
        details: { tokens: 10 + seed, cost_usd: 0.001 },
        final: { answer: seed },
        trace: { schema_version: "3.0", event_history: [], metadata: { seed, session: request.run_id } },
      }
    },
  })
  const running = await app.listen({ port: 0, host: "127.0.0.1" })
  return {
    ...running,
    counters,
    /** Rollouts started, in order, labelled with the phase they started in. */
    started,
    /** Rollouts answered, in order, labelled with the phase they started in. */
    served,
    setPhase: (next: string) => {
      phase = next
    },
    /** Rollouts that start once `count` have been answered wait until `open()`. */
    holdAfter: (count: number) => {
      holdAt = count
    },
    open: () => openGate(),
    close: async () => {
      openGate()
      await running.close()
    },
  }
}

export type TestTaskApp = Awaited<ReturnType<typeof startTestTaskApp>>

export interface TestServer {
  readonly server: JobServer
  readonly url: string
  readonly dataDir: string
  readonly userKey: string
  readonly close: () => Promise<void>
}

/** A job server on a fresh data directory with one ordinary key. */
export const startTestServer = async (options: Partial<JobServerOptions> = {}): Promise<TestServer> => {
  const dir = options.dataDir === undefined ? tempDir() : null
  const dataDir = options.dataDir ?? dir!.path
  // Tests poll fast; rate limiting is tested on its own.
  const server = await createJobServer({ dataDir, secretKey: "test-secret", rateLimit: false, ...options })
  const user = await createApiKey({ dataDir, databaseUrl: options.databaseUrl, name: "user" })
  return {
    server,
    url: server.url,
    dataDir,
    userKey: user.key,
    close: async () => {
      await server.close()
      dir?.remove()
    },
  }
}

export interface ApiResponse<A = Record<string, unknown>> {
  readonly status: number
  readonly headers: Headers
  readonly body: A
}

/** A client for the job API with one key. */
export const apiClient = (baseUrl: string, key: string | null) => {
  const headers = (extra: Record<string, string> = {}): Record<string, string> =>
    key === null ? extra : { authorization: `Bearer ${key}`, ...extra }
  const parse = async <A>(response: Response): Promise<ApiResponse<A>> => {
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, headers: response.headers, body: body as A }
  }
  return {
    get: async <A = Record<string, unknown>>(path: string, extra?: Record<string, string>) =>
      parse<A>(await fetch(`${baseUrl}${path}`, { headers: headers(extra) })),
    post: async <A = Record<string, unknown>>(path: string, body?: unknown, extra?: Record<string, string>) =>
      parse<A>(
        await fetch(`${baseUrl}${path}`, {
          method: "POST",
          headers: headers({ "content-type": "application/json", ...extra }),
          body: body === undefined ? "{}" : typeof body === "string" ? body : JSON.stringify(body),
        }),
      ),
    raw: (path: string, init: RequestInit = {}) =>
      fetch(`${baseUrl}${path}`, { ...init, headers: { ...headers(), ...(init.headers as Record<string, string>) } }),
  }
}

/** The body synth-ai's `EvalJob.submit` sends (DESIGN.md "Eval job API"). */
export const synthJobBody = (
  taskAppUrl: string,
  seeds: ReadonlyArray<number | string>,
  extra: Record<string, unknown> = {},
) => ({
  task_app_url: taskAppUrl,
  task_app_api_key: TASK_APP_KEY,
  app_id: "counting",
  env_name: "counting",
  seeds,
  policy: { model: "gpt-4o-mini", provider: "openai", temperature: 0, policy_name: "counting-policy" },
  env_config: { difficulty: "easy" },
  mode: "eval",
  max_concurrent: 4,
  timeout: 30,
  ...extra,
})

export const TERMINAL = new Set(["completed", "failed", "cancelled"])

/**
 * Polls at 10 requests/s, half the server's default per-key refill rate, so a long wait leaves the key's
 * bucket full for the requests the test makes next (a 20 ms poll drains it and they answer 429).
 */
const JOB_POLL_MS = 100

export const waitForJob = (client: ReturnType<typeof apiClient>, jobId: string, timeoutMs = 30_000) =>
  waitFor(
    `job ${jobId} to end`,
    async () => {
      const { body } = await client.get(`/api/eval/jobs/${jobId}`)
      return TERMINAL.has(body.status as string) ? body : undefined
    },
    { timeoutMs, everyMs: JOB_POLL_MS },
  )

/** Reads an SSE stream to its end (or until `stopAfter` says so), parsing each event's JSON data. */
export const readEvents = async (
  url: string,
  key: string,
  stopAfter: (event: JobEvent) => boolean = () => false,
): Promise<ReadonlyArray<JobEvent>> => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" } })
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
  const events: Array<JobEvent> = []
  const decoder = new TextDecoder()
  let buffer = ""
  const reader = response.body!.getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let end = buffer.indexOf("\n\n")
    while (end !== -1) {
      const frame = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const data = frame
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n")
      if (data !== "") {
        const event = Schema.decodeUnknownSync(JobEvent)(JSON.parse(data))
        events.push(event)
        if (stopAfter(event)) {
          await reader.cancel()
          return events
        }
      }
      end = buffer.indexOf("\n\n")
    }
  }
  return events
}
