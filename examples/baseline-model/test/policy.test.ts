import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { countTokens, createBaselineModel, guessExpression, type RunningBaselineModel } from "../src/index.js"

let model: RunningBaselineModel

beforeAll(async () => {
  model = await createBaselineModel().listen()
})
afterAll(() => model.close())

// biome-ignore lint/suspicious/noExplicitAny: tests read the OpenAI JSON shape loosely
type Json = any

const chat = async (body: Record<string, unknown>): Promise<Json> => {
  const response = await fetch(`${model.url}/chat/completions`, { method: "POST", body: JSON.stringify(body) })
  expect(response.status).toBe(200)
  return response.json()
}

const tool = (name: string, parameters: unknown = { type: "object" }) => ({
  type: "function",
  function: { name, parameters },
})

describe("tokenizer", () => {
  it("counts word runs and single punctuation marks, ignoring whitespace", () => {
    expect(countTokens("Hello, world!")).toBe(4)
    expect(countTokens("  ")).toBe(0)
    expect(countTokens('{"a":12.5}')).toBe(9)
    expect(countTokens("same text")).toBe(countTokens("same text"))
  })
})

describe("math heuristic", () => {
  it.each([
    ["Tom has 5 apples. He buys 3 more. Then he gives away 2. How many apples are left?", "5 + 3 - 2"],
    ["There are 4 boxes. Each box holds 6 eggs. How many eggs are there?", "4 * 6"],
    ["A baker shared 24 cookies equally among 6 friends. How many did each friend get?", "24 / 6"],
    ["Sam has 3 bags with 8 marbles in each bag. He loses 5 marbles. How many marbles now?", "3 * 8 - 5"],
    ["Ana had 1,200 points. She earned 35 more, then spent 100. How many now?", "1200 + 35 - 100"],
    // A known miss: the comparison is read as the answer's last step, so it says 7 instead of 19.
    ["Jo has 12 cards. Kim has 5 fewer cards than Jo. How many cards do they have altogether?", "12 - 5"],
    ["Mia picks 7 flowers. How many flowers do three girls pick altogether?", "7 + 3"],
  ])("reads %j as %s", (problem, expression) => {
    expect(guessExpression(problem)).toBe(expression)
  })

  it("calls the calculator, then submits what it returned", async () => {
    const tools = [tool("calculator"), tool("submit_answer")]
    const messages: Json[] = [
      { role: "system", content: "Solve the arithmetic word problem." },
      { role: "user", content: "Lea has 9 pens and gives away 4. How many pens are left?" },
    ]
    const first = await chat({ messages, tools })
    const call = first.choices[0].message.tool_calls[0]
    expect(first.choices[0].message.content).toBeNull()
    expect(call.function.name).toBe("calculator")
    expect(JSON.parse(call.function.arguments)).toEqual({ expression: "9 - 4" })
    messages.push(first.choices[0].message, { role: "tool", tool_call_id: call.id, content: '{"result": 5}' })
    const second = await chat({ messages, tools })
    const submit = second.choices[0].message.tool_calls[0]
    expect(submit.function.name).toBe("submit_answer")
    expect(JSON.parse(submit.function.arguments)).toEqual({ answer: 5 })
  })

  it("answers in text when tool_choice is none", async () => {
    const body = await chat({
      messages: [{ role: "user", content: "Lea has 9 pens." }],
      tools: [tool("calculator"), tool("submit_answer")],
      tool_choice: "none",
    })
    expect(body.choices[0].message.tool_calls).toBeUndefined()
    expect(body.choices[0].message.content).toEqual(expect.any(String))
  })
})

describe("sum heuristic", () => {
  const ask = async (a: number, b: number): Promise<string> => {
    const body = await chat({
      messages: [{ role: "user", content: `What is ${a} + ${b}? Answer with the number only.` }],
    })
    return body.choices[0].message.content
  }

  it("answers the sum, the number only, and slips by one on about a tenth of the questions", async () => {
    const pairs = Array.from({ length: 200 }, (_, i) => [i * 37, 1000 - i * 3] as const)
    const answers = await Promise.all(pairs.map(([a, b]) => ask(a, b)))
    const offBy = answers.map((answer, i) => Number(answer) - pairs[i]![0] - pairs[i]![1])
    for (const answer of answers) expect(answer).toMatch(/^\d+$/)
    expect(new Set(offBy)).toEqual(new Set([0, 1]))
    const slips = offBy.filter((d) => d === 1).length
    expect(slips).toBeGreaterThan(5)
    expect(slips).toBeLessThan(40)
    expect(await ask(pairs[7]![0], pairs[7]![1])).toBe(answers[7])
  })

  it("slips one question in N as a model named NAME@N, each model on questions of its own", async () => {
    const pairs = Array.from({ length: 400 }, (_, i) => [i * 37, 1000 - i * 3] as const)
    const slipsAs = async (name: string) => {
      const answers = await Promise.all(
        pairs.map(([a, b]) =>
          chat({
            model: name,
            messages: [{ role: "user", content: `What is ${a} + ${b}? Answer with the number only.` }],
          }),
        ),
      )
      return answers.flatMap((body: Json, i) =>
        Number(body.choices[0].message.content) === pairs[i]![0] + pairs[i]![1] ? [] : [i],
      )
    }
    const [every4, every20, other20] = await Promise.all([slipsAs("m@4"), slipsAs("m@20"), slipsAs("n@20")])
    expect(every4.length).toBeGreaterThan(70)
    expect(every4.length).toBeLessThan(130)
    expect(every20.length).toBeGreaterThan(5)
    expect(every20.length).toBeLessThan(40)
    expect(every20).not.toEqual(other20)
  })

  it("leaves other questions to the plain reply", async () => {
    const body = await chat({ messages: [{ role: "user", content: "What is 2 times 3?" }] })
    expect(body.choices[0].message.content).toContain("baseline model")
  })
})

