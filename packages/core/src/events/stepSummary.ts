import type { RolloutStep } from "../result/RolloutStep.js"

/** The longest summary a live view shows of a step: one terminal line's worth beside the rollout's numbers. */
export const STEP_SUMMARY_CHARS = 120

const firstLine = (text: string | undefined): string => (text ?? "").trim().split("\n", 1)[0]!.trim()

const within = (text: string, chars: number): string =>
  text.length <= chars ? text : `${text.slice(0, Math.max(0, chars - 1))}…`

/**
 * A step in one line, as a live view says what a rollout did last: the model's tool calls (or its first line of
 * text), a command with its exit code, a tool's answer, a note.
 */
export const stepSummary = (step: RolloutStep, chars = STEP_SUMMARY_CHARS): string => {
  switch (step.kind) {
    case "model": {
      const calls = step.tool_calls ?? []
      if (calls.length > 0) {
        return within(`model → ${calls.map((call) => `${call.name}(${firstLine(call.arguments)})`).join(", ")}`, chars)
      }
      return within(`model: ${firstLine(step.text)}`, chars)
    }
    case "command": {
      const exit =
        step.exit_code === undefined ? "" : step.exit_code === null ? " (no exit code)" : ` (exit ${step.exit_code})`
      return within(`$ ${firstLine(step.command)}${exit}`, chars)
    }
    case "tool":
      return within(`${step.text ?? "tool"}: ${firstLine(step.output)}`, chars)
    case "note":
      return within(firstLine(step.text), chars)
  }
}

const summaryLine = (text: string): string => firstLine(text).slice(0, STEP_SUMMARY_CHARS)

/** The first tool calls, as many as one summary can show, each in one line. */
const shownCalls = (calls: NonNullable<RolloutStep["tool_calls"]>) => {
  const shown: Array<{ id: string; name: string; arguments: string }> = []
  let room = STEP_SUMMARY_CHARS
  for (const call of calls) {
    if (room <= 0) break
    const shortened = { id: call.id, name: summaryLine(call.name), arguments: summaryLine(call.arguments) }
    shown.push(shortened)
    room -= shortened.name.length + shortened.arguments.length + 4
  }
  return shown
}

/**
 * A step as a live view on another process needs it: its numbers and what `stepSummary` reads (one line of each
 * text, the tool calls a summary can show), without command output; well under 2 KB, however big the step.
 */
export const summarisedStep = (step: RolloutStep): RolloutStep => {
  const { stdout: _stdout, stderr: _stderr, ...kept } = step
  return {
    ...kept,
    ...(step.text === undefined ? {} : { text: summaryLine(step.text) }),
    ...(step.tool_calls === undefined ? {} : { tool_calls: shownCalls(step.tool_calls) }),
    ...(step.command === undefined ? {} : { command: summaryLine(step.command) }),
    ...(step.output === undefined ? {} : { output: summaryLine(step.output) }),
  }
}
