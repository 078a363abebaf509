import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { RunningTaskApp } from "@proctor/task-app"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import {
  CalculatorError,
  createMathApp,
  evaluateExpression,
  problemForSeed,
  runTool,
  SYSTEM_PROMPT,
  TEMPLATE_IDS,
} from "../src/index.js"

/** Recomputes each template's answer from the numbers in its question, independently of the generator. */
const RECOMPUTE: Record<string, (n: ReadonlyArray<number>) => number> = {
  add: ([a, b]) => a! + b!,
  subtract: ([a, b]) => a! - b!,
  multiply: ([a, b]) => a! * b!,
  divide: ([total, friends]) => total! / friends!,
  "packs-then-give": ([packs, perPack, given]) => packs! * perPack! - given!,
  "add-then-split": ([had, bought, bags]) => (had! + bought!) / bags!,
  change: ([count, price, bill]) => bill! - count! * price!,
  "daily-then-more": ([perDay, days, extra]) => perDay! * days! + extra!,
}

describe("problemForSeed", () => {
  const seeds = Array.from({ length: 300 }, (_, i) => i)

  it("is deterministic per seed", () => {
    for (const seed of seeds) expect(problemForSeed(seed)).toEqual(problemForSeed(seed))
    expect(problemForSeed(1).question).not.toBe(problemForSeed(2).question)
  })

  it("gives positive integer answers that match the question's numbers", () => {
    for (const seed of seeds) {
      const problem = problemForSeed(seed)
      const numbers = Array.from(problem.question.matchAll(/\d+/g), ([n]) => Number(n))
      expect(Number.isInteger(problem.answer) && problem.answer > 0, problem.question).toBe(true)
      expect(RECOMPUTE[problem.template]!(numbers), problem.question).toBe(problem.answer)
    }
  })

  it("uses every template, one-step and two-step", () => {
    const problems = seeds.map(problemForSeed)
    expect(new Set(problems.map((p) => p.template))).toEqual(new Set(TEMPLATE_IDS))
    expect(new Set(problems.map((p) => p.steps))).toEqual(new Set([1, 2]))
  })
})

describe("evaluateExpression", () => {
  it.each([
    ["2+3*4", 14],
    ["(2 + 3) * 4", 20],
    ["-3 + 5", 2],
    ["10 / 4", 2.5],
    ["2*(3+(4-1))", 12],
    ["  7 ", 7],
    ["1.5*2", 3],
    [".5 + .25", 0.75],
    ["12 × 3 ÷ 4", 9],
    ["--2", 2],
    ["8 - 3 - 2", 3],
    ["64 / 4 / 2", 8],
  ])("%s = %d", (expression, expected) => {
    expect(evaluateExpression(expression)).toBe(expected)
  })

  it.each([
    [""],
    ["2 +"],
    ["2 $ 3"],
    ["1 / 0"],
    ["process.exit()"],
    ["(1 + 2"],
    ["1 + 2)"],
    ["2 ** 3"],
    [`${"(".repeat(100)}1${")".repeat(100)}`],
  ])("rejects %j", (expression) => {
    expect(() => evaluateExpression(expression)).toThrow(CalculatorError)
  })
})

describe("runTool", () => {
  const call = (name: string, args: unknown) => ({
    id: "c",
    type: "function" as const,
    function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
  })

  it("runs the calculator and reports its errors to the model", () => {
    expect(runTool(call("calculator", { expression: "0.1 + 0.2" }))).toEqual({ content: "0.3" })
    expect(runTool(call("calculator", { expression: "1/0" }))).toEqual({ content: "error: division by zero" })
    expect(runTool(call("calculator", { expr: "1" })).content).toMatch(/^error:/)
  })

  it("accepts an answer as a number or a numeric string", () => {
    expect(runTool(call("submit_answer", { answer: 19 })).answer).toBe(19)
    expect(runTool(call("submit_answer", { answer: "1,024" })).answer).toBe(1024)
    expect(runTool(call("submit_answer", { answer: "nineteen" })).answer).toBeUndefined()
  })

  it("turns malformed calls into error messages", () => {
    expect(runTool(call("calculator", "{not json")).content).toMatch(/^error:/)
    expect(runTool(call("search", {})).content).toMatch(/unknown tool "search"/)
  })
})

