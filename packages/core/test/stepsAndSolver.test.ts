import { describe, expect, it } from "@effect/vitest"
import { testFinal, testRunConfig } from "@proctor/test-kit"
import { Effect, Stream } from "effect"
import type { RolloutStep } from "../src/result/RolloutStep.js"
import { boundStep, MAX_STEP_TEXT_BYTES } from "../src/runner/internal/stepRecorder.js"
import { type FinalResult, type RolloutTask, Solver, type Step, type StepRecord } from "../src/solver/Solver.js"

const step = (overrides: Partial<RolloutStep> = {}): RolloutStep => ({
  rollout_id: "r",
  seed: 0,
  attempt: 0,
  retry: 0,
  index: 0,
  at: "2026-01-01T00:00:00.000Z",
  elapsed_ms: 0,
  kind: "command",
  ...overrides,
})

const task = (recorded: Array<StepRecord>): RolloutTask => ({
  runId: "run",
  key: { seed: 0, attempt: 0 },
  rolloutId: "r",
  config: testRunConfig(),
  recordStep: (record) => Effect.sync(() => void recorded.push(record)),
})

describe("Solver.fromStream (nanoeval's shape)", () => {
  it.effect("stops at the first final result: nothing after it is pulled, and the producer is finalized", () =>
    Effect.gen(function* () {
      let pulledAfterFinal = 0
      let finalized = false
      const recorded: Array<StepRecord> = []
      const items: Array<Step | FinalResult> = [
        { _tag: "Step", index: 0, record: { kind: "note", text: "one" } },
        { _tag: "Step", index: 1 },
        testFinal(0.25),
      ]
      const solver = Solver.fromStream("s", () =>
        Stream.fromIterable(items).pipe(
          Stream.concat(Stream.repeatEffect(Effect.sync(() => testFinal(++pulledAfterFinal)))),
          Stream.ensuring(Effect.sync(() => (finalized = true))),
        ),
      )
      const final = yield* solver.solve(task(recorded))
      expect(final.score).toBe(0.25)
      expect(pulledAfterFinal).toBe(0)
      expect(finalized).toBe(true)
      // Only steps with a record are stored.
      expect(recorded).toEqual([{ kind: "note", text: "one" }])
    }),
  )

  it.effect("a stream that ends without a result is a NoResult error", () =>
    Effect.gen(function* () {
      const solver = Solver.fromStream("empty", () => Stream.make<Array<Step>>({ _tag: "Step", index: 0 }))
      const error = yield* Effect.flip(solver.solve(task([])))
      expect(error).toMatchObject({ _tag: "SolverError", reason: "NoResult", retryable: false })
    }),
  )
})

describe("steps are bounded like model calls", () => {
  it("cuts long texts and tool-call arguments to the bound, never inside a character, and marks the step", () => {
    const long = "é".repeat(MAX_STEP_TEXT_BYTES) // two bytes each
    const bounded = boundStep(
      step({ stdout: long, stderr: "short", tool_calls: [{ id: "1", name: "bash", arguments: long }] }),
    )
    expect(Buffer.byteLength(bounded.stdout!)).toBe(MAX_STEP_TEXT_BYTES)
    expect(bounded.stdout).toBe("é".repeat(MAX_STEP_TEXT_BYTES / 2))
    expect(bounded.stderr).toBe("short")
    expect(Buffer.byteLength(bounded.tool_calls![0]!.arguments)).toBe(MAX_STEP_TEXT_BYTES)
    expect(bounded.truncated).toBe(true)
    const odd = boundStep(step({ text: `a${"é".repeat(MAX_STEP_TEXT_BYTES)}` }))
    expect(odd.text!.endsWith("\uFFFD")).toBe(false)
    expect(Buffer.byteLength(odd.text!)).toBe(MAX_STEP_TEXT_BYTES - 1)
  })

  it("leaves a step within the bounds as it is", () => {
    const small = step({ stdout: "ok", command: "ls" })
    expect(boundStep(small)).toBe(small)
  })
})
