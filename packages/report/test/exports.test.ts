import { describe, expect, it } from "@effect/vitest"
import type { ModelCall } from "@proctor/core"
import {
  CSV_COLUMNS,
  csvHeader,
  csvRow,
  JunitCounts,
  junitClose,
  junitOpen,
  junitTestcase,
  SftExample,
  sftExampleOf,
  zipStream,
} from "@proctor/report"
import { testCall } from "@proctor/test-kit"
import { parse } from "csv-parse/sync"
import { Chunk, Effect, Schema, Stream } from "effect"
import { unzipSync } from "fflate"
import { result } from "./fixtures.js"
import { validateJunit } from "./junitSchema.js"

const NASTY = 'He said "no", then\r\nleft, 50% \u0000 off\u0007 — ünïcödé 🚀 <b>&amp;</b>'

describe("csv", () => {
  it("quotes as RFC 4180 says, so a CSV parser reads every field back as written", () => {
    const rows = [
      result({ seed: 1, score: 1, tokens: 12, latency_ms: 3.5 }),
      result({ seed: 2, attempt: 1, score: 0.25, task_id: "t,2", cluster: 'a"b' }),
      result({ seed: 3, status: "error", error_kind: "http_5xx", error: NASTY }),
    ]
    const text = csvHeader() + rows.map((r) => csvRow(r, 0.5)).join("")
    expect(text.endsWith("\r\n")).toBe(true)
    const parsed = parse(text, { columns: true }) as Array<Record<string, string>>
    expect(Object.keys(parsed[0]!)).toEqual([...CSV_COLUMNS])
    expect(parsed.map((r) => [r.seed, r.attempt, r.passed, r.score, r.status])).toEqual([
      ["1", "0", "true", "1", "ok"],
      ["2", "1", "false", "0.25", "ok"],
      ["3", "0", "", "", "error"],
    ])
    expect(parsed[1]!.task_id).toBe("t,2")
    expect(parsed[1]!.cluster).toBe('a"b')
    expect(parsed[2]!.error).toBe(NASTY)
    expect(parsed[2]!.error_kind).toBe("http_5xx")
  })

  it("keeps text a spreadsheet would run as a formula as text, and numbers as numbers", () => {
    const rows = [
      result({ seed: 1, status: "error", error_kind: "http_5xx", error: '=HYPERLINK("http://evil","x")' }),
      result({ seed: 2, score: -0.5, task_id: "@SUM(A1)", cluster: "+1" }),
      result({ seed: 3, status: "error", error_kind: "solver", error: "-2+3", task_id: -7 }),
    ]
    const parsed = parse(csvHeader() + rows.map((r) => csvRow(r, 0.5)).join(""), { columns: true }) as Array<
      Record<string, string>
    >
    expect(parsed.map((r) => [r.error, r.task_id, r.cluster, r.score])).toEqual([
      ['\'=HYPERLINK("http://evil","x")', "", "", ""],
      ["", "'@SUM(A1)", "'+1", "-0.5"],
      ["'-2+3", "-7", "", ""],
    ])
  })
})

