import type { Decision } from "./decision.js"

/**
 * The baseline's tool-using policy for shell agents, the same whichever API asked and whichever agent: it reads
 * the task's instruction and how many commands it has run so far, and runs the next command the instruction hints
 * at (lines `Hint: \`command\``), in order, through the agent's own shell tool; once every hint has run it says it
 * is done (the builtin agent's `done` tool, a closing text for the others). An instruction without hints leaves it
 * looking around (`ls -la`) until a turn limit stops it. It never reads the commands' output: a wrong hint gives a
 * wrong answer, as a careless agent would.
 */
export interface ShellConversation {
  /** What the user said before the model's first turn: the task's instruction (and any context around it). */
  readonly instruction: string
  /** The names of the tools the model has called so far, in order. */
  readonly calledTools: ReadonlyArray<string>
}

/** How one agent's shell tool is called, and how the model tells that agent it has finished. */
export interface ShellDialect {
  readonly tool: string
  readonly argumentsOf: (command: string) => Record<string, unknown>
  /** A tool to call when done (the builtin agent's `done`); without one the model ends with a text answer. */
  readonly doneTool: string | null
}

/**
 * The shell agents the baseline recognises by the tools they declare: proctor's builtin agent (`bash` + `done`),
 * Codex CLI (`exec_command`, or `shell` with an argv in older versions) and Claude Code (`Bash`).
 */
const DIALECTS: ReadonlyArray<{ readonly needs: ReadonlyArray<string>; readonly dialect: ShellDialect }> = [
  {
    needs: ["bash", "done"],
    dialect: { tool: "bash", argumentsOf: (command) => ({ command }), doneTool: "done" },
  },
  {
    needs: ["exec_command"],
    dialect: { tool: "exec_command", argumentsOf: (cmd) => ({ cmd }), doneTool: null },
  },
  {
    needs: ["shell"],
    dialect: { tool: "shell", argumentsOf: (command) => ({ command: ["bash", "-lc", command] }), doneTool: null },
  },
  {
    needs: ["Bash"],
    dialect: {
      tool: "Bash",
      argumentsOf: (command) => ({ command, description: "Run the task's next step" }),
      doneTool: null,
    },
  },
]

export const shellDialectOf = (toolNames: ReadonlySet<string>): ShellDialect | null =>
  DIALECTS.find(({ needs }) => needs.every((name) => toolNames.has(name)))?.dialect ?? null

const HINT = /^Hint: `(.+)`\s*$/gm

/** What the baseline says once every hint has run and the agent has no `done` tool. */
export const FINISHED_TEXT = "Done: every step of the task has run."

export const hintsOf = (instruction: string): ReadonlyArray<string> =>
  Array.from(instruction.matchAll(HINT), (match) => match[1] ?? "")

export const shellPolicy = (conversation: ShellConversation, dialect: ShellDialect): Decision => {
  const call = (command: string): Decision => ({
    toolCalls: [{ name: dialect.tool, arguments: dialect.argumentsOf(command) }],
  })
  const hints = hintsOf(conversation.instruction)
  if (hints.length === 0) return call("ls -la")
  const next = hints[conversation.calledTools.filter((name) => name === dialect.tool).length]
  if (next !== undefined) return call(next)
  return dialect.doneTool === null
    ? { content: FINISHED_TEXT }
    : { toolCalls: [{ name: dialect.doneTool, arguments: {} }] }
}
