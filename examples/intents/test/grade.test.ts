import { describe, expect, it } from "vitest"
import { buildMessages, chatRequestBody, grade, loadDataset, TOOL_NAME } from "../src/index.js"

const dataset = loadDataset()
const known = new Set(dataset.intents.map((intent) => intent.name))

const toolMessage = (name: string, args: string) => ({
  content: null,
  tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: args } }],
})

describe("grade", () => {
  it("scores 1 only for a classify_intent call naming the label", () => {
    expect(grade(toolMessage(TOOL_NAME, '{"intent":"set_alarm"}'), "set_alarm", known)).toEqual({
      score: 1,
      predicted: "set_alarm",
      reason: "correct",
    })
    expect(grade(toolMessage(TOOL_NAME, '{"intent":"set_timer"}'), "set_alarm", known)).toEqual({
      score: 0,
      predicted: "set_timer",
      reason: "wrong_intent",
    })
  })

  it("scores 0 with the reason when the answer cannot be graded", () => {
    expect(grade(toolMessage(TOOL_NAME, '{"intent":"make_coffee"}'), "set_alarm", known).reason).toBe("unknown_intent")
    expect(grade(toolMessage(TOOL_NAME, '{"label":"set_alarm"}'), "set_alarm", known).reason).toBe("invalid_arguments")
    expect(grade(toolMessage(TOOL_NAME, "set_alarm"), "set_alarm", known).reason).toBe("invalid_arguments")
    expect(grade(toolMessage("other_tool", '{"intent":"set_alarm"}'), "set_alarm", known).reason).toBe("no_tool_call")
    expect(grade({ content: "set_alarm" }, "set_alarm", known)).toEqual({
      score: 0,
      predicted: null,
      reason: "no_tool_call",
    })
    expect(grade(undefined, "set_alarm", known).score).toBe(0)
  })
})

describe("prompt", () => {
  it("lists every intent with its description and leaves the utterance to the user message", () => {
    const [system, user] = buildMessages(dataset, "wake me at 6")
    for (const intent of dataset.intents) expect(system?.content).toContain(`- ${intent.name}: ${intent.description}`)
    expect(user).toEqual({ role: "user", content: "Utterance: wake me at 6" })
  })

  it("forces one classify_intent tool whose enum is the label set, and passes sampling settings on", () => {
    const body = chatRequestBody(dataset, "hi", {
      model: "m",
      temperature: 0.2,
      max_completion_tokens: 64,
      inference_url: "http://x",
    })
    expect(body).toMatchObject({
      model: "m",
      temperature: 0.2,
      max_completion_tokens: 64,
      tool_choice: { type: "function", function: { name: TOOL_NAME } },
    })
    expect(body.inference_url).toBeUndefined()
    const [tool] = body.tools as Array<{
      function: { name: string; parameters: { properties: { intent: { enum: string[] } } } }
    }>
    expect(tool?.function.name).toBe(TOOL_NAME)
    expect(tool?.function.parameters.properties.intent.enum).toEqual([...known])
  })
})
