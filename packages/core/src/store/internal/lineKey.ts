import type { RolloutKey } from "../../result/EvalResult.js"
import { isEvalResult } from "./JournalScan.js"

const STRING = String.raw`"(?:[^"\\]|\\.)*"`
const SCALAR = String.raw`(?:null|true|false|-?\d[\d.eE+-]*|${STRING})`
const KEY = String.raw`"seed":(-?\d+),`

/**
 * The opening of a model call as the interceptor writes it: its ids (strings), then seed and attempt. Anchored
 * and matched member by member, so the `"seed"` found is the top-level one, never text inside a value.
 */
const CALL_HEAD = new RegExp(
  String.raw`^\{"call_id":${STRING},"run_id":${STRING},"rollout_id":${STRING},${KEY}"attempt":(\d+)[,}]`,
)
/** The opening of a step as the runner writes it: the rollout's id, then seed and attempt. */
const STEP_HEAD = new RegExp(String.raw`^\{"rollout_id":${STRING},${KEY}"attempt":(\d+)[,}]`)
/** The opening of a result as the runner writes it: seed first, and only scalars before `attempt`. */
const RESULT_HEAD = new RegExp(String.raw`^\{${KEY}(?:"[^"\\]*":${SCALAR},)*?"attempt":(\d+)[,}]`)

/**
 * How much of a line a pattern looks at: a call's ids are short; a result's error message may sit before its
 * attempt. A line whose key lies further in is parsed whole.
 */
const CALL_HEAD_BYTES = 512
const STEP_HEAD_BYTES = 512
const RESULT_HEAD_BYTES = 4096

const fromMatch = (match: RegExpExecArray): RolloutKey | null => {
  const seed = Number(match[1])
  const attempt = Number(match[2])
  return Number.isSafeInteger(seed) && Number.isSafeInteger(attempt) ? { seed, attempt } : null
}

const parsed = (bytes: Buffer): unknown => {
  try {
    return JSON.parse(bytes.toString("utf8"))
  } catch {
    return undefined
  }
}

/**
 * The (seed, attempt) of a line, read from its first bytes when it opens the way proctor writes it (parsing
 * a whole line would cost more than the rest of an index scan), else from the parsed line. Latin-1 keeps
 * one character per byte; UTF-8 never uses a byte below 0x80 inside a character, so quotes and backslashes
 * are found where they are.
 */
const keyOf = (
  head: RegExp,
  headBytes: number,
  bytes: Buffer,
  isRecord: (value: unknown) => value is RolloutKey,
): RolloutKey | null => {
  const match = head.exec(bytes.toString("latin1", 0, Math.min(bytes.length, headBytes)))
  if (match !== null) return fromMatch(match)
  const value = parsed(bytes)
  return isRecord(value) && Number.isSafeInteger(value.seed) && Number.isSafeInteger(value.attempt)
    ? { seed: value.seed, attempt: value.attempt }
    : null
}

const isCallRecord = (value: unknown): value is RolloutKey => {
  const call = value as { seed?: unknown; attempt?: unknown; call_id?: unknown } | null
  return (
    typeof call === "object" &&
    call !== null &&
    typeof call.call_id === "string" &&
    typeof call.seed === "number" &&
    typeof call.attempt === "number"
  )
}

/** The rollout a line of `model_calls.jsonl` belongs to; null for a line that is no model call. */
export const callLineKey = (bytes: Buffer): RolloutKey | null => keyOf(CALL_HEAD, CALL_HEAD_BYTES, bytes, isCallRecord)

/** The rollout a line of `results.jsonl` holds; null for a line that is no result. */
export const resultLineKey = (bytes: Buffer): RolloutKey | null =>
  keyOf(RESULT_HEAD, RESULT_HEAD_BYTES, bytes, isEvalResult)

const isStepRecord = (value: unknown): value is RolloutKey => {
  const step = value as { seed?: unknown; attempt?: unknown; rollout_id?: unknown } | null
  return (
    typeof step === "object" &&
    step !== null &&
    typeof step.rollout_id === "string" &&
    typeof step.seed === "number" &&
    typeof step.attempt === "number"
  )
}

/** The rollout a line of `steps.jsonl` belongs to; null for a line that is no step. */
export const stepLineKey = (bytes: Buffer): RolloutKey | null => keyOf(STEP_HEAD, STEP_HEAD_BYTES, bytes, isStepRecord)
