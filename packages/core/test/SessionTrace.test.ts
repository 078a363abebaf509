import { describe, expect, it } from "@effect/vitest"
import type { ModelCall } from "../src/result/ModelCall.js"
import {
  type LmCaisEvent,
  mergeSessionTraces,
  type SessionTrace,
  sessionTraceFromCalls,
} from "../src/traces/SessionTrace.js"

const base = {
  run_id: "run_20251121_ab12",
  rollout_id: "math-seed-3-1f2e3d4c",
  seed: 3,
  attempt: 0,
  stream: false,
  status: 200,
  outcome: "ok",
  error: null,
  ttft_ms: null,
} as const

const toolCallTurn: ModelCall = {
  ...base,
  call_id: "call_0a1b2c3d",
  api: "chat_completions",
  provider: "openai",
  model: "gpt-4o-mini-2024-07-18",
  request: {
    model: "gpt-4o-mini",
    temperature: 0,
    max_completion_tokens: 256,
    tools: [{ type: "function", function: { name: "calculator", parameters: { type: "object" } } }],
    tool_choice: "auto",
    messages: [
      { role: "system", content: "Solve the problem with the calculator." },
      { role: "user", content: "Tom has 3 apples and buys 4 more. How many?" },
    ],
  },
  response_message: {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "tc_1", type: "function", function: { name: "calculator", arguments: '{"expression":"3 + 4"}' } },
    ],
  },
  started_at: "2025-11-21T10:00:00.000Z",
  completed_at: "2025-11-21T10:00:00.420Z",
  latency_ms: 420.4,
  usage: { prompt_tokens: 120, completion_tokens: 18, total_tokens: 138, cached_tokens: 0, reasoning_tokens: null },
  finish_reason: "tool_calls",
  cost_usd: 0.0000288,
}

const answerTurn: ModelCall = {
  ...base,
  call_id: "call_4e5f6a7b",
  api: "chat_completions",
  provider: "openai",
  model: "gpt-4o-mini-2024-07-18",
  stream: true,
  ttft_ms: 95,
  request: {
    model: "gpt-4o-mini",
    stream: true,
    messages: [
      { role: "system", content: "Solve the problem with the calculator." },
      { role: "user", content: [{ type: "text", text: "Tom has 3 apples and buys 4 more. How many?" }] },
      toolCallTurn.response_message,
      { role: "tool", tool_call_id: "tc_1", content: "7" },
    ],
  },
  response_message: { role: "assistant", content: "Tom has 7 apples." },
  started_at: "2025-11-21T10:00:01.000Z",
  completed_at: "2025-11-21T10:00:01.300Z",
  latency_ms: 300,
  usage: { prompt_tokens: 160, completion_tokens: 6, total_tokens: null, cached_tokens: 128, reasoning_tokens: null },
  finish_reason: "stop",
  cost_usd: 0.0000192,
}

const failedTurn: ModelCall = {
  ...base,
  call_id: "call_8c9d0e1f",
  api: "chat_completions",
  provider: null,
  model: "baseline",
  request: { model: "baseline", messages: [{ role: "user", content: "again?" }] },
  response_message: null,
  status: 503,
  outcome: "error",
  error: "upstream answered 503",
  started_at: "2025-11-21T10:00:02.000Z",
  completed_at: "2025-11-21T10:00:02.010Z",
  latency_ms: 10,
  usage: null,
  finish_reason: null,
  cost_usd: null,
}

const meta = { sessionId: "math-seed-3-1f2e3d4c", runId: "run_20251121_ab12", seed: 3, attempt: 0 }
// Calls come back in completion order; the trace orders them by start.
const intercepted = sessionTraceFromCalls([answerTurn, failedTurn, toolCallTurn], meta)