interface ChatRequest {
  readonly model?: string
  readonly temperature?: number
  readonly max_completion_tokens?: number
  readonly tools: ReadonlyArray<{ readonly function: { readonly name: string } }>
  readonly messages: ReadonlyArray<{
    readonly role: string
    readonly content: string | null
    readonly tool_calls?: ReadonlyArray<{ readonly id: string; readonly function: { readonly name: string } }>
  }>
}

/** The parts of a rollout answer (or its error) these tests read. */
interface Answer {
  readonly metrics: {
    readonly outcome_reward: number
    readonly details: Readonly<Record<string, unknown>>
  }
  readonly trajectories: ReadonlyArray<{
    readonly steps: ReadonlyArray<{
      readonly done: boolean
      readonly truncated: boolean | null
      readonly info: { readonly usage: { readonly total_tokens: number } }
    }>
  }>
  readonly trace: {
    readonly event_history: ReadonlyArray<unknown>
    readonly metadata: Readonly<Record<string, unknown>>
    readonly usage: { readonly total_tokens: number }
  } | null
  readonly detail: { readonly error: { readonly code: string } }
}

type Reply = { readonly status: number; readonly headers?: Record<string, string>; readonly body: unknown }

const toolCall = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
})

const completion = (message: Record<string, unknown>, totalTokens: number): Reply => ({
  status: 200,
  body: {
    id: "chatcmpl-test",
    model: "fake-model",
    choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: "tool_calls" }],
    usage: { prompt_tokens: totalTokens - 5, completion_tokens: 5, total_tokens: totalTokens },
  },
})

/** A stand-in model that does the arithmetic right, then submits `answerOf(calculator result)`. */
const toolUser =
  (answerOf: (result: number) => number) =>
  (request: ChatRequest): Reply => {
    const last = request.messages.at(-1)!
    if (last.role === "tool") {
      return completion(
        { tool_calls: [toolCall("call_2", "submit_answer", { answer: answerOf(Number(last.content)) })] },
        30,
      )
    }
    const problem = [...Array(1000).keys()].map(problemForSeed).find((p) => p.question === last.content)!
    return completion(
      { tool_calls: [toolCall("call_1", "calculator", { expression: `${problem.answer} * 2 / 2` })] },
      20,
    )
  }

