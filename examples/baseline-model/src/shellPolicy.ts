import type { Decision } from "./decision.js"

/**
 * The baseline's tool-using policy for shell agents (tools `bash` and `done`), the same whichever API asked:
 * it reads the task's instruction and how many commands it has run so far, and runs the next command the
 * instruction hints at (lines `Hint: \`command\``), in order; once every hint has run it calls `done`. An
 * instruction without hints leaves it looking around (`ls -la`) until a turn limit stops it. It never reads the
 * commands' output: a wrong hint gives a wrong answer, as a careless agent would.
 */
export interface ShellConversation {
  /** The first user message: the task's instruction. */
  readonly instruction: string
  /** `bash` calls already made in the conversation. */
  readonly commandsRun: number
}

const HINT = /^Hint: `(.+)`\s*$/gm

export const hintsOf = (instruction: string): ReadonlyArray<string> =>
  Array.from(instruction.matchAll(HINT), (match) => match[1] ?? "")

export const isShellAgent = (toolNames: ReadonlySet<string>): boolean => toolNames.has("bash") && toolNames.has("done")

export const shellPolicy = (conversation: ShellConversation): Decision => {
  const hints = hintsOf(conversation.instruction)
  if (hints.length === 0) return { toolCalls: [{ name: "bash", arguments: { command: "ls -la" } }] }
  const next = hints[conversation.commandsRun]
  return next === undefined
    ? { toolCalls: [{ name: "done", arguments: {} }] }
    : { toolCalls: [{ name: "bash", arguments: { command: next } }] }
}
