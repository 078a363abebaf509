import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs"
import { appendFile, truncate } from "node:fs/promises"
import { join } from "node:path"
import { Effect, type Either, Layer } from "effect"
import {
  configFromRecord,
  type EvalRunConfig,
  type PublicEvalRunConfig,
  publicConfig,
} from "../config/EvalRunConfig.js"
import { splitSecrets } from "../config/withoutSecrets.js"
import { type EvalResult, rolloutKeyId } from "../result/EvalResult.js"
import type { RunSummary } from "../summary/Summary.js"
import { sumCallSpending } from "./internal/callSpending.js"
import { endLastLine } from "./internal/endLastLine.js"
import {
  type JournalEntries,
  type JournalPlan,
  type JournalProblem,
  type JournalScan,
  scanJournal,
} from "./internal/JournalScan.js"
import { encodeModelCalls } from "./ModelCallCodec.js"
import { ResultStore, type ResultStoreService, StoreError, storeIoError } from "./ResultStore.js"

export type { JournalPlan, JournalProblem }

export const RESULTS_FILE = "results.jsonl"
export const CONFIG_FILE = "config.json"
export const SUMMARY_FILE = "summary.json"
export const MODEL_CALLS_FILE = "model_calls.jsonl"
/** Steps of multi-step rollouts, one `RolloutStep` a line, written as they happen. */
export const STEPS_FILE = "steps.jsonl"
/** Command-line agents' own output, one `AgentEvent` a line, written as it arrives. */
export const AGENT_EVENTS_FILE = "agent_trajectory.jsonl"
export const TRACES_DIR = "traces"

/** synth-ai's trace file name; the attempt is added only when a run has several. */
export const traceFileName = (seed: number, attempt: number, attempts: number): string =>
  attempts > 1 ? `seed_${seed}_attempt_${attempt}_trace.json` : `seed_${seed}_trace.json`

export interface RunDirectoryManifest {
  readonly run_id: string
  readonly created_at: string
  readonly config: PublicEvalRunConfig
  readonly task_app_api_key_set: boolean
  /** Key paths of secrets left out of `config`; a resume must be given them again. */
  readonly omitted_secrets?: ReadonlyArray<string>
}

