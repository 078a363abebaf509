import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Option, Redacted, Stream } from "effect"
import { strFromU8, unzipSync } from "fflate"
import { extractTraces } from "../src/backend/extractTraces.js"
import { JobsClient, type JobsClientOptions, normalizeBaseUrl } from "../src/backend/JobsClient.js"
import { type JobUpdate, updateFromSse } from "../src/backend/JobUpdate.js"
import { jobSubmission } from "../src/backend/jobSubmission.js"
import { decodeResultRow } from "../src/backend/resultRows.js"
import { feedSseLine, type SseMessage } from "../src/backend/sse.js"
import { buildZip, type ContractStub, type StubOptions, startContractStub } from "./fixtures/backendContractStub.js"

const KEY = "pk_test_key_for_the_contract_stub"

/** A contract stub for the test's scope. */
const stub = (options: Partial<StubOptions> = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => startContractStub({ keys: [KEY], ...options })),
    (server) => Effect.promise(server.close),
  )

const withClient = <A, E>(
  server: ContractStub,
  use: (client: JobsClient["Type"]) => Effect.Effect<A, E>,
  options: Partial<JobsClientOptions> = {},
) =>
  Effect.flatMap(JobsClient, use).pipe(
    Effect.provide(
      JobsClient.layer({ baseUrl: server.url, apiKey: Redacted.make(KEY), pollIntervalMs: 30, ...options }),
    ),
  )

const config = {
  app_id: "math",
  task_app_url: "http://127.0.0.1:9/",
  task_app_api_key: Redacted.make("task-app-secret"),
  env_name: "math",
  seeds: [0, 1, 2, 3],
  attempts: 1,
  concurrency: 2,
  timeout_s: 30,
  max_retries: 1,
  return_trace: true,
  trace_format: "compact" as const,
  model: "baseline",
  provider: null,
  policy_name: "math-policy",
  policy_config: { inference_url: "http://127.0.0.1:9/v1", temperature: 0 },
  env_config: { difficulty: "easy" },
  ops: null,
  pass_threshold: 1,
  max_response_bytes: 16 * 1024 * 1024,
}

const tags = (updates: Chunk.Chunk<JobUpdate>) => Chunk.toReadonlyArray(updates).map((u) => u._tag)

