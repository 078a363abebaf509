import { Effect } from "effect"
import { SolverError, type StepRecord } from "../solver/Solver.js"
import { makeCommandLineAgent } from "./CommandLineAgent.js"
import { STEP_OUTPUT_CHARS } from "./internal/commandRecord.js"
import { field, items, num, text } from "./internal/jsonFields.js"
import { platformBinary } from "./internal/npmBinary.js"

/** Claude Code's program from the npm package `@anthropic-ai/claude-code` (its platform package's native build). */
const claudeBinary = Effect.suspend(() => {
  const found =
    process.platform === "linux" && (process.arch === "x64" || process.arch === "arm64")
      ? platformBinary("@anthropic-ai/claude-code", `@anthropic-ai/claude-code-linux-${process.arch}`, "claude")
      : { missing: `Claude Code runs in a sandbox on Linux x64 or arm64, not ${process.platform} ${process.arch}` }
  return "path" in found
    ? Effect.succeed(found.path)
    : Effect.fail(
        new SolverError({ reason: "Failed", retryable: false, message: `--agent claude-code: ${found.missing}` }),
      )
})

const cut = (value: string) => value.slice(0, STEP_OUTPUT_CHARS)

/** A tool result's content: a string, or blocks with text. */
const resultText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((block) => text(block, "text")).join("\n")
      : ""

/**
 * `claude -p --output-format stream-json --verbose` events as steps: each assistant message a model turn (its text
 * and tool calls), each tool result a tool step, and each `Bash` call also the command with its output; retries
 * and the closing result are notes.
 */
const claudeTrajectory = () => {
  const commands = new Map<string, string>()
  return (event: unknown): ReadonlyArray<StepRecord> => {
    const message = field(event, "message")
    switch (text(event, "type")) {
      case "assistant": {
        const blocks = items(message, "content")
        const calls = blocks
          .filter((block) => text(block, "type") === "tool_use")
          .map((block) => ({ id: text(block, "id"), name: text(block, "name"), input: field(block, "input") }))
        for (const call of calls) if (call.name === "Bash") commands.set(call.id, text(call.input, "command"))
        const said = blocks
          .filter((block) => text(block, "type") === "text")
          .map((block) => text(block, "text"))
          .join("\n")
        return [
          {
            kind: "model",
            text: said,
            // Its usage here is the stream's opening count, not the turn's: the intercepted call has the true one.
            tool_calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: JSON.stringify(call.input) })),
          },
        ]
      }
      case "user":
        return items(message, "content")
          .filter((block) => text(block, "type") === "tool_result")
          .flatMap((block): ReadonlyArray<StepRecord> => {
            const id = text(block, "tool_use_id")
            const output = resultText(field(block, "content"))
            const tool: StepRecord = { kind: "tool", text: "tool_result", tool_call_id: id, output: cut(output) }
            const command = commands.get(id)
            if (command === undefined) return [tool]
            const failed = field(block, "is_error") === true
            return [{ kind: "command", command, exit_code: failed ? 1 : 0, stdout: cut(output), stderr: "" }, tool]
          })
      case "system":
        return text(event, "subtype") === "api_retry"
          ? [{ kind: "note", text: `claude-code: model call retried (${text(event, "error")})` }]
          : []
      case "result":
        return [
          {
            kind: "note",
            text: `claude-code: ${text(event, "subtype")} after ${num(event, "num_turns")} turns${field(event, "is_error") === true ? `: ${text(event, "result")}` : ""}`,
          },
        ]
      default:
        return []
    }
  }
}

/** `ANTHROPIC_BASE_URL` is the API's root: Claude Code adds `/v1/messages` itself. */
const anthropicBase = (baseUrl: string) => baseUrl.replace(/\/v1\/?$/, "")

/**
 * Anthropic's Claude Code (`@anthropic-ai/claude-code`), unmodified: `claude -p` with its stream-json trajectory,
 * permissions skipped (proctor's sandbox is the boundary; `IS_SANDBOX` lets it do so as root), speaking Anthropic
 * messages to the rollout's interceptor with a stand-in key, and none of its own traffic (telemetry, error reports,
 * updates). Its turns are bounded by the interceptor, not by its own `--max-turns`: every command-line agent's turns
 * are counted one way.
 */
export const ClaudeCodeAgent = makeCommandLineAgent({
  name: "claude-code",
  program: Effect.map(claudeBinary, (path) => ({ path, hostPaths: [path] })),
  command: (run) => ({
    argv: [
      run.program,
      "-p",
      run.instruction,
      "--output-format",
      "stream-json",
      "--verbose",
      "--dangerously-skip-permissions",
      "--model",
      run.model,
    ],
    env: {
      ANTHROPIC_BASE_URL: anthropicBase(run.baseUrl),
      ANTHROPIC_API_KEY: run.apiKey,
      IS_SANDBOX: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  }),
  trajectory: claudeTrajectory,
})