/** Syncs a directory, so a file just renamed into it is there after a crash too. */
const syncDirectory = (dir: string) => {
  const fd = openSync(dir, "r")
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

const partialName = (name: string) => `${name}.partial`

/** Writes a file whole or not at all: a crash leaves the old file (or none), never a part of the new one. */
export const writeFileAtomically = (dir: string, name: string, write: (fd: number) => void) => {
  const partial = join(dir, partialName(name))
  try {
    const fd = openSync(partial, "w")
    try {
      write(fd)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(partial, join(dir, name))
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
  syncDirectory(dir)
}

const holdsResults = (dir: string) => {
  const journal = join(dir, RESULTS_FILE)
  return existsSync(journal) && statSync(journal).size > 0
}

/**
 * Creates a new run directory, refusing one that already holds results (that is what --resume is for).
 * Its `config.json` appears whole or not at all: a directory is a run directory, resumable, only once the
 * plan is on disk, so a start killed before then leaves nothing to resume and can simply be run again.
 */
export const initRunDirectory = (dir: string, runId: string, config: EvalRunConfig) =>
  Effect.try({
    try: () => {
      if (holdsResults(dir)) return false
      mkdirSync(dir, { recursive: true })
      const manifest: RunDirectoryManifest = {
        run_id: runId,
        created_at: new Date().toISOString(),
        config: publicConfig(config),
        task_app_api_key_set: config.task_app_api_key !== null,
        omitted_secrets: [
          ...splitSecrets(config.policy_config, "policy_config").paths,
          ...splitSecrets(config.env_config, "env_config").paths,
        ],
      }
      writeFileAtomically(dir, CONFIG_FILE, (fd) => writeFileSync(fd, `${JSON.stringify(manifest, null, 2)}\n`))
      return true
    },
    catch: storeIoError(`cannot create run directory ${dir}`),
  }).pipe(
    Effect.filterOrFail(
      (created) => created,
      () =>
        new StoreError({
          reason: "AlreadyHasResults",
          message: `${dir} already holds results`,
          runDir: dir,
        }),
    ),
  )

const isManifest = (value: unknown): value is RunDirectoryManifest => {
  const config = (value as Partial<RunDirectoryManifest> | null)?.config
  return (
    typeof config === "object" && config !== null && Array.isArray(config.seeds) && Number.isInteger(config.attempts)
  )
}

/** Reads a run directory's manifest, to resume it. */
export const readRunManifest = (dir: string) =>
  Effect.suspend(() => {
    const path = join(dir, CONFIG_FILE)
    const notFound = (message: string) => Effect.fail(new StoreError({ reason: "NotFound", message }))
    const startCutShort = `the run's start was cut short before any rollout ran; start it again (proctor eval … --run-dir ${dir})`
    if (!existsSync(path)) {
      return existsSync(join(dir, partialName(CONFIG_FILE)))
        ? notFound(`${dir} has no ${CONFIG_FILE}: ${startCutShort}`)
        : notFound(`${dir} is not a run directory (it has no ${CONFIG_FILE})`)
    }
    let manifest: unknown
    try {
      manifest = JSON.parse(readFileSync(path, "utf8"))
    } catch {
      manifest = undefined
    }
    if (isManifest(manifest)) return Effect.succeed(manifest)
    // Only an earlier proctor, killed while writing it, leaves a config.json cut short.
    return holdsResults(dir)
      ? notFound(`${path} is unreadable, so the plan of the results in ${dir} is lost; they cannot be resumed`)
      : notFound(`${path} is unreadable: ${startCutShort}`)
  })

/** Rebuilds the runnable config from a manifest; the API key is never on disk and comes from the caller. */
export const configFromManifest = (
  manifest: RunDirectoryManifest,
  apiKey: string | undefined,
): Either.Either<EvalRunConfig, string> =>
  configFromRecord(manifest.config, { task_app_api_key: apiKey === undefined || apiKey === "" ? null : apiKey })

/** A run's journal, checked against its plan: one line per planned key, read back from disk one at a time. */
export interface Journal {
  /** Distinct (seed, attempt) keys. */
  readonly size: number
  /** Each key's result, in (seed, attempt) order. Can be iterated more than once. */
  readonly results: () => Iterable<EvalResult>
}

const listLines = (problems: ReadonlyArray<JournalProblem>) => {
  const shown = problems.slice(0, 5).map((p) => p.line)
  return `${shown.join(", ")}${problems.length > shown.length ? ", …" : ""}`
}

/** The first problem in full, and how many more lines are wrong, by number. */
const describeProblems = (path: string, problems: ReadonlyArray<JournalProblem>) => {
  const [first, ...rest] = problems
  const more =
    rest.length === 0
      ? ""
      : `; ${rest.length} more line${rest.length > 1 ? "s are" : " is"} not a result of the run's plan (line${rest.length > 1 ? "s" : ""} ${listLines(rest)})`
  return `${path} line ${first!.line} ${first!.problem}${more}`
}

/** What one read of a journal takes in: a thousand or so results. */
const READ_WINDOW_BYTES = 1024 * 1024

/**
 * Reads lines by offset through a window of the file: results in key order lie close together in the file (a
 * finished run wrote them about in that order), so a read-back of 100,000 results makes a hundred reads, not
 * 100,000. A line outside the window moves it there, a little before the line for a journal written out of order.
 */
const windowedReader = (fd: number) => {
  let window = Buffer.allocUnsafe(READ_WINDOW_BYTES)
  let start = 0
  let end = 0
  return (offset: number, length: number): string => {
    if (offset < start || offset + length > end) {
      start = Math.max(0, offset - READ_WINDOW_BYTES / 8)
      if (offset + length - start > window.length) window = Buffer.allocUnsafe(offset + length - start)
      end = start
      for (let got = -1; got !== 0 && end - start < window.length; end += got) {
        got = readSync(fd, window, end - start, window.length - (end - start), end)
      }
      if (offset + length > end) throw new Error(`the journal ends at byte ${end}, before its line at ${offset}`)
    }
    return window.toString("utf8", offset - start, offset - start + length)
  }
}

const readEntries = (path: string, entries: JournalEntries): Journal => {
  const order = Array.from(entries.seeds.keys()).sort(
    (a, b) => entries.seeds[a]! - entries.seeds[b]! || entries.attempts[a]! - entries.attempts[b]!,
  )
  return {
    size: order.length,
    results: function* () {
      if (order.length === 0) return
      const fd = openSync(path, "r")
      try {
        const read = windowedReader(fd)
        for (const slot of order) yield JSON.parse(read(entries.offsets[slot]!, entries.lengths[slot]!)) as EvalResult
      } finally {
        closeSync(fd)
      }
    },
  }
}

const scan = (path: string, plan: JournalPlan) =>
  Effect.tryPromise({ try: () => scanJournal(path, plan), catch: storeIoError(`cannot read ${path}`) })

/**
 * Opens the journal for a run of `plan`, without keeping results in memory (a 100,000-rollout run stays
 * small). Every line must be a result of a planned key, each key's at most once (an exact copy, and later
 * tries of an errored key, aside: the last try wins);
 * anything else fails as `Corrupt`, naming the line, and leaves the file as it is (see `repairJournal`).
 * Only the final line may be torn (a crash in the middle of a write): it is dropped and the file cut back
 * to its last whole line, so later appends start on a fresh line.
 */
export const openJournal = (dir: string, plan: JournalPlan) => {
  const path = join(dir, RESULTS_FILE)
  return scan(path, plan).pipe(
    Effect.filterOrFail(
      (journal) => journal.problems.length === 0,
      (journal) => new StoreError({ reason: "Corrupt", message: describeProblems(path, journal.problems) }),
    ),
    Effect.tap((journal) =>
      Effect.tryPromise({
        try: async () => {
          if (journal.torn !== null) await truncate(path, journal.torn.offset)
          else if (journal.unterminated) await appendFile(path, "\n")
        },
        catch: storeIoError(`cannot cut ${path} back to its last whole line`),
      }),
    ),
    Effect.map((journal) => readEntries(path, journal.entries)),
  )
}

/** Every key's result in memory, keyed by `seed:attempt`: for small runs and tests. */
export const readJournal = (dir: string, plan: JournalPlan) =>
  Effect.map(openJournal(dir, plan), (journal) => new Map(Array.from(journal.results(), (r) => [rolloutKeyId(r), r])))

export interface JournalRepair {
  /** A copy of the journal as it was, or null when nothing needed dropping (and the file was left alone). */
  readonly backup: string | null
  /** Every line dropped, in line order, with why. */
  readonly dropped: ReadonlyArray<JournalProblem>
}

/** What a repair drops: every problem line, both lines of a contradiction, exact copies, a torn end. */
const droppedLines = (journal: JournalScan): Array<JournalProblem> =>
  [
    ...journal.problems,
    ...Array.from(journal.contradicted, (slot) => ({
      line: journal.entries.lines[slot]!,
      problem: `holds a result for seed ${journal.entries.seeds[slot]} attempt ${journal.entries.attempts[slot]} that a later line contradicts; neither is kept, so the rollout runs again`,
    })),
    ...journal.copies,
    ...(journal.torn === null ? [] : [{ line: journal.torn.line, problem: "is a write cut short by a crash" }]),
  ].sort((a, b) => a.line - b.line)

const backupName = (path: string, now: Date) => `${path}.bak-${now.toISOString().replace(/[-:]/g, "")}`

/**
 * Keeps only the planned results of a journal: a backup of the file as it was is written first, then the
 * kept lines replace the journal in one rename. A key two lines disagree on keeps neither: no reader can
 * tell which one proctor wrote, and running the rollout again costs one rollout.
 */
export const repairJournal = (dir: string, plan: JournalPlan, now = new Date()) => {
  const path = join(dir, RESULTS_FILE)
  return Effect.flatMap(scan(path, plan), (journal) =>
    Effect.try({
      try: (): JournalRepair => {
        const dropped = droppedLines(journal)
        if (dropped.length === 0) return { backup: null, dropped }
        const backup = backupName(path, now)
        copyFileSync(path, backup, constants.COPYFILE_EXCL)
        const backupFd = openSync(backup, "r")
        fsyncSync(backupFd)
        closeSync(backupFd)
        const { entries } = journal
        const kept = Array.from(entries.lines.keys()).filter((slot) => !journal.contradicted.has(slot))
        const source = openSync(path, "r")
        try {
          writeFileAtomically(dir, RESULTS_FILE, (fd) => {
            for (const slot of kept) {
              const line = Buffer.allocUnsafe(entries.lengths[slot]! + 1)
              readSync(source, line, 0, line.length - 1, entries.offsets[slot]!)
              line[line.length - 1] = 0x0a
              writeFileSync(fd, line)
            }
          })
        } finally {
          closeSync(source)
        }
        return { backup, dropped }
      },
      catch: storeIoError(`cannot repair ${path}`),
    }),
  )
}

/** Writes a run directory's `summary.json`. */
export const saveSummary = (dir: string, summary: RunSummary) =>
  Effect.try({
    try: () => writeFileSync(join(dir, SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`),
    catch: storeIoError(`cannot write ${join(dir, SUMMARY_FILE)}`),
  })

/**
 * The CLI's store: an append-only JSONL journal in the run directory. Each result is written with one
 * synchronous write before the runner counts it: it is then in the kernel's page cache, so a killed process
 * (kill -9, a crash of proctor) loses at most the rollouts in flight, but a power loss or a kernel crash may also
 * lose the results of the last half-minute or so (the kernel's writeback delay), which a resume runs again (a torn
 * last line is cut off). The files are synced when the store closes. An fdatasync per batch of results (a group
 * commit) cost 35-40% of zero-work throughput, over the 10% allowed (bench/RESULTS.md, "issue 20: durability").
 * Traces go to their own files first, so the journal never points at a trace that is not there.
 */
export const makeRunDirectoryStore = (dir: string, plan: JournalPlan) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        mkdirSync(join(dir, TRACES_DIR), { recursive: true })
        const callsPath = join(dir, MODEL_CALLS_FILE)
        const stepsPath = join(dir, STEPS_FILE)
        endLastLine(callsPath)
        endLastLine(stepsPath)
        endLastLine(join(dir, AGENT_EVENTS_FILE))
        return {
          fd: openSync(join(dir, RESULTS_FILE), "a"),
          callsFd: openSync(callsPath, "a"),
          // Opened at the first step: runs without steps keep no empty file.
          stepsFd: null as number | null,
          agentEventsFd: null as number | null,
        }
      },
      catch: storeIoError(`cannot open the results journal in ${dir}`),
    }),
    (files) =>
      Effect.sync(() => {
        const { fd, callsFd, stepsFd, agentEventsFd } = files
        for (const file of [fd, callsFd, stepsFd, agentEventsFd]) {
          if (file === null) continue
          fsyncSync(file)
          closeSync(file)
        }
      }),
  ).pipe(
    Effect.map((files): ResultStoreService => {
      const { fd, callsFd } = files
      const journalPath = join(dir, RESULTS_FILE)
      const appendFailed = storeIoError(`cannot append to ${journalPath}`)
      const callsFailed = storeIoError(`cannot append to ${join(dir, MODEL_CALLS_FILE)}`)
      const stepsFailed = storeIoError(`cannot append to ${join(dir, STEPS_FILE)}`)
      const agentEventsFailed = storeIoError(`cannot append to ${join(dir, AGENT_EVENTS_FILE)}`)
      const writeTrace = (result: EvalResult) =>
        writeFileSync(
          join(dir, TRACES_DIR, traceFileName(result.seed, result.attempt, plan.attempts)),
          JSON.stringify(result.trace),
        )
      return {
        location: dir,
        completed: Effect.map(openJournal(dir, plan), (journal) => journal.results()),
        append: (result) =>
          Effect.try({
            try: () => {
              if (result.trace === undefined || result.trace === null) {
                writeSync(fd, `${JSON.stringify(result)}\n`)
              } else {
                writeTrace(result)
                // JSON.stringify drops undefined members: the trace lives in its own file.
                writeSync(fd, `${JSON.stringify({ ...result, trace: undefined })}\n`)
              }
            },
            catch: appendFailed,
          }),
        appendModelCalls: (calls) =>
          calls.length === 0
            ? Effect.void
            : Effect.try({
                // One write per rollout: each call relative to the previous one of the list, which is the same rollout's.
                try: () =>
                  writeSync(
                    callsFd,
                    encodeModelCalls(calls)
                      .map((call) => `${JSON.stringify(call)}\n`)
                      .join(""),
                  ),
                catch: callsFailed,
              }),
        appendSteps: (steps) =>
          steps.length === 0
            ? Effect.void
            : Effect.try({
                // One write, so a crash tears at most the last line (cut back by the next session's `endLastLine`).
                try: () => {
                  files.stepsFd ??= openSync(join(dir, STEPS_FILE), "a")
                  writeSync(files.stepsFd, steps.map((step) => `${JSON.stringify(step)}\n`).join(""))
                },
                catch: stepsFailed,
              }),
        appendAgentEvents: (events) =>
          events.length === 0
            ? Effect.void
            : Effect.try({
                try: () => {
                  files.agentEventsFd ??= openSync(join(dir, AGENT_EVENTS_FILE), "a")
                  writeSync(files.agentEventsFd, events.map((event) => `${JSON.stringify(event)}\n`).join(""))
                },
                catch: agentEventsFailed,
              }),
        callSpending: (errored) =>
          Effect.tryPromise({
            // Calls are written with one synchronous write each, so the file is whole when this reads it.
            try: () => sumCallSpending(join(dir, MODEL_CALLS_FILE), errored),
            catch: storeIoError(`cannot read ${join(dir, MODEL_CALLS_FILE)}`),
          }),
        saveSummary: (summary) => saveSummary(dir, summary),
      }
    }),
  )

export const RunDirectoryStoreLayer = (dir: string, plan: JournalPlan) =>
  Layer.scoped(ResultStore, makeRunDirectoryStore(dir, plan))