describe("sessionTraceFromCalls", () => {
  it("builds a tracing-v3 session trace with one LMCAISEvent per call, in start order", () => {
    expect(Object.keys(intercepted)).toEqual([
      "session_id",
      "created_at",
      "session_time_steps",
      "event_history",
      "markov_blanket_message_history",
      "metadata",
      "usage",
    ])
    expect(intercepted.session_id).toBe(meta.sessionId)
    expect(intercepted.created_at).toBe(toolCallTurn.started_at)
    expect(intercepted.event_history.map((e) => e.call_records[0]?.call_id)).toEqual([
      "call_0a1b2c3d",
      "call_4e5f6a7b",
      "call_8c9d0e1f",
    ])
    const first = intercepted.event_history[0]!
    expect(first).toMatchObject({
      system_instance_id: "proctor.interceptor",
      time_record: { event_time: Date.parse(toolCallTurn.started_at) / 1000, message_time: 0 },
      metadata: { source: "interceptor", step_id: "call_0", call_id: "call_0a1b2c3d" },
      model_name: "gpt-4o-mini-2024-07-18",
      provider: "openai",
      input_tokens: 120,
      output_tokens: 18,
      total_tokens: 138,
      cost_usd: 0.0000288,
      latency_ms: 420,
    })
    expect(first).not.toHaveProperty("type")
    expect(intercepted.session_time_steps.map((s) => [s.step_id, s.step_index, s.step_metadata.call_id])).toEqual([
      ["call_0", 0, "call_0a1b2c3d"],
      ["call_1", 1, "call_4e5f6a7b"],
      ["call_2", 2, "call_8c9d0e1f"],
    ])
  })

  it("writes call records with synth-ai's LLMCallRecord fields", () => {
    const record = intercepted.event_history[0]!.call_records[0]!
    expect(record).toMatchObject({
      call_id: "call_0a1b2c3d",
      api_type: "chat_completions",
      model_name: "gpt-4o-mini-2024-07-18",
      started_at: toolCallTurn.started_at,
      completed_at: toolCallTurn.completed_at,
      latency_ms: 420,
      input_messages: [
        { role: "system", parts: [{ type: "text", text: "Solve the problem with the calculator." }] },
        { role: "user", parts: [{ type: "text", text: "Tom has 3 apples and buys 4 more. How many?" }] },
      ],
      output_messages: [{ role: "assistant", parts: [] }],
      output_text: null,
      output_tool_calls: [
        {
          name: "calculator",
          arguments_json: '{"expression":"3 + 4"}',
          arguments: { expression: "3 + 4" },
          call_id: "tc_1",
          index: 0,
        },
      ],
      usage: {
        input_tokens: 120,
        output_tokens: 18,
        total_tokens: 138,
        reasoning_tokens: null,
        cache_read_tokens: 0,
        cost_usd: 0.0000288,
      },
      finish_reason: "tool_calls",
      outcome: "success",
      tool_choice: "auto",
      request_params: { temperature: 0, max_tokens: 256 },
    })
    expect(record.request_params.raw_params).not.toHaveProperty("messages")

    const answer = intercepted.event_history[1]!.call_records[0]!
    expect(answer.input_messages[2]).toMatchObject({ role: "assistant", parts: [{ type: "tool_call" }] })
    expect(answer.input_messages[3]).toMatchObject({ role: "tool", tool_call_id: "tc_1", parts: [{ text: "7" }] })
    expect(answer.output_text).toBe("Tom has 7 apples.")
    expect(answer.usage).toMatchObject({ total_tokens: 166, cache_read_tokens: 128 })
    expect(answer.metadata).toMatchObject({ stream: true, ttft_ms: 95 })

    const failed = intercepted.event_history[2]!.call_records[0]!
    expect(failed).toMatchObject({ outcome: "error", error: { message: "upstream answered 503", code: 503 } })
    expect(failed.usage).toBeNull()
  })

  it("records totals in metadata and at the top level, and proctor's identity", () => {
    expect(intercepted.metadata).toEqual({
      session_id: meta.sessionId,
      trace_correlation_id: "math-seed-3-1f2e3d4c",
      proctor: { run_id: meta.runId, seed: 3, attempt: 0, source: "interceptor" },
      usage: {
        call_count: 3,
        input_tokens: 280,
        output_tokens: 24,
        total_tokens: 304,
        reasoning_tokens: 0,
        cache_read_tokens: 128,
        cost_usd: 0.000048,
        unpriced_calls: 1,
      },
    })
    expect(intercepted.usage).toEqual({ prompt_tokens: 280, completion_tokens: 24, total_tokens: 304 })
    expect(JSON.parse(JSON.stringify(intercepted))).toEqual(intercepted)
  })

  it("reads the Responses and Messages APIs", () => {
    const responses: ModelCall = {
      ...toolCallTurn,
      call_id: "call_resp",
      api: "responses",
      request: {
        model: "gpt-5-mini",
        instructions: "Be brief.",
        input: [
          { role: "user", content: [{ type: "input_text", text: "2+2?" }] },
          { type: "function_call_output", call_id: "fc_0", output: "4" },
        ],
      },
      response_message: [
        { type: "reasoning", id: "rs_1", summary: [] },
        { type: "function_call", call_id: "fc_1", name: "submit_answer", arguments: '{"answer":4}' },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "4" }] },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 70, total_tokens: 100, cached_tokens: 0, reasoning_tokens: 64 },
    }
    const messages: ModelCall = {
      ...toolCallTurn,
      call_id: "call_msg",
      api: "messages",
      provider: "anthropic",
      model: "claude-haiku-4-5-20251001",
      request: {
        model: "claude-haiku-4-5",
        system: [{ type: "text", text: "Use tools." }],
        messages: [{ role: "user", content: "2+2?" }],
      },
      response_message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "easy" },
          { type: "text", text: "Submitting." },
          { type: "tool_use", id: "toolu_1", name: "submit_answer", input: { answer: 4 } },
        ],
      },
    }
    const [r, m] = sessionTraceFromCalls([responses, messages], meta).event_history.map((e) => e.call_records[0]!)
    expect(r!.input_messages).toMatchObject([
      { role: "system", parts: [{ type: "text", text: "Be brief." }] },
      { role: "user", parts: [{ type: "text", text: "2+2?" }] },
      { role: "tool", tool_call_id: "fc_0", parts: [{ type: "text", text: "4" }] },
    ])
    expect(r!.output_tool_calls).toEqual([
      { name: "submit_answer", arguments_json: '{"answer":4}', arguments: { answer: 4 }, call_id: "fc_1", index: 0 },
    ])
    expect(r!.output_text).toBe("4")
    expect(r!.usage?.reasoning_tokens).toBe(64)
    expect(m!.input_messages[0]).toMatchObject({ role: "system", parts: [{ type: "text", text: "Use tools." }] })
    expect(m!.output_messages).toMatchObject([
      {
        role: "assistant",
        parts: [
          { type: "thinking", text: "easy" },
          { type: "text", text: "Submitting." },
        ],
      },
    ])
    expect(m!.output_tool_calls).toEqual([
      { name: "submit_answer", arguments_json: '{"answer":4}', arguments: { answer: 4 }, call_id: "toolu_1", index: 0 },
    ])
  })

  it("has no top-level usage when no call reported any, and no cost when none was priced", () => {
    const trace = sessionTraceFromCalls([failedTurn], { ...meta, createdAt: "2025-11-21T09:59:59.000Z" })
    expect(trace).not.toHaveProperty("usage")
    expect(trace.created_at).toBe("2025-11-21T09:59:59.000Z")
    expect(trace.metadata.usage).toMatchObject({ total_tokens: 0, cost_usd: null, unpriced_calls: 1 })
    expect(sessionTraceFromCalls([], meta).event_history).toEqual([])
  })
})