describe("junit", () => {
  const rows = [
    result({ seed: 0, score: 1, latency_ms: 1500 }),
    result({ seed: 1, score: 0, details: { expected_answer: 12, submitted_answer: 13, note: NASTY } }),
    result({ seed: 2, status: "error", error_kind: "timeout", error: `timed out ${NASTY}`, latency_ms: 30_000 }),
    result({ seed: 2, attempt: 1, score: null }),
  ]
  const document = () => {
    const counts = new JunitCounts()
    for (const r of rows) counts.add(r, 1)
    const suite = { name: "math-run-1", classname: "proctor.math", timestamp: "2026-01-01T00:00:00.000Z", counts }
    return junitOpen(suite) + rows.map((r) => junitTestcase(r, suite, 1)).join("") + junitClose()
  }

  it("is valid against the JUnit schema Jenkins reads, control characters and all", () => {
    const check = validateJunit(document())
    expect(check.output).toContain("validates")
    expect(check.valid).toBe(true)
  })

  it("has one test case per rollout; wrong answers fail, errors are errors of their kind; the counts match", () => {
    const xml = document()
    expect(xml).toContain('<testsuite name="math-run-1" tests="4" failures="2" errors="1" skipped="0" time="31.5"')
    expect(xml.match(/<testcase /g)).toHaveLength(4)
    expect(xml).toContain('<testcase name="seed 0 attempt 0" classname="proctor.math" time="1.5"/>')
    expect(xml).toContain('<failure type="wrong_answer" message="score 0 is below the pass threshold 1">')
    expect(xml).toContain('<failure type="wrong_answer" message="the task app reported no score">')
    expect(xml).toMatch(/<error type="timeout" message="timed out He said &quot;no&quot;, then&#13;&#10;left/)
    expect(xml.includes("\u0000") || xml.includes("\u0007")).toBe(false)
  })

  it("is checked for real: the schema refuses a test case without a name", () => {
    expect(validateJunit(document().replace('name="seed 0 attempt 0" ', "")).valid).toBe(false)
  })
})

const call = (overrides: Partial<ModelCall>): ModelCall =>
  testCall({ call_id: "c1", rollout_id: "r1", request: {}, response_message: null, ...overrides })

const TOOLS = [
  {
    type: "function",
    function: { name: "calculator", description: "Evaluate", parameters: { type: "object", properties: {} } },
  },
]

describe("sft", () => {
  const rollout = result({ seed: 0, score: 1, run_id: "r1" })
  const decode = Schema.decodeUnknownEither(SftExample)
  const first = call({
    request: { messages: [{ role: "user", content: "2+2?" }], tools: TOOLS },
    response_message: {
      role: "assistant",
      content: null,
      refusal: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "calculator", arguments: '{"e":"2+2"}' } }],
    },
  })
  const last = call({
    call_id: "c2",
    request: {
      messages: [
        { role: "developer", content: [{ type: "text", text: "Be exact." }] },
        { role: "user", content: "2+2?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "calculator", arguments: '{"e":"2+2"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "4" },
      ],
      tools: TOOLS,
      parallel_tool_calls: false,
    },
    response_message: { role: "assistant", content: "4", refusal: null, annotations: [] },
  })

  it("takes the final call's messages and its answer, with the tools, in the chat fine-tuning format", () => {
    const earlierTry = call({
      call_id: "c0",
      rollout_id: "r0",
      request: { messages: [{ role: "user", content: "?" }] },
    })
    const failed = call({ call_id: "c3", outcome: "error", error: "HTTP 500" })
    const conversion = sftExampleOf({
      result: rollout,
      calls: [first, last, failed, { ...earlierTry, response_message: { role: "assistant", content: "5" } }],
    })
    expect(conversion._tag).toBe("Example")
    if (conversion._tag !== "Example") return
    expect(decode(JSON.parse(JSON.stringify(conversion.example)))._tag).toBe("Right")
    expect(conversion.example).toEqual({
      messages: [
        { role: "system", content: "Be exact." },
        { role: "user", content: "2+2?" },
        {
          role: "assistant",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "calculator", arguments: '{"e":"2+2"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "4" },
        { role: "assistant", content: "4" },
      ],
      tools: TOOLS,
      parallel_tool_calls: false,
    })
  })

  it("skips a rollout that cannot make a valid example, saying why", () => {
    expect(sftExampleOf({ result: rollout, calls: [] })).toEqual({
      _tag: "Skipped",
      reason: "no successful chat-completions call was recorded",
    })
    const responses = call({ api: "responses", request: { input: "x" }, response_message: {} })
    expect(sftExampleOf({ result: rollout, calls: [responses] })._tag).toBe("Skipped")
    const audio = call({
      request: { messages: [{ role: "user", content: [{ type: "input_audio", input_audio: {} }] }] },
      response_message: { role: "assistant", content: "ok" },
    })
    expect(sftExampleOf({ result: rollout, calls: [audio] })).toEqual({
      _tag: "Skipped",
      reason: "a user message holds a content part that is neither text nor an image",
    })
  })

  it("has a format schema that refuses what fine-tuning refuses", () => {
    const valid = {
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ],
    }
    expect(decode(valid)._tag).toBe("Right")
    expect(decode({ messages: [{ role: "user", content: "hi" }] })._tag).toBe("Left") // no answer to learn
    expect(
      decode({
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: null },
        ],
      })._tag,
    ).toBe("Left")
    const orphanTool = { messages: [{ role: "tool", tool_call_id: "x", content: "4" }, valid.messages[1]] }
    expect(decode(orphanTool)._tag).toBe("Left")
    expect(decode({ ...valid, tools: [{ type: "function", function: {} }] })._tag).toBe("Left")
  })
})

describe("zipStream", () => {
  it.effect("streams a zip that unzips to the files given", () =>
    Effect.gen(function* () {
      const files = Array.from({ length: 50 }, (_, i) => ({
        name: `seed_${i}_trace.json`,
        data: new TextEncoder().encode(JSON.stringify({ seed: i, text: NASTY.repeat(i) })),
      }))
      const chunks = yield* Stream.runCollect(zipStream(Stream.fromIterable(files)))
      const archive = Buffer.concat(Chunk.toReadonlyArray(chunks))
      const entries = unzipSync(archive)
      expect(Object.keys(entries)).toEqual(files.map((f) => f.name))
      for (const file of files) expect(Buffer.from(entries[file.name]!).equals(Buffer.from(file.data))).toBe(true)
    }),
  )
})
