import { closeSync, existsSync, openSync, readSync } from "node:fs"
import { ParseResult, Schema } from "effect"
import { EvalResult, NUMERIC_RESULT_FIELDS, rolloutKeyId } from "../../result/EvalResult.js"
import { StopReason } from "../../result/RolloutStep.js"
import { forEachLine, type OnLine } from "./forEachLine.js"

/** The keys a run planned: each seed × attempts `0 … attempts - 1`. */
export interface JournalPlan {
  readonly seeds: ReadonlyArray<number>
  readonly attempts: number
}

/** A line of the journal that is not a planned result; `line` counts from 1. */
export interface JournalProblem {
  readonly line: number
  readonly problem: string
}

/** Where each kept result's line is, in the order of the file. */
export interface JournalEntries {
  readonly seeds: Array<number>
  readonly attempts: Array<number>
  readonly offsets: Array<number>
  readonly lengths: Array<number>
  readonly lines: Array<number>
}

export interface JournalScan {
  /** One line per planned key: the first line that holds it. */
  readonly entries: JournalEntries
  /** Lines that make the journal disagree with the plan: garbage, keys outside it, conflicting duplicates. */
  readonly problems: ReadonlyArray<JournalProblem>
  /** Entries (by index) whose key a later line contradicts: no line of theirs can be trusted. */
  readonly contradicted: ReadonlySet<number>
  /** Later lines that repeat a key's result exactly: harmless (the result is the same either way). */
  readonly copies: ReadonlyArray<JournalProblem>
  /** Later tries of keys whose earlier line was an error (`--retry-errors`): each replaces the earlier entry. */
  readonly retried: ReadonlyArray<JournalProblem>
  /** The last line, unterminated and not JSON: a write cut short by a crash. Its start offset and number. */
  readonly torn: { readonly offset: number; readonly line: number } | null
  /** The last line is a whole result but has no newline after it yet. */
  readonly unterminated: boolean
}

const decodeEvalResult = Schema.decodeUnknownEither(EvalResult)

const STOP_REASONS: ReadonlySet<unknown> = new Set(StopReason.literals)

const isNullableNumber = (value: unknown) => value === null || typeof value === "number"
const isNullableString = (value: unknown) => value === null || typeof value === "string"
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `retry_log`'s entries; `kind` may be any string, as `error_kind` may. */
const isRetryLog = (value: unknown) =>
  Array.isArray(value) &&
  value.every(
    (entry) =>
      isObject(entry) &&
      typeof entry.kind === "string" &&
      typeof entry.error === "string" &&
      typeof entry.delay_ms === "number" &&
      typeof entry.at === "string",
  )

/** Graders' verdicts by name: each a score, whether it passed, and optionally why. */
const isGrades = (value: unknown) =>
  isObject(value) &&
  Object.values(value).every(
    (verdict) =>
      isObject(verdict) &&
      typeof verdict.score === "number" &&
      typeof verdict.passed === "boolean" &&
      (verdict.reason === undefined || typeof verdict.reason === "string"),
  )

/**
 * `EvalResult`'s fields checked by hand: a resume reads every line, and the Schema costs ~13 µs a line
 * (over a second for 100,000). `error_kind` may be any string, so kinds added later still read back.
 * test/isEvalResult.test.ts checks it against the Schema.
 */
export const isEvalResult = (value: unknown): value is EvalResult => {
  if (!isObject(value)) return false
  const r = value
  return (
    typeof r.seed === "number" &&
    typeof r.attempt === "number" &&
    (r.status === "ok" || r.status === "error") &&
    typeof r.retries === "number" &&
    typeof r.started_at === "string" &&
    typeof r.finished_at === "string" &&
    isNullableString(r.error) &&
    isNullableString(r.error_kind) &&
    (r.run_id === undefined || typeof r.run_id === "string") &&
    (r.task_id === undefined || typeof r.task_id === "string" || typeof r.task_id === "number") &&
    (r.cluster === undefined || typeof r.cluster === "string") &&
    (r.retry_log === undefined || isRetryLog(r.retry_log)) &&
    (r.stop_reason === undefined || STOP_REASONS.has(r.stop_reason)) &&
    (r.turns === undefined || typeof r.turns === "number") &&
    (r.messages === undefined || typeof r.messages === "number") &&
    (r.grades === undefined || isGrades(r.grades)) &&
    NUMERIC_RESULT_FIELDS.every((key) => isNullableNumber(r[key]))
  )
}