/** Oldest generation: `dataclasses.asdict(SessionTrace)`, events without a type field. */
const oldestTaskAppTrace = {
  session_id: "sess-crafter-3",
  created_at: "2025-11-21T09:59:59.500000+00:00",
  session_time_steps: [
    {
      step_id: "turn_0",
      step_index: 0,
      timestamp: "2025-11-21T09:59:59.600000+00:00",
      turn_number: 0,
      events: [],
      markov_blanket_messages: [],
      step_metadata: {},
      completed_at: null,
    },
  ],
  event_history: [
    {
      system_instance_id: "crafter-env",
      time_record: { event_time: Date.parse("2025-11-21T09:59:59.700Z") / 1000, message_time: 0 },
      metadata: { step_id: "turn_0" },
      event_metadata: null,
      reward: 0,
      terminated: false,
      truncated: false,
      system_state_before: null,
      system_state_after: { observation: "You see a tree." },
    },
    {
      system_instance_id: "policy",
      time_record: { event_time: Date.parse("2025-11-21T10:00:00.000Z") / 1000, message_time: 0 },
      metadata: { step_id: "turn_0" },
      event_metadata: null,
      model_name: "gpt-4o-mini",
      provider: "openai",
      input_tokens: 120,
      output_tokens: 18,
      total_tokens: 138,
      cost_usd: null,
      latency_ms: 430,
      span_id: null,
      trace_id: null,
      system_state_before: null,
      system_state_after: null,
      // The task app learned the interceptor's call id, so this is the same call as toolCallTurn.
      call_records: [{ call_id: "call_0a1b2c3d", api_type: "chat_completions", model_name: "gpt-4o-mini" }],
    },
    {
      system_instance_id: "policy",
      time_record: { event_time: Date.parse("2025-11-21T10:00:01.500Z") / 1000, message_time: 1 },
      metadata: { step_id: "turn_1" },
      event_metadata: null,
      actions: [3],
    },
    {
      system_instance_id: "crafter-env",
      time_record: { event_time: Date.parse("2025-11-21T10:00:03.000Z") / 1000, message_time: 1 },
      metadata: { step_id: "turn_1" },
      event_metadata: null,
      reward: 1,
      terminated: true,
      truncated: false,
      system_state_before: null,
      system_state_after: null,
    },
  ],
  markov_blanket_message_history: [
    {
      content: { text: "You see a tree.", json_payload: null },
      message_type: "observation",
      time_record: { event_time: 1763719199.7, message_time: 0 },
      metadata: {},
    },
  ],
  metadata: { env_name: "crafter", policy: "react", proctor: { sdk: "python" } },
}

