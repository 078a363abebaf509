import { afterEach, beforeEach, describe, expect, it, vi } from "@effect/vitest"
import type { RunEvent } from "@proctor/core"
import { testStep } from "@proctor/test-kit"
import { ProgressDisplay } from "../src/ProgressDisplay.js"

/** A stream that keeps what is written, sized like a small terminal. */
const stream = (columns: number, rows: number) => {
  const writes: Array<string> = []
  const out = { write: (chunk: string) => writes.push(chunk) > 0, columns, rows } as unknown as NodeJS.WriteStream
  return { out, text: () => writes.join("") }
}

/** What a terminal shows after `text`: lines, carriage returns, cursor-up (`ESC[nA`) and erase-below (`ESC[J`). */
const screen = (text: string): Array<string> => {
  const lines = [""]
  let row = 0
  let col = 0
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal's escape codes are what this reads
  for (const token of text.match(/\x1b\[\d*[AJ]|\r|\n|[^\x1b\r\n]+/g) ?? []) {
    if (token === "\r") col = 0
    else if (token === "\n") {
      row++
      col = 0
      lines[row] ??= ""
    } else if (token.endsWith("A")) row -= Number(token.slice(2, -1) || 1)
    else if (token.endsWith("J")) {
      lines[row] = lines[row]!.slice(0, col)
      lines.length = row + 1
    } else {
      const line = lines[row]!
      lines[row] = line.slice(0, col) + token + line.slice(col + token.length)
      col += token.length
    }
  }
  return lines
}

const started = (planned: number): RunEvent => ({
  _tag: "RunStarted",
  runId: "r",
  runDir: null,
  planned,
  alreadyDone: 0,
})
const rolloutStarted = (seed: number): RunEvent => ({
  _tag: "RolloutStarted",
  key: { seed, attempt: 0 },
  retry: 0,
  timeoutMs: 300_000,
})
const modelTurn = (seed: number, index: number): RunEvent => ({
  _tag: "RolloutStep",
  step: testStep(seed, index, "model", {
    tool_calls: [{ id: `c${index}`, name: "run_command", arguments: '{"command":"cat notes.txt"}' }],
  }),
})

describe("the progress display's in-flight rollouts", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("on a terminal: a line per rollout in flight under the bar, redrawn in place, as many as the screen holds", () => {
    const { out, text } = stream(100, 6)
    const display = new ProgressDisplay(out, true)
    display.onEvent(started(7))
    for (const seed of [0, 1, 2, 3, 4]) display.onEvent(rolloutStarted(seed))
    display.onEvent({ _tag: "ModelCallFinished", key: { seed: 0, attempt: 0 }, tokens: 1234, costUsd: 0.0021 })
    display.onEvent(modelTurn(0, 0))
    display.onEvent({
      _tag: "RolloutRetried",
      key: { seed: 1, attempt: 0 },
      retry: 1,
      errorKind: "rate_limited",
      error: "429 from the model",
      delayMs: 4_000,
    })
    // Not listed before a second in flight: a fast run's rollouts come and go unlisted.
    vi.advanceTimersByTime(100)
    expect(screen(text())).toEqual([expect.stringMatching(/^░+ +0\/7 +0\.0%/)])

    vi.advanceTimersByTime(1_900)
    const shown = screen(text())
    // 6 rows less the bar's and the prompt's: 4 lines, the last counting the rollouts left out.
    expect(shown).toHaveLength(5)
    expect(shown.slice(1)).toEqual(
      [
        '  seed 0 · running 00:02 · turn 1 · 1,234 tokens · $0.0021 · 04:58 left · model → run_command({"command":"cat notes.txt"})',
        "  seed 1 · retry 1 in 00:02 · rate_limited: 429 from the model",
        "  seed 2 · running 00:02 · 04:58 left",
        "  +2 more in flight",
      ].map((line) => line.slice(0, 99)),
    )

    // Redrawn in place: the next frame replaces this one, and a rollout that finished leaves it.
    display.onEvent({
      _tag: "RolloutStep",
      step: testStep(0, 1, "command", { command: "cat notes.txt", exit_code: 0 }),
    })
    display.onEvent({ _tag: "RunFinished", summary: {} as never, interrupted: false })
    expect(screen(text())).toEqual([expect.stringMatching(/0\/7/), ""])
  })

  it("in a log: plain lines, the rollouts in flight listed every 10 s, never an escape code", () => {
    const { out, text } = stream(80, 24)
    const display = new ProgressDisplay(out, false)
    display.onEvent(started(2))
    display.onEvent(rolloutStarted(0))
    display.onEvent(rolloutStarted(1))
    display.onEvent(modelTurn(1, 0))
    vi.advanceTimersByTime(5_000)
    display.onEvent({ _tag: "RolloutStep", step: testStep(1, 1, "command", { command: "ls", exit_code: 0 }) })
    vi.advanceTimersByTime(5_000)
    vi.advanceTimersByTime(5_000)
    const lines = text().split("\n")
    expect(text()).not.toContain("\x1b")
    expect(lines.filter((line) => line.startsWith("progress"))).toHaveLength(3)
    expect(lines.filter((line) => line.startsWith("in flight: "))).toEqual([
      "in flight: seed 0 · running 00:05 · 04:55 left",
      'in flight: seed 1 · running 00:05 · turn 1 · 04:55 left · model → run_command({"command":"cat notes.txt"})',
      "in flight: seed 0 · running 00:15 · 04:45 left",
      "in flight: seed 1 · running 00:15 · turn 1 · 04:45 left · $ ls (exit 0)",
    ])
  })
})