describe("JobsClient against the contract stub", () => {
  it.scopedLive("submits synth-ai's body with a Bearer key and follows the job over SSE to its end", () =>
    Effect.gen(function* () {
      const server = yield* stub()
      const updates = yield* withClient(server, (client) =>
        Effect.gen(function* () {
          const submitted = yield* client.submit(jobSubmission(config))
          expect(submitted.job_id).toBe("job_1")
          return yield* Stream.runCollect(client.follow(submitted.job_id))
        }),
      )
      const post = server.requests.find((r) => r.method === "POST")!
      expect(post.authorization).toBe(`Bearer ${KEY}`)
      expect(post.body).toMatchObject({
        task_app_url: "http://127.0.0.1:9/",
        task_app_api_key: "task-app-secret",
        app_id: "math",
        env_name: "math",
        seeds: [0, 1, 2, 3],
        policy: {
          policy_name: "math-policy",
          model: "baseline",
          inference_url: "http://127.0.0.1:9/v1",
          temperature: 0,
        },
        env_config: { difficulty: "easy" },
        mode: "eval",
        max_concurrent: 2,
        timeout: 30,
        attempts: 1,
        max_retries: 1,
        return_trace: true,
      })
      const all = Chunk.toReadonlyArray(updates)
      expect(all[0]!._tag).toBe("Snapshot")
      const last = all[all.length - 1]!
      expect(last._tag === "Snapshot" && last.job.status).toBe("completed")
      const progress = all.filter((u) => u._tag === "Progress")
      expect(progress.length).toBeGreaterThanOrEqual(4)
      expect(server.requests.some((r) => r.url.endsWith("/events"))).toBe(true)
      // Live updates came from the stream: one closing poll, not one every interval.
      expect(server.requests.filter((r) => r.method === "GET" && r.url === "/api/eval/jobs/job_1").length).toBe(2)
    }),
  )

  it.scopedLive("falls back to polling when the server has no event stream", () =>
    Effect.gen(function* () {
      const server = yield* stub({ events: "missing" })
      const updates = yield* withClient(server, (client) =>
        Effect.flatMap(client.submit(jobSubmission(config)), (s) => Stream.runCollect(client.follow(s.job_id))),
      )
      expect(new Set(tags(updates))).toEqual(new Set(["Snapshot"]))
      const last = Chunk.last(updates).pipe(Option.getOrThrow)
      expect(last._tag === "Snapshot" && last.job.status).toBe("completed")
      expect(server.requests.filter((r) => r.url === "/api/eval/jobs/job_1").length).toBeGreaterThan(2)
    }),
  )

  it.scopedLive("falls back to polling when the event stream drops mid-job", () =>
    Effect.gen(function* () {
      const server = yield* stub({ events: "drop", dropAfter: 3, tickMs: 25 })
      const updates = yield* withClient(server, (client) =>
        Effect.flatMap(client.submit(jobSubmission({ ...config, seeds: [0, 1, 2, 3, 4, 5, 6, 7] })), (s) =>
          Stream.runCollect(client.follow(s.job_id)),
        ),
      )
      expect(tags(updates)).toContain("Progress")
      const last = Chunk.last(updates).pipe(Option.getOrThrow)
      expect(last._tag === "Snapshot" && last.job.status).toBe("completed")
      expect(last._tag === "Snapshot" && last.job.results?.completed).toBe(8)
    }),
  )

  it.scopedLive("polls only when asked not to use the event stream", () =>
    Effect.gen(function* () {
      const server = yield* stub()
      yield* withClient(server, (client) =>
        Effect.flatMap(client.submit(jobSubmission(config)), (s) =>
          Stream.runDrain(client.follow(s.job_id, { events: false })),
        ),
      )
      expect(server.requests.some((r) => r.url.endsWith("/events"))).toBe(false)
    }),
  )

  it.scopedLive("decodes leniently: unknown keys are kept", () =>
    Effect.gen(function* () {
      const server = yield* stub()
      const job = yield* withClient(server, (client) =>
        Effect.flatMap(client.submit(jobSubmission(config)), (s) => client.get(s.job_id)),
      )
      expect((job as unknown as { stub_extra: string }).stub_extra).toBe("kept")
      expect(job.results?.total).toBe(4)
    }),
  )

  it.scopedLive("results, JSONL rows, the traces zip, list pages and cancel", () =>
    Effect.gen(function* () {
      const server = yield* stub({ tickMs: 5 })
      yield* withClient(server, (client) =>
        Effect.gen(function* () {
          const first = yield* client.submit(jobSubmission(config))
          yield* Stream.runDrain(client.follow(first.job_id))
          const results = yield* client.results(first.job_id)
          expect(results.results).toHaveLength(4)
          const lines = yield* Stream.runCollect(client.resultLines(first.job_id))
          expect(Chunk.toReadonlyArray(lines).map((line) => JSON.parse(line).seed)).toEqual([0, 1, 2, 3])
          const entries = unzipSync(yield* client.traces(first.job_id))
          expect(Object.keys(entries).sort()).toEqual([0, 1, 2, 3].map((s) => `seed_${s}_trace.json`).sort())
          expect(JSON.parse(strFromU8(entries["seed_1_trace.json"]!)).metadata.seed).toBeTypeOf("number")

          const second = yield* client.submit(
            jobSubmission({ ...config, seeds: Array.from({ length: 500 }, (_, i) => i) }),
          )
          const cancelled = yield* client.cancel(second.job_id)
          expect(cancelled.status).toBe("cancelled")
          const page = yield* client.list({ limit: 1 })
          expect(page.jobs.map((j) => j.job_id)).toEqual(["job_2"])
          expect(page.next_cursor).toBe("job_2")
          const next = yield* client.list({ limit: 1, cursor: "job_2" })
          expect(next.jobs.map((j) => j.job_id)).toEqual(["job_1"])
          const completed = yield* client.list({ status: "completed" })
          expect(completed.jobs.map((j) => j.job_id)).toEqual(["job_1"])
        }),
      )
    }),
  )

  it.scopedLive(
    "classifies failures: bad key, unknown job, a rejected field, a dead server, a 5xx, a non-JSON body",
    () =>
      Effect.gen(function* () {
        const server = yield* stub()
        const badKey = yield* Effect.flip(
          withClient(server, (client) => client.get("job_1"), { apiKey: Redacted.make("pk_wrong") }),
        )
        expect(badKey.reason).toBe("Unauthorized")
        expect(badKey.status).toBe(401)
        const unknown = yield* Effect.flip(withClient(server, (client) => client.get("job_404")))
        expect(unknown.reason).toBe("NotFound")
        const rejected = yield* Effect.flip(
          withClient(server, (client) => client.submit(jobSubmission({ ...config, seeds: [] }))),
        )
        expect(rejected).toMatchObject({ reason: "BadRequest", status: 400, field: "seeds", code: "invalid_field" })

        const closed = createServer()
        yield* Effect.promise(() => new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve)))
        const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
        yield* Effect.promise(() => new Promise<void>((resolve) => closed.close(() => resolve())))
        const dead = yield* Effect.flip(withClient({ ...server, url: deadUrl }, (client) => client.get("job_1")))
        expect(dead.reason).toBe("Unreachable")
        expect(dead.message).toContain(deadUrl)

        const broken = createServer((request, response) => {
          if (request.url?.endsWith("/job_5xx")) {
            response.writeHead(503, { "content-type": "application/json" })
            response.end(JSON.stringify({ error: { code: "overloaded", message: "try later" } }))
          } else {
            response.writeHead(200, { "content-type": "application/json" })
            response.end("<html>not json</html>")
          }
        })
        yield* Effect.acquireRelease(
          Effect.promise(() => new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve))),
          () => Effect.promise(() => new Promise<void>((resolve) => broken.close(() => resolve()))),
        )
        const brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`
        const fiveHundred = yield* Effect.flip(
          withClient({ ...server, url: brokenUrl }, (client) => client.get("job_5xx")),
        )
        expect(fiveHundred).toMatchObject({ reason: "Server", status: 503, message: "try later" })
        const notJson = yield* Effect.flip(withClient({ ...server, url: brokenUrl }, (client) => client.get("job_1")))
        expect(notJson.reason).toBe("Decode")
      }),
  )
})

describe("wire helpers", () => {
  it("normalizes base URLs: a trailing /api or slash is dropped", () => {
    expect(normalizeBaseUrl("http://127.0.0.1:8000/")).toBe("http://127.0.0.1:8000")
    expect(normalizeBaseUrl("https://host.example/api")).toBe("https://host.example")
    expect(normalizeBaseUrl("https://host.example/prefix/api/")).toBe("https://host.example/prefix")
  })

  it("parses SSE framing: multi-line data, comments, event names, a message without a blank line is not sent", () => {
    const lines = [": hello", "event: seed.completed", 'data: {"a":', "data: 1}", "id: 7", "", "data: x"]
    const messages: Array<SseMessage> = []
    let state: Parameters<typeof feedSseLine>[0] = { event: null, data: [], id: null }
    for (const line of lines) {
      const [next, out] = feedSseLine(state, line)
      state = next
      if (Option.isSome(out)) messages.push(out.value)
    }
    expect(messages).toEqual([{ event: "seed.completed", data: '{"a":\n1}', id: "7" }])
  })

  it("reads synth-ai's typed events, core run events and bare status payloads", () => {
    const read = (event: string, data: unknown) => updateFromSse({ event, data: JSON.stringify(data), id: null })
    expect(read("message", { type: "seed.completed", data: { completed: 2, total: 4, mean_score: 0.5 } })).toEqual(
      Option.some({
        _tag: "Progress",
        counters: { completed: 2, total: 4, ok: null, errored: null, inFlight: null, meanScore: 0.5, result: null },
      }),
    )
    expect(read("job.completed", { status: "completed" })).toEqual(
      Option.some({ _tag: "Status", status: "completed", endsStream: true }),
    )
    expect(read("message", { type: "job.interrupted", data: {} })).toEqual(
      Option.some({ _tag: "Status", status: "interrupted", endsStream: true }),
    )
    expect(read("message", { _tag: "StopRequested", inFlight: 2 })).toEqual(
      Option.some({ _tag: "Run", event: { _tag: "StopRequested", inFlight: 2 } }),
    )
    expect(read("ping", { hello: 1 })).toEqual(Option.none())
  })

  it.effect("extracts a trace zip's JSON files, stored or deflated, and nothing outside its directory", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "proctor-traces-"))
      const zip = buildZip([
        { name: "seed_0_trace.json", data: Buffer.from('{"a":1}'), deflate: false },
        { name: "seed_1_trace.json", data: Buffer.from(JSON.stringify({ b: "x".repeat(1000) })), deflate: true },
        { name: "../../escaped.json", data: Buffer.from("{}"), deflate: false },
        { name: "notes.txt", data: Buffer.from("not a trace"), deflate: false },
      ])
      const written = yield* extractTraces(zip, join(dir, "traces"))
      expect(written.map((path) => [basename(path), readFileSync(path, "utf8").length])).toEqual([
        ["seed_0_trace.json", 7],
        ["seed_1_trace.json", 1008],
        ["escaped.json", 2],
      ])
      expect(readdirSync(dir)).toEqual(["traces"])
      const bad = yield* Effect.flip(extractTraces(new Uint8Array(40), join(dir, "bad")))
      expect(bad.message).toMatch(/^the traces zip: /)
    }),
  )

  it("decodes synth-ai rows without proctor's fields, with neutral defaults", () => {
    const row = decodeResultRow({ seed: 3, score: 0.5, error: null, extra: true })
    expect(Either.getOrThrow(row)).toMatchObject({ seed: 3, score: 0.5, attempt: 0, status: "ok", retries: 0 })
    expect(Either.getOrThrow(decodeResultRow({ seed: 1, error: "boom", error_kind: "weird" }))).toMatchObject({
      status: "error",
      error_kind: null,
    })
    expect(Either.isLeft(decodeResultRow({ score: 1 }))).toBe(true)
  })

  it("keeps an agent rollout's stop reason, turns and messages and a graded one's verdicts; drops ones it cannot read", () => {
    const grades = { score: { score: 1, passed: true } }
    const agent = { seed: 2, score: 0, error: null, stop_reason: "max_turns", turns: 8, messages: 17, grades }
    expect(Either.getOrThrow(decodeResultRow(agent))).toMatchObject({
      stop_reason: "max_turns",
      turns: 8,
      messages: 17,
      grades,
    })
    const unknown = Either.getOrThrow(decodeResultRow({ seed: 2, error: null, stop_reason: "bored", grades: 3 }))
    expect(unknown).not.toHaveProperty("stop_reason")
    expect(unknown).not.toHaveProperty("grades")
  })
})