/** Newer helpers: `{schema_version, event_history [{type: "lm_call", …}], metadata}` with top-level usage. */
const lmCallTaskAppTrace = {
  schema_version: "3.0",
  session_id: "math-seed-3-1f2e3d4c",
  created_at: "2025-11-21T10:00:00.000Z",
  event_history: [
    {
      type: "lm_call",
      timestamp: "2025-11-21T10:00:00.001Z",
      llm_request: { messages: toolCallTurn.request, model: "gpt-4o-mini" },
      llm_response: {
        id: "chatcmpl-AaBb",
        message: toolCallTurn.response_message,
        usage: { prompt_tokens: 120, completion_tokens: 18, total_tokens: 138 },
        finish_reason: "tool_calls",
      },
    },
    {
      type: "lm_call",
      timestamp: "2025-11-21T10:00:01.001Z",
      llm_request: { messages: [] },
      llm_response: { message: { role: "assistant", content: "Tom has 7 apples." }, usage: {}, finish_reason: "stop" },
    },
  ],
  markov_blanket_message_history: [],
  metadata: { session_id: "math-seed-3-1f2e3d4c", trace_correlation_id: "math-seed-3-1f2e3d4c", app: "math" },
  usage: { prompt_tokens: 280, completion_tokens: 24, total_tokens: 304 },
}

const events = (trace: SessionTrace) => trace.event_history as ReadonlyArray<Record<string, unknown>>
const sourceOf = (event: Record<string, unknown>) => (event.metadata as Record<string, unknown> | undefined)?.source

