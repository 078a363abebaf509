/**
 * The page's logic that needs no browser: the table's query, the event-stream parser, routes, the transcript, how
 * numbers are written.
 */
import { describe, expect, it } from "@effect/vitest"
import type { ModelCall, RolloutStep } from "@proctor/core"
import type { RolloutRow } from "../src/apiShapes.js"
import { estimatorName, grouped, outcomeOf, rolloutName, testName } from "../src/ui/format.js"
import { parseRoute } from "../src/ui/router.js"
import { EventParser, type ServerEvent } from "../src/ui/sse.js"
import { initialQuery, queryRows } from "../src/ui/tableQuery.js"
import { timelineOf } from "../src/ui/timeline.js"
import { transcriptOfCalls } from "../src/ui/transcript.js"

const row = (seed: number, over: Partial<RolloutRow> = {}): RolloutRow => ({
  seed,
  attempt: 0,
  task_id: null,
  status: "ok",
  score: 1,
  passed: true,
  error_kind: null,
  error: null,
  latency_ms: 100,
  tokens: 10,
  cost_usd: null,
  calls: 1,
  turns: 1,
  retries: 0,
  stop_reason: null,
  messages: null,
  ...over,
})

const rows = [
  row(0),
  row(1, { score: 0, passed: false, latency_ms: 50 }),
  row(2, {
    status: "error",
    score: null,
    passed: null,
    error_kind: "timeout",
    error: "deadline passed",
    latency_ms: null,
  }),
  row(3, { status: "error", score: null, passed: null, error_kind: "http_5xx", error: "502 from upstream" }),
  row(4, { score: 0.5, passed: false, latency_ms: 300 }),
]
const seeds = (order: ReadonlyArray<number>) => order.map((i) => rows[i]!.seed)

describe("the table's query", () => {
  it("keeps errors apart from wrong answers", () => {
    expect(seeds(queryRows(rows, { ...initialQuery, status: "error" }))).toEqual([2, 3])
    expect(seeds(queryRows(rows, { ...initialQuery, status: "wrong" }))).toEqual([1, 4])
    expect(seeds(queryRows(rows, { ...initialQuery, status: "passed" }))).toEqual([0])
    expect(seeds(queryRows(rows, { ...initialQuery, status: "ok" }))).toEqual([0, 1, 4])
  })

  it("filters by error kind, score range and search", () => {
    expect(seeds(queryRows(rows, { ...initialQuery, errorKind: "http_5xx" }))).toEqual([3])
    expect(seeds(queryRows(rows, { ...initialQuery, minScore: 0.5 }))).toEqual([0, 4])
    expect(seeds(queryRows(rows, { ...initialQuery, maxScore: 0.5 }))).toEqual([1, 4])
    expect(seeds(queryRows(rows, { ...initialQuery, search: "upstream" }))).toEqual([3])
    expect(seeds(queryRows(rows, { ...initialQuery, search: "4" }))).toEqual([4])
  })

  it("sorts either way with missing values last", () => {
    expect(seeds(queryRows(rows, { ...initialQuery, sort: "latency_ms" }))).toEqual([1, 0, 3, 4, 2])
    expect(seeds(queryRows(rows, { ...initialQuery, sort: "latency_ms", descending: true }))).toEqual([4, 0, 3, 1, 2])
  })
})

describe("the event-stream parser", () => {
  it("reads events split anywhere, with CRLF, comments and multi-line data", () => {
    const stream =
      ': keepalive\r\nevent: update\r\ndata: {"run":0}\r\n\r\ndata: a\ndata: b\n\nevent: update\ndata: {"run":1}\n\n'
    const events: Array<ServerEvent> = []
    const parser = new EventParser()
    for (let i = 0; i < stream.length; i += 3) parser.push(stream.slice(i, i + 3), (event) => events.push(event))
    expect(events).toEqual([
      { event: "update", data: '{"run":0}' },
      { event: "message", data: "a\nb" },
      { event: "update", data: '{"run":1}' },
    ])
  })
})