describe("intent heuristic", () => {
  const intentRequest = (utterance: string) => ({
    messages: [
      {
        role: "system",
        content: [
          "Classify the user's utterance into one of these intents:",
          "- check_balance: Ask how much money is in an account (keywords: balance, funds)",
          "- book_flight: Book a plane ticket to a destination (keywords: fly, plane)",
          "- set_alarm: Set an alarm to wake up at a time (keywords: wake)",
        ].join("\n"),
      },
      { role: "user", content: `Utterance: ${utterance}` },
    ],
    tools: [
      tool("classify_intent", {
        type: "object",
        properties: { intent: { type: "string", enum: ["check_balance", "book_flight", "set_alarm"] } },
      }),
    ],
    tool_choice: { type: "function", function: { name: "classify_intent" } },
  })

  it.each([
    ["I need to fly to Denver next Tuesday", "book_flight"],
    ["wake me up at 6:30 tomorrow", "set_alarm"],
    ["what are the funds in my savings account?", "check_balance"],
  ])("classifies %j as %s", async (utterance, intent) => {
    const body = await chat(intentRequest(utterance))
    const call = body.choices[0].message.tool_calls[0]
    expect(call.function.name).toBe("classify_intent")
    expect(JSON.parse(call.function.arguments)).toEqual({ intent })
  })

  it("is deterministic: the same request gets the same answer and usage", async () => {
    const request = intentRequest("something with no matching words at all")
    const [a, b] = await Promise.all([chat(request), chat(request)])
    expect(a.choices).toEqual(b.choices)
    expect(a.usage).toEqual(b.usage)
    const plain = { messages: [{ role: "user", content: "Tell me a story about a lighthouse." }] }
    const [c, d] = await Promise.all([chat(plain), chat(plain)])
    expect(c.choices).toEqual(d.choices)
  })
})

describe("judge policy", () => {
  const judgePrompt = (format: string, sections: string) => [
    {
      role: "system",
      content: `You are a judge: you grade an answer to a task, carefully and impartially.\nScore it.\nReply with one JSON object and nothing else, in this format:\n${format}`,
    },
    { role: "user", content: sections },
  ]
  const SCORE = '{"reasoning": "<one or two sentences>", "score": <an integer from 1 to 5>}'
  const LABEL = '{"reasoning": "<one or two sentences>", "label": "<one of: good, bad>"}'
  const WINNER = '{"reasoning": "<one or two sentences>", "winner": "<one of: A, B, tie>"}'
  const verdict = async (messages: Json[], extra: Record<string, unknown> = {}) =>
    JSON.parse((await chat({ messages, ...extra })).choices[0].message.content)

  it("answers a rubric in its declared range: the top for a right sum, the bottom for a wrong one, mostly", async () => {
    let agreed = 0
    for (let i = 0; i < 50; i++) {
      const task = `[Task]\nWhat is ${i} + 7?\n\n[Answer]\n${i % 2 === 0 ? i + 7 : i + 8}`
      const { score } = await verdict(judgePrompt(SCORE, task))
      expect([1, 5]).toContain(score)
      if ((score === 5) === (i % 2 === 0)) agreed++
    }
    // Wrong on one item in five, chosen by the prompt's text.
    expect(agreed).toBeGreaterThanOrEqual(30)
    expect(agreed).toBeLessThan(50)
  })

  it("picks a declared label, a passing one for an answer matching the reference, mostly", async () => {
    const labels = "[Labels]\n- good (a passing grade)\n- bad"
    let agreed = 0
    for (let i = 0; i < 40; i++) {
      const answer = i % 2 === 0 ? `Paris ${i}` : `Lyon ${i}`
      const task = `[Task]\nName ${i}?\n\n[Reference answer]\nParis ${i}\n\n[Answer]\n${answer}\n\n${labels}`
      const { label } = await verdict(judgePrompt(LABEL, task))
      expect(["good", "bad"]).toContain(label)
      if ((label === "good") === (i % 2 === 0)) agreed++
    }
    expect(agreed).toBeGreaterThanOrEqual(24)
    expect(agreed).toBeLessThan(40)
  })

  it("is deterministic, and with temperature and a seed varies by sample", async () => {
    const messages = judgePrompt(WINNER, "[Task]\nWhat is 2 + 2?\n\n[Answer A]\n5\n\n[Answer B]\n4")
    expect(await verdict(messages)).toEqual(await verdict(messages))
    const winners = new Set<string>()
    for (let seed = 0; seed < 40; seed++) winners.add((await verdict(messages, { temperature: 1, seed })).winner)
    expect(winners.size).toBe(2)
  })
})