describe("mergeSessionTraces", () => {
  it("keeps an oldest-generation trace whole and adds only the calls it did not record", () => {
    const merged = mergeSessionTraces(oldestTaskAppTrace, intercepted)
    expect(merged.session_id).toBe("sess-crafter-3")
    expect(merged.created_at).toBe(oldestTaskAppTrace.created_at)
    expect(merged.session_time_steps).toBe(oldestTaskAppTrace.session_time_steps)
    expect(merged.markov_blanket_message_history).toBe(oldestTaskAppTrace.markov_blanket_message_history)
    const history = events(merged)
    expect(history).toHaveLength(4 + 2)
    for (const event of oldestTaskAppTrace.event_history) expect(history).toContainEqual(event)
    // call_0a1b2c3d was represented by the task app's own LMCAISEvent; the other two were added.
    const added = history.filter((e) => sourceOf(e) === "interceptor") as unknown as ReadonlyArray<LmCaisEvent>
    expect(added.map((e) => e.call_records[0]?.call_id)).toEqual(["call_4e5f6a7b", "call_8c9d0e1f"])
    // Ordered by time: env 09:59:59.7, policy 10:00:00, answer 10:00:01, runtime 10:00:01.5, error 10:00:02, env 10:00:03.
    expect(history.map((e) => e.system_instance_id)).toEqual([
      "crafter-env",
      "policy",
      "proctor.interceptor",
      "policy",
      "proctor.interceptor",
      "crafter-env",
    ])
    expect(merged.metadata).toMatchObject({
      env_name: "crafter",
      policy: "react",
      trace_correlation_id: "math-seed-3-1f2e3d4c",
      usage: intercepted.metadata.usage,
      proctor: {
        sdk: "python",
        run_id: meta.runId,
        seed: 3,
        attempt: 0,
        source: "interceptor",
        usage: intercepted.metadata.usage,
        merge: { task_app_events: 4, interceptor_events_added: 2, matched_call_ids: ["call_0a1b2c3d"] },
      },
    })
    // Without usage of its own, the trace takes the interceptor's totals.
    expect(merged.usage).toEqual(intercepted.usage)
  })

  it("keeps both copies of an lm_call trace's calls when ids do not match, marking each source", () => {
    const merged = mergeSessionTraces(lmCallTaskAppTrace, intercepted)
    expect(merged.schema_version).toBe("3.0")
    const history = events(merged)
    expect(history).toHaveLength(2 + 3)
    expect(history.map((e) => e.type ?? sourceOf(e))).toEqual([
      "interceptor",
      "lm_call",
      "interceptor",
      "lm_call",
      "interceptor",
    ])
    expect(history.filter((e) => e.type === "lm_call").map(sourceOf)).toEqual(["task_app", "task_app"])
    expect(history.filter((e) => e.type === "lm_call").map((e) => e.llm_response)).toEqual(
      lmCallTaskAppTrace.event_history.map((e) => e.llm_response),
    )
    // The task app's own totals and metadata win; proctor's sit beside them.
    expect(merged.usage).toEqual(lmCallTaskAppTrace.usage)
    expect(merged.metadata).toMatchObject({ app: "math", trace_correlation_id: "math-seed-3-1f2e3d4c" })
    expect((merged.metadata.proctor as Record<string, unknown>).usage).toEqual(intercepted.metadata.usage)
    expect(merged.session_time_steps).toEqual(intercepted.session_time_steps)
  })

  it("dedupes an lm_call event whose response id is the intercepted call id", () => {
    const withId = sessionTraceFromCalls([{ ...toolCallTurn, call_id: "chatcmpl-AaBb" }], meta)
    const merged = mergeSessionTraces(lmCallTaskAppTrace, withId)
    expect(events(merged)).toHaveLength(2)
    expect(sourceOf(events(merged)[0]!)).toBeUndefined()
    expect((merged.metadata.proctor as { merge: unknown }).merge).toMatchObject({ matched_call_ids: ["chatcmpl-AaBb"] })
  })

  it("does not touch the task app's input", () => {
    const before = JSON.stringify(lmCallTaskAppTrace)
    mergeSessionTraces(lmCallTaskAppTrace, intercepted)
    expect(JSON.stringify(lmCallTaskAppTrace)).toBe(before)
  })

  it("keeps a trace that is not an object under metadata.task_app_trace", () => {
    for (const garbage of [null, "trace unavailable", 42, [1, 2]]) {
      const merged = mergeSessionTraces(garbage, intercepted)
      expect(merged.event_history).toBe(intercepted.event_history)
      expect(merged.metadata).toEqual({ ...intercepted.metadata, task_app_trace: garbage })
    }
    expect(mergeSessionTraces(undefined, intercepted)).toBe(intercepted)
  })

  it("fills in what an object without events lacks, and keeps its keys", () => {
    const merged = mergeSessionTraces({ note: "tracing disabled", metadata: "n/a" }, intercepted)
    expect(merged).toMatchObject({
      note: "tracing disabled",
      session_id: intercepted.session_id,
      created_at: intercepted.created_at,
      event_history: intercepted.event_history,
      usage: intercepted.usage,
    })
    expect(merged.metadata).toMatchObject({ task_app_metadata: "n/a", trace_correlation_id: "math-seed-3-1f2e3d4c" })
  })

  it("opens a {session_trace: …} envelope", () => {
    const merged = mergeSessionTraces({ session_trace: oldestTaskAppTrace, format: "full" }, intercepted)
    expect(merged.format).toBe("full")
    expect(merged.session_id).toBe("sess-crafter-3")
    expect(events(merged)).toHaveLength(6)
  })

  it("keeps events without a time after their predecessor", () => {
    const untimed = {
      event_history: [
        { system_instance_id: "env", time_record: { event_time: "2025-11-21T10:00:01.500Z" } },
        { system_instance_id: "env", note: "no time" },
        { system_instance_id: "env", time_record: { event_time: 1763719203 } },
      ],
    }
    const order = events(mergeSessionTraces(untimed, intercepted)).map((e) => e.note ?? e.system_instance_id)
    expect(order).toEqual([
      "proctor.interceptor",
      "proctor.interceptor",
      "env",
      "no time",
      "proctor.interceptor",
      "env",
    ])
  })

  it("merges twice without adding anything the second time", () => {
    const once = mergeSessionTraces(oldestTaskAppTrace, intercepted)
    const twice = mergeSessionTraces(once, intercepted)
    expect(events(twice)).toEqual(events(once))
  })
})