const whyNotAResult = (value: unknown): string => {
  const decoded = decodeEvalResult(value)
  if (decoded._tag === "Right") return "is not a result"
  const [issue] = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
  const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `
  return `is not a result (${where}${issue?.message ?? "unexpected shape"})`
}

/**
 * Reads a journal and checks every line against the plan; results stay on disk, only their positions are
 * kept. Two lines for one key conflict when their results differ in any field, unless the earlier one is
 * an error: the runner writes each key once, after its last retry (`retries` counts them), and runs a
 * stored key again only when asked to retry errored rollouts (`--retry-errors`), appending the new try, which
 * wins (the clean-results rule: the last try of a key). A second, different line after a result that was
 * not an error is therefore no retry, and trusting either one would silently pick a stored result. An exact
 * copy changes nothing and is let pass.
 */
export const scanJournal = async (path: string, plan: JournalPlan): Promise<JournalScan> => {
  const entries: JournalEntries = { seeds: [], attempts: [], offsets: [], lengths: [], lines: [] }
  const problems: Array<JournalProblem> = []
  const contradicted = new Set<number>()
  const copies: Array<JournalProblem> = []
  const retried: Array<JournalProblem> = []
  let torn: JournalScan["torn"] = null
  let unterminated = false
  if (!existsSync(path)) return { entries, problems, contradicted, copies, retried, torn, unterminated }

  const planned = new Set(plan.seeds)
  const slotOf = new Map<string, number>()
  const fd = openSync(path, "r")
  const lineAt = (slot: number): string => {
    const buffer = Buffer.allocUnsafe(entries.lengths[slot]!)
    readSync(fd, buffer, 0, buffer.length, entries.offsets[slot]!)
    return buffer.toString("utf8")
  }
  let line = 0
  const check: OnLine = (bytes, offset, terminated) => {
    line++
    const text = bytes.toString("utf8")
    if (text.trim() === "") return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      if (!terminated) torn = { offset, line }
      else problems.push({ line, problem: "is not JSON" })
      return
    }
    unterminated = !terminated
    if (!isEvalResult(value)) {
      problems.push({ line, problem: whyNotAResult(value) })
      return
    }
    const { seed, attempt } = value
    if (!planned.has(seed) || !Number.isInteger(attempt) || attempt < 0 || attempt >= plan.attempts) {
      problems.push({ line, problem: `holds seed ${seed} attempt ${attempt}, which the run's plan does not have` })
      return
    }
    const id = rolloutKeyId(value)
    const first = slotOf.get(id)
    if (first !== undefined) {
      const earlier = JSON.parse(lineAt(first)) as EvalResult
      const same = JSON.stringify(earlier) === JSON.stringify(value)
      const was = `line ${entries.lines[first]}`
      if (!same && earlier.status === "error") {
        // `--retry-errors` ran the key again: the later try wins, the earlier stays in the file as history.
        entries.offsets[first] = offset
        entries.lengths[first] = bytes.length
        entries.lines[first] = line
        retried.push({ line: entries.lines[first]!, problem: `retries the errored result of ${was}` })
        return
      }
      if (same) {
        copies.push({ line, problem: `repeats ${was} exactly` })
      } else {
        contradicted.add(first)
        problems.push({
          line,
          problem: `holds a second, different result for seed ${seed} attempt ${attempt} (the first is ${was})`,
        })
      }
      return
    }
    slotOf.set(id, entries.seeds.length)
    entries.seeds.push(seed)
    entries.attempts.push(attempt)
    entries.offsets.push(offset)
    entries.lengths.push(bytes.length)
    entries.lines.push(line)
  }
  try {
    await forEachLine(path, check)
  } finally {
    closeSync(fd)
  }
  return { entries, problems, contradicted, copies, retried, torn, unterminated }
}
