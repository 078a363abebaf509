import { Effect } from "effect"
import type { RolloutKey } from "../../result/EvalResult.js"
import type { RolloutStep } from "../../result/RolloutStep.js"
import type { RolloutLimits } from "../../solver/RolloutLimits.js"
import type { StepRecord } from "../../solver/Solver.js"

/**
 * The most UTF-8 bytes a step keeps of each text (a command's output, a model turn, a tool's answer): an agent that
 * prints a gigabyte must not write one to `steps.jsonl`. What is cut is marked with `truncated`.
 */
export const MAX_STEP_TEXT_BYTES = 16 * 1024
/** Tool calls of one model turn kept, and bytes of each one's arguments. */
const MAX_TOOL_CALLS = 64

const TEXT_FIELDS = ["text", "command", "stdout", "stderr", "output"] as const

/** `text` cut to `bytes` UTF-8 bytes, never inside a character; null when it fits. */
const cut = (text: string, bytes: number): string | null => {
  if (text.length * 3 <= bytes || Buffer.byteLength(text) <= bytes) return null
  return Buffer.from(text)
    .subarray(0, bytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "")
}

/** A step within the bounds; the same object when it already was. */
export const boundStep = (step: RolloutStep, maxBytes = MAX_STEP_TEXT_BYTES): RolloutStep => {
  const changes: Record<string, unknown> = {}
  for (const field of TEXT_FIELDS) {
    const value = step[field]
    if (typeof value !== "string") continue
    const shorter = cut(value, maxBytes)
    if (shorter !== null) changes[field] = shorter
  }
  const calls = step.tool_calls
  if (calls !== undefined) {
    const kept = calls.slice(0, MAX_TOOL_CALLS).map((call) => {
      const args = cut(call.arguments, maxBytes)
      return args === null ? call : { ...call, arguments: args }
    })
    if (calls.length > MAX_TOOL_CALLS || kept.some((call, i) => call !== calls[i])) changes.tool_calls = kept
  }
  return Object.keys(changes).length === 0 ? step : { ...step, ...changes, truncated: true }
}

export interface StepRecorderOptions {
  readonly rolloutId: string
  readonly key: RolloutKey
  readonly retry: number
  readonly limits: RolloutLimits | undefined
  /** Stores and publishes the finished step. */
  readonly emit: (step: RolloutStep) => Effect.Effect<void>
}

/**
 * One try's `recordStep`: numbers and times each step, bounds it, counts a `model` step as a turn (a turn past
 * `max_turns` is still recorded: it happened), and hands it on.
 */
export const stepRecorder = (options: StepRecorderOptions) => {
  const t0 = performance.now()
  let index = 0
  return (record: StepRecord): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (record.kind === "model") options.limits?.recordTurn()
      // Ids first: readers find a line's rollout from its first bytes.
      const step: RolloutStep = {
        rollout_id: options.rolloutId,
        seed: options.key.seed,
        attempt: options.key.attempt,
        retry: options.retry,
        index: index++,
        at: new Date().toISOString(),
        elapsed_ms: Math.round((performance.now() - t0) * 100) / 100,
        ...record,
      }
      return options.emit(boundStep(step))
    })
}
