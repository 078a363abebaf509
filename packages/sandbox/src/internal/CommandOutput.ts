import type { ExecOptions, ExecResult } from "@proctor/core"
import { DEFAULT_MAX_OUTPUT_BYTES, OutputCollector } from "./OutputCollector.js"

/** One command's output, each stream capped at the exec's `maxOutputBytes`, timed from when it was made. */
export class CommandOutput {
  readonly stdout: OutputCollector
  readonly stderr: OutputCollector
  private readonly started = performance.now()

  constructor(options: ExecOptions) {
    const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES
    this.stdout = new OutputCollector(maxBytes, options.onStdout)
    this.stderr = new OutputCollector(maxBytes)
  }

  result(exitCode: number, timedOut: boolean): ExecResult {
    return {
      exitCode,
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      stdoutTruncated: this.stdout.truncated,
      stderrTruncated: this.stderr.truncated,
      timedOut,
      durationMs: performance.now() - this.started,
    }
  }
}
