import type { ToolCall } from "@proctor/task-app"
import { evaluateExpression, formatResult } from "./calculator.js"

/** The names the baseline model and any policy for this app rely on. */
export const CALCULATOR = "calculator"
export const SUBMIT_ANSWER = "submit_answer"

export const MATH_TOOLS = [
  {
    type: "function",
    function: {
      name: CALCULATOR,
      description: "Evaluate an arithmetic expression using + - * / and parentheses, e.g. (12 + 7) * 3.",
      parameters: {
        type: "object",
        properties: { expression: { type: "string", description: "The arithmetic expression to evaluate." } },
        required: ["expression"],
        additionalProperties: false,
      },
    },
  },
  {
    type: "function",
    function: {
      name: SUBMIT_ANSWER,
      description: "Submit the final numeric answer to the problem. This ends the episode.",
      parameters: {
        type: "object",
        properties: { answer: { type: "number", description: "The final answer." } },
        required: ["answer"],
        additionalProperties: false,
      },
    },
  },
] as const

export interface ToolOutcome {
  /** The tool message's content, fed back to the model. */
  readonly content: string
  /** Set when the call was a valid `submit_answer`. */
  readonly answer?: number
}

/** Arguments are a JSON string per OpenAI; some compatible servers send the object itself. */
const parseArguments = (raw: unknown): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = typeof raw === "string" ? JSON.parse(raw === "" ? "{}" : raw) : raw
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** Models send numbers as strings often enough ("19", "1,024") that refusing them would grade formatting. */
const numberOf = (u: unknown): number | undefined => {
  if (typeof u === "number") return Number.isFinite(u) ? u : undefined
  if (typeof u !== "string" || u.trim() === "") return undefined
  const n = Number(u.replaceAll(",", "").trim())
  return Number.isFinite(n) ? n : undefined
}

/** Runs one tool call; a bad call becomes an error message the model can read and correct. */
export const runTool = (call: ToolCall): ToolOutcome => {
  // The call comes off the wire: a sloppy server's malformed call must not fail the whole rollout.
  if (typeof call.function?.name !== "string") return { content: "error: a tool call needs function.name" }
  const args = parseArguments(call.function.arguments)
  if (args === undefined) return { content: "error: the arguments are not a JSON object" }
  switch (call.function.name) {
    case CALCULATOR: {
      if (typeof args.expression !== "string") return { content: 'error: expected {"expression": string}' }
      try {
        return { content: formatResult(evaluateExpression(args.expression)) }
      } catch (error) {
        return { content: `error: ${(error as Error).message}` }
      }
    }
    case SUBMIT_ANSWER: {
      const answer = numberOf(args.answer)
      return answer === undefined
        ? { content: 'error: expected {"answer": number}' }
        : { content: `answer ${formatResult(answer)} submitted`, answer }
    }
    default:
      return { content: `error: unknown tool "${call.function.name}"; use ${CALCULATOR} or ${SUBMIT_ANSWER}` }
  }
}
