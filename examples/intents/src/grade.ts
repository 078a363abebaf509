import { TOOL_NAME } from "./prompt.js"

export type GradeReason = "correct" | "wrong_intent" | "unknown_intent" | "no_tool_call" | "invalid_arguments"

export interface Grade {
  readonly score: 0 | 1
  readonly predicted: string | null
  readonly reason: GradeReason
}

interface AssistantMessage {
  readonly content?: unknown
  readonly tool_calls?: ReadonlyArray<{ readonly function: { readonly name: string; readonly arguments: string } }>
}

const intentArgument = (json: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(json)
    const intent = typeof parsed === "object" && parsed !== null ? (parsed as { intent?: unknown }).intent : undefined
    return typeof intent === "string" ? intent : undefined
  } catch {
    return undefined
  }
}

/**
 * Exact match of the first `classify_intent` call against the label. Answers in prose score 0 even when
 * they name the right intent: the task is to use the tool, and guessing intent from prose would be a
 * second, fuzzier grader.
 */
export const grade = (message: AssistantMessage | undefined, label: string, known: ReadonlySet<string>): Grade => {
  const call = message?.tool_calls?.find((candidate) => candidate.function.name === TOOL_NAME)
  if (call === undefined) return { score: 0, predicted: null, reason: "no_tool_call" }
  const predicted = intentArgument(call.function.arguments)
  if (predicted === undefined) return { score: 0, predicted: null, reason: "invalid_arguments" }
  if (!known.has(predicted)) return { score: 0, predicted, reason: "unknown_intent" }
  return predicted === label
    ? { score: 1, predicted, reason: "correct" }
    : { score: 0, predicted, reason: "wrong_intent" }
}