describe("the math rollout against a fake model", () => {
  const seen: Array<{ readonly authorization: string | undefined; readonly url: string; readonly body: ChatRequest }> =
    []
  let respond: (request: ChatRequest) => Reply = toolUser((r) => r)
  let model: Server
  let modelUrl: string
  let app: RunningTaskApp

  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest
  }

  beforeAll(async () => {
    model = createServer(async (request: IncomingMessage, response: ServerResponse) => {
      const body = await readBody(request)
      seen.push({ authorization: request.headers.authorization, url: request.url ?? "", body })
      const reply = respond(body)
      response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
      response.end(JSON.stringify(reply.body))
    })
    await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve))
    modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`
    app = await createMathApp({ apiKey: "env-key" }).listen()
  })
  afterAll(async () => {
    await app.close()
    await new Promise<void>((resolve) => model.close(() => resolve()))
  })
  beforeEach(() => {
    seen.length = 0
  })

  const rollout = async (seed: number, config: Record<string, unknown> = {}, returnTrace = true) => {
    const response = await fetch(`${app.url}/rollout`, {
      method: "POST",
      headers: { "x-api-key": "env-key", "content-type": "application/json" },
      body: JSON.stringify({
        run_id: `math-seed-${seed}-00000000`,
        trace_correlation_id: `math-seed-${seed}-00000000`,
        env: { env_name: "math", config: {}, seed },
        policy: {
          policy_name: "react",
          config: { model: "fake-model", inference_url: `${modelUrl}?cid=c1`, ...config },
        },
        record: { trajectories: true, logprobs: false, value: false, return_trace: returnTrace, trace_format: "full" },
        mode: "eval",
      }),
    })
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer }
  }

  it("scores 1 when the model calculates and submits the right answer", async () => {
    respond = toolUser((result) => result)
    const { status, body } = await rollout(7, { temperature: 0, max_completion_tokens: 64, api_key: "sk-model" })
    expect(status).toBe(200)
    expect(body.metrics).toMatchObject({ outcome_reward: 1, mean_return: 1, outcome_objectives: { reward: 1 } })
    expect(body.metrics.details).toMatchObject({ correct: true, expected_answer: problemForSeed(7).answer, tokens: 50 })
    const steps = body.trajectories[0]!.steps
    expect(steps.map((s) => s.info.usage.total_tokens)).toEqual([20, 30])
    expect(steps[1]!.done).toBe(true)

    const [first, second] = seen
    expect(first!.url).toBe("/v1/chat/completions?cid=c1")
    expect(first!.authorization).toBe("Bearer sk-model")
    expect(first!.body).toMatchObject({ model: "fake-model", temperature: 0, max_completion_tokens: 64 })
    expect(first!.body.tools.map((t) => t.function.name)).toEqual(["calculator", "submit_answer"])
    expect(first!.body.messages).toEqual([
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: problemForSeed(7).question },
    ])
    expect(second!.body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [toolCall("call_1", "calculator", { expression: `${problemForSeed(7).answer} * 2 / 2` })],
      },
      { role: "tool", tool_call_id: "call_1", content: String(problemForSeed(7).answer) },
    ])

    expect(body.trace?.event_history).toHaveLength(2)
    expect(body.trace?.event_history[0]).toMatchObject({
      type: "lm_call",
      llm_response: { usage: { total_tokens: 20 } },
    })
    expect(body.trace?.metadata).toMatchObject({ trace_correlation_id: "math-seed-7-00000000", seed: 7 })
    expect(body.trace?.usage.total_tokens).toBe(50)
  })

  it("scores 0 for a wrong answer", async () => {
    respond = toolUser((result) => result + 1)
    const { status, body } = await rollout(8)
    expect(status).toBe(200)
    expect(body.metrics.outcome_reward).toBe(0)
    expect(body.metrics.details).toMatchObject({ correct: false, submitted_answer: problemForSeed(8).answer + 1 })
  })

  it("scores 0 when the model never submits, after 6 turns", async () => {
    respond = () => completion({ content: "I think it is 12." }, 10)
    const { body } = await rollout(9, {}, false)
    expect(body.metrics.outcome_reward).toBe(0)
    expect(body.trajectories[0]!.steps).toHaveLength(6)
    expect(body.trajectories[0]!.steps[5]!.truncated).toBe(true)
    expect(body.trace).toBeNull()
    expect(seen[1]!.body.messages.at(-1)).toEqual({
      role: "user",
      content: `Call submit_answer with the final number. The problem again: ${problemForSeed(9).question}`,
    })
  })

  it("a model 5xx fails the rollout with a 502 so the runner retries", async () => {
    respond = () => ({ status: 500, body: { error: "down" } })
    const { status, body } = await rollout(10)
    expect(status).toBe(502)
    expect(body.detail.error.code).toBe("upstream_unavailable")
  })

  it("a model 429 fails the rollout with a 503 that passes Retry-After on", async () => {
    respond = () => ({ status: 429, headers: { "retry-after": "4" }, body: { error: "slow down" } })
    const { status, headers } = await rollout(11)
    expect(status).toBe(503)
    expect(headers.get("retry-after")).toBe("4")
  })

  it("a model 4xx scores 0 with the error in the details", async () => {
    respond = () => ({ status: 404, body: { error: { message: "model not found" } } })
    const { status, body } = await rollout(12, { api_key: "sk-hidden" })
    expect(status).toBe(200)
    expect(body.metrics.outcome_reward).toBe(0)
    expect(body.metrics.details.upstream_status).toBe(404)
    expect(body.metrics.details.error).toContain("model not found")
    expect(JSON.stringify(body)).not.toContain("sk-hidden")
  })

  it("a request without an inference URL is a 400 naming the field", async () => {
    for (const inference_url of [undefined, null, " "]) {
      const { status, body } = await rollout(13, { inference_url })
      expect(status).toBe(400)
      expect(body.detail.error).toEqual({
        code: "missing_field",
        field: "policy.config.inference_url",
        message: "policy.config.inference_url is required by this task app",
      })
    }
  })
})
