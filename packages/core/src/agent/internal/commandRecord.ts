import type { ExecResult, SandboxCommand } from "../../sandbox/Sandbox.js"
import type { StepRecord } from "../../solver/Solver.js"

/** Output kept in a step record per stream; the run directory's steps stay bounded. */
export const STEP_OUTPUT_CHARS = 8 * 1024

const cut = (text: string) => (text.length > STEP_OUTPUT_CHARS ? text.slice(0, STEP_OUTPUT_CHARS) : text)

/** A command run in the sandbox, as the rollout's timeline shows it. */
export const commandRecord = (command: SandboxCommand, result: ExecResult): StepRecord => ({
  kind: "command",
  command: typeof command === "string" ? command : command.join(" "),
  exit_code: result.exitCode,
  stdout: cut(result.stdout),
  stderr: cut(result.stderr),
  duration_ms: result.durationMs,
  truncated:
    result.stdoutTruncated ||
    result.stderrTruncated ||
    result.stdout.length > STEP_OUTPUT_CHARS ||
    result.stderr.length > STEP_OUTPUT_CHARS,
})