describe("routes", () => {
  it("reads views, a rollout's deep link and a job's views", () => {
    expect(parseRoute("").view).toBe("summary")
    expect(parseRoute("#/rollouts?status=error").params.get("status")).toBe("error")
    expect(parseRoute("#/rollouts/42/3?run=1")).toMatchObject({ view: "rollout", seed: 42, attempt: 3, job: null })
    expect(parseRoute("#/rollouts/42")).toMatchObject({ view: "rollout", seed: 42, attempt: 0 })
    expect(parseRoute("#/jobs")).toMatchObject({ view: "jobs", job: null })
    expect(parseRoute("#/jobs/job_1/rollouts/5/0")).toMatchObject({ view: "rollout", job: "job_1", seed: 5 })
    expect(parseRoute("#/jobs/job_1")).toMatchObject({ view: "summary", job: "job_1" })
  })
})

describe("the transcript", () => {
  const call = (messages: ReadonlyArray<unknown>, answer: unknown): ModelCall =>
    ({ api: "chat_completions", request: { messages }, response_message: answer }) as unknown as ModelCall
  it("shows each call's new messages once, and all of them when the conversation restarts", () => {
    const system = { role: "system", content: "be brief" }
    const user = { role: "user", content: "2+2?" }
    const toolCall = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "calc", arguments: '{"e":"2+2"}' } }],
    }
    const toolResult = { role: "tool", tool_call_id: "c1", content: "4" }
    const turns = transcriptOfCalls([
      call([system, user], toolCall),
      call([system, user, toolCall, toolResult], { role: "assistant", content: "4" }),
      call([{ role: "user", content: "again" }], { role: "assistant", content: "ok" }),
    ])
    expect(turns.map((t) => t.sent.map((m) => m.role))).toEqual([["system", "user"], ["tool"], ["user"]])
    expect(turns[0]!.toolCalls.map((c) => c.name)).toEqual(["calc"])
    expect(turns[1]!.answer[0]!.parts[0]!.text).toBe("4")
  })
})

describe("numbers", () => {
  it("groups thousands as en-US's Intl does, without Intl", () => {
    const values = [0, 7, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -1234, -999, 12.6, 2 ** 40]
    for (const value of values) expect(grouped(value), String(value)).toBe(Math.round(value).toLocaleString("en-US"))
  })
})

describe("words for what the data calls by codes", () => {
  it("names estimators and tests, and a rollout by its task id where it has one", () => {
    expect(estimatorName("clt")).toBe("standard error (CLT)")
    expect(estimatorName("clustered_by_seed")).toBe("standard error clustered by seed")
    expect(estimatorName("clustered_by:passage")).toBe("standard error clustered by passage")
    expect(testName("paired_t")).toBe("paired t-test")
    expect(testName("mcnemar_exact")).toBe("McNemar's exact test")
    expect(rolloutName({ seed: 3, task_id: "add-2" })).toBe("task add-2")
    expect(rolloutName({ seed: 3, task_id: null })).toBe("seed 3")
  })

  it("says how a rollout ended by the run's threshold: errors are neither right nor wrong", () => {
    expect(outcomeOf({ status: "ok", score: 0.25 }, 0.5)).toBe("wrong")
    expect(outcomeOf({ status: "ok", score: 0.5 }, 0.5)).toBe("passed")
    expect(outcomeOf({ status: "ok", score: 0.75 }, 1)).toBe("wrong")
    expect(outcomeOf({ status: "error", score: null }, 1)).toBe("error")
    expect(outcomeOf({ status: "ok", score: null }, 1)).toBe("ok")
  })
})

describe("the timeline", () => {
  const step = (retry: number, index: number, second: number): RolloutStep => ({
    rollout_id: "r",
    seed: 0,
    attempt: 0,
    retry,
    index,
    at: `2025-01-01T00:00:${String(second).padStart(2, "0")}.000Z`,
    elapsed_ms: (second - (retry === 0 ? 0 : 10)) * 1000,
    kind: "note",
    text: `${retry}/${index}`,
  })
  const call = (second: number): ModelCall =>
    ({ started_at: `2025-01-01T00:00:${String(second).padStart(2, "0")}.500Z` }) as unknown as ModelCall

  it("puts each try's steps in order and every model call where it was made, timed from its try's start", () => {
    const entries = timelineOf([step(1, 0, 10), step(0, 1, 2), step(0, 0, 0), step(1, 1, 12)], [call(11), call(1)])
    expect(entries.map((e) => (e.type === "step" ? e.step.text : `call ${e.number} +${e.elapsed_ms}`))).toEqual([
      "0/0",
      "call 2 +1500",
      "0/1",
      "1/0",
      "call 1 +1500",
      "1/1",
    ])
  })
})
