import { closeSync, existsSync, openSync, readFileSync, readSync, type Stats, statSync } from "node:fs"
import { join } from "node:path"
import { Chunk, Effect, Either, Option, Stream } from "effect"
import { type EvalResult, type RolloutKey, rolloutKeyId } from "../result/EvalResult.js"
import type { ModelCall } from "../result/ModelCall.js"
import type { RolloutStep } from "../result/RolloutStep.js"
import type { RunSummary } from "../summary/Summary.js"
import { forEachLine } from "./internal/forEachLine.js"
import { KeyRanges } from "./internal/KeyRanges.js"
import { callLineKey, resultLineKey, stepLineKey } from "./internal/lineKey.js"
import { NumberColumn } from "./internal/NumberColumn.js"
import { decodeModelCalls } from "./ModelCallCodec.js"
import { StoreError, storeIoError } from "./ResultStore.js"
import {
  CONFIG_FILE,
  MODEL_CALLS_FILE,
  RESULTS_FILE,
  type RunDirectoryManifest,
  readRunManifest,
  STEPS_FILE,
  SUMMARY_FILE,
} from "./RunDirectory.js"

export interface RolloutRecord {
  readonly result: EvalResult
  /** The rollout's model calls as they were made, in start order (calls of failed tries included). */
  readonly calls: ReadonlyArray<ModelCall>
}

/** One reader of a run directory, for every tool that shows or exports a run (finished or still running). */
export interface RunReader {
  readonly dir: string
  /** config.json (null if absent or unreadable). */
  readonly manifest: RunDirectoryManifest | null
  /** summary.json as last written (null while running). */
  readonly summary: () => RunSummary | null
  /** Indexes what was appended since the last call (follows a run still being written); returns the rollout count. */
  readonly refresh: () => Effect.Effect<number, StoreError>
  readonly count: () => number
  /** Final results in journal order (one per seed/attempt), from index `from`; streams from disk, never all in memory. */
  readonly results: (from?: number) => Stream.Stream<EvalResult, StoreError>
  /** How many model calls the index holds for a rollout (0 if none), without reading them. */
  readonly callCount: (seed: number, attempt: number) => number
  /** How many steps the index holds for a key, every try's and session's (0 if none), without reading them. */
  readonly stepCount: (seed: number, attempt: number) => number
  /** How many steps the index holds, every rollout's: it grows as a run still acting appends steps. */
  readonly stepTotal: () => number
  /** Keys with steps but no result: the rollouts of a run still acting (or that a killed session left unfinished). */
  readonly unfinishedKeys: () => ReadonlyArray<RolloutKey>
  /**
   * A rollout's steps in the order they happened (every try's; `retry` tells them apart), read by byte offset: those
   * of the rollout that holds the key's result, or, while it has none (a rollout still running), of the latest
   * rollout seen for the key. Steps a killed session left for the key are not its result's, and are left out.
   */
  readonly steps: (seed: number, attempt: number) => Effect.Effect<ReadonlyArray<RolloutStep>, StoreError>
  /** One rollout with its model calls (reconstructed in full), read by byte offset: no scan. */
  readonly rollout: (seed: number, attempt: number) => Effect.Effect<Option.Option<RolloutRecord>, StoreError>
}

/** How far a file is indexed, and which file it was (a repair replaces the journal by a new file). */
interface Cursor {
  ino: number
  indexed: number
}

/**
 * Results read from disk per step of `results()`, through one buffer of the reader's: few enough that a viewer
 * request arriving while a rows page is read (a rollout opened) waits for one short step, not a long one.
 */
const RESULTS_PER_READ = 250
const READ_BUFFER_BYTES = 1024 * 1024
/** How the runner writes an errored result's status; inside a string value its quotes would be escaped. */
const ERROR_STATUS = Buffer.from('"status":"error"')

const statOrNull = (path: string): Stats | null => {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

/** Reads `length` bytes at `offset` into `buffer` (as long as that); returns what was read, a view of it. */
const readAt = (path: string, offset: number, length: number, buffer: Buffer): Buffer => {
  const fd = openSync(path, "r")
  try {
    let read = 0
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, offset + read)
      if (n === 0) break
      read += n
    }
    return buffer.subarray(0, read)
  } finally {
    closeSync(fd)
  }
}

/** A key as a small integer when it fits (no string per rollout), else as text. */
const keyOf = (seed: number, attempt: number): number | string =>
  attempt >= 0 && attempt < 1024 && Number.isSafeInteger(seed * 1024 + attempt)
    ? seed * 1024 + attempt
    : rolloutKeyId({ seed, attempt })

/** The key a `keyOf` id stands for. */
const keyOfId = (id: number | string): RolloutKey => {
  if (typeof id === "string") {
    const [seed, attempt] = id.split(":").map(Number)
    return { seed: seed!, attempt: attempt! }
  }
  const seed = Math.floor(id / 1024)
  return { seed, attempt: id - seed * 1024 }
}

/**
 * Where everything of a run is on disk, in typed columns: a result's line by its position in the journal,
 * and a rollout's model calls and steps as byte ranges of model_calls.jsonl and steps.jsonl (a try's calls are
 * written together, so most rollouts have one range). Only the key map holds an object per rollout.
 */
class RunIndex {
  readonly keys = new Map<number | string, number>()
  /** Per key: its result's position in the journal (-1 while it has none). */
  readonly keyResult = new NumberColumn()
  /** Per result, in journal order. */
  readonly resultOffset = new NumberColumn()
  readonly resultLength = new NumberColumn()
  /** Each key's lines of model_calls.jsonl and of steps.jsonl. */
  readonly calls = new KeyRanges()
  readonly steps = new KeyRanges()
  /** 1 when the result is an error (a later try may replace it), else 0. */
  readonly resultErrored = new NumberColumn()

  keySlot(seed: number, attempt: number): number {
    const id = keyOf(seed, attempt)
    let slot = this.keys.get(id)
    if (slot === undefined) {
      slot = this.keyResult.push(-1)
      this.keys.set(id, slot)
    }
    return slot
  }

  /**
   * A later line for a key already indexed is not a second rollout: a copy (the first one is kept), or a later
   * try of an errored key (`--retry-errors`), which wins as it does on resume.
   */
  addResult(seed: number, attempt: number, offset: number, length: number, errored: boolean): void {
    const slot = this.keySlot(seed, attempt)
    const existing = this.keyResult.at(slot)
    if (existing === -1) {
      this.keyResult.set(slot, this.resultOffset.push(offset))
      this.resultLength.push(length)
      this.resultErrored.push(errored ? 1 : 0)
    } else if (this.resultErrored.at(existing) === 1) {
      this.resultOffset.set(existing, offset)
      this.resultLength.set(existing, length)
      this.resultErrored.set(existing, errored ? 1 : 0)
    }
  }

  addCall(seed: number, attempt: number, offset: number, length: number): void {
    this.calls.add(this.keySlot(seed, attempt), offset, length)
  }

  addStep(seed: number, attempt: number, offset: number, length: number): void {
    this.steps.add(this.keySlot(seed, attempt), offset, length)
  }
}

/** A file replaced or cut back since it was indexed: what was indexed no longer describes it. */
const rewritten = (cursor: Cursor, stats: Stats | null) =>
  cursor.indexed > 0 && (stats === null || stats.ino !== cursor.ino || stats.size < cursor.indexed)

const readSummary = (path: string, last: { mtimeMs: number; summary: RunSummary | null }) => {
  const stats = statOrNull(path)
  if (stats === null) return { mtimeMs: -1, summary: null }
  if (stats.mtimeMs === last.mtimeMs) return last
  try {
    return { mtimeMs: stats.mtimeMs, summary: JSON.parse(readFileSync(path, "utf8")) as RunSummary }
  } catch {
    // Caught while being written: the last whole one stands until the next look.
    return last
  }
}

const makeRunReader = (dir: string, manifest: RunDirectoryManifest | null): RunReader => {
  const resultsPath = join(dir, RESULTS_FILE)
  const callsPath = join(dir, MODEL_CALLS_FILE)
  const stepsPath = join(dir, STEPS_FILE)
  const summaryPath = join(dir, SUMMARY_FILE)
  let index = new RunIndex()
  const results: Cursor = { ino: -1, indexed: 0 }
  const calls: Cursor = { ino: -1, indexed: 0 }
  const steps: Cursor = { ino: -1, indexed: 0 }
  let summary = { mtimeMs: -1, summary: null as RunSummary | null }
  let buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES)
  /** Bytes of a file through the reader's buffer: parse them before the next read. */
  const readBytes = (path: string, offset: number, length: number) => {
    if (length > buffer.length) buffer = Buffer.allocUnsafe(length)
    return readAt(path, offset, length, buffer)
  }

  /** Indexes a file's whole lines past its cursor; a line still being written is read again next time. */
  const follow = async (
    path: string,
    cursor: Cursor,
    stats: Stats | null,
    add: (bytes: Buffer, at: number) => void,
  ) => {
    if (stats === null || stats.size <= cursor.indexed) return
    cursor.ino = stats.ino
    cursor.indexed = await forEachLine(
      path,
      (bytes, offset, terminated) => terminated && add(bytes, offset),
      cursor.indexed,
    )
  }

  const indexAppended = async () => {
    const resultsStats = statOrNull(resultsPath)
    const callsStats = statOrNull(callsPath)
    const stepsStats = statOrNull(stepsPath)
    if (rewritten(results, resultsStats) || rewritten(calls, callsStats) || rewritten(steps, stepsStats)) {
      index = new RunIndex()
      results.indexed = 0
      calls.indexed = 0
      steps.indexed = 0
    }
    // Results read first, calls then looked at afresh: a rollout's calls are written before its result, so every
    // result read finds its calls. The results are indexed last, once their calls are: a reader asking between the
    // two reads (they await the disk) would see a result without its calls.
    const appended: Array<{ seed: number; attempt: number; offset: number; length: number; errored: boolean }> = []
    try {
      await follow(resultsPath, results, resultsStats, (bytes, offset) => {
        const key = resultLineKey(bytes)
        if (key !== null) appended.push({ ...key, offset, length: bytes.length, errored: bytes.includes(ERROR_STATUS) })
      })
      await follow(callsPath, calls, statOrNull(callsPath), (bytes, offset) => {
        const key = callLineKey(bytes)
        if (key !== null) index.addCall(key.seed, key.attempt, offset, bytes.length)
      })
      await follow(stepsPath, steps, statOrNull(stepsPath), (bytes, offset) => {
        const key = stepLineKey(bytes)
        if (key !== null) index.addStep(key.seed, key.attempt, offset, bytes.length)
      })
    } finally {
      for (const { seed, attempt, offset, length, errored } of appended) {
        index.addResult(seed, attempt, offset, length, errored)
      }
    }
    return index.resultOffset.length
  }

  const lock = Effect.unsafeMakeSemaphore(1)
  const refresh = () =>
    lock.withPermits(1)(
      Effect.tryPromise({ try: indexAppended, catch: storeIoError(`cannot index the run in ${dir}`) }),
    )

  const corrupt = (message: string) => new StoreError({ reason: "Corrupt", message })
  const parseResult = (bytes: Buffer, offset: number): EvalResult => {
    try {
      return JSON.parse(bytes.toString("utf8")) as EvalResult
    } catch {
      throw corrupt(`${resultsPath}: the line at byte ${offset} is no longer a result`)
    }
  }
  const failure = (what: string) => (cause: unknown) =>
    cause instanceof StoreError ? cause : storeIoError(what)(cause)

  /** Results `[from, to)`, read from disk in one piece (they are in file order). */
  const readResults = (from: number, to: number): Array<EvalResult> => {
    const start = index.resultOffset.at(from)
    const end = index.resultOffset.at(to - 1) + index.resultLength.at(to - 1)
    const bytes = readBytes(resultsPath, start, end - start)
    const read: Array<EvalResult> = []
    for (let i = from; i < to; i++) {
      const at = index.resultOffset.at(i) - start
      read.push(parseResult(bytes.subarray(at, at + index.resultLength.at(i)), index.resultOffset.at(i)))
    }
    return read
  }

  /**
   * How many results from `from` on one read takes: a bounded count and a bounded number of bytes, in file
   * order (a retried key's result lies further on in the file than the ones after it in the index).
   */
  const stepEnd = (from: number, end: number) => {
    const limit = index.resultOffset.at(from) + READ_BUFFER_BYTES
    let to = from + 1
    while (
      to < end &&
      to - from < RESULTS_PER_READ &&
      index.resultOffset.at(to) > index.resultOffset.at(to - 1) &&
      index.resultOffset.at(to) + index.resultLength.at(to) <= limit
    ) {
      to++
    }
    return to
  }

  /**
   * A rollout's stored calls. A line that is not JSON is left out: only a proctor from before torn lines were
   * cut could write one (a call cut short by a crash, the next session's first line glued to it), and those
   * stored every call whole, so no other call depends on it.
   */
  const linesOf = (path: string, ranges: KeyRanges, slot: number): Array<unknown> => {
    const lines: Array<unknown> = []
    ranges.forEach(slot, (offset, length) => {
      for (const line of readBytes(path, offset, length).toString("utf8").split("\n")) {
        try {
          lines.push(JSON.parse(line))
        } catch {
          // An older proctor's write cut short (see above).
        }
      }
    })
    return lines
  }

  /** The key's steps of one rollout: its result's, else the one seen last. */
  const stepsOf = (slot: number): Array<RolloutStep> => {
    const all = linesOf(stepsPath, index.steps, slot) as Array<RolloutStep>
    const position = index.keyResult.at(slot)
    const rolloutId = position === -1 ? all[all.length - 1]?.rollout_id : readResults(position, position + 1)[0]!.run_id
    return rolloutId === undefined ? all : all.filter((step) => step.rollout_id === rolloutId)
  }

  return {
    dir,
    manifest,
    summary: () => {
      summary = readSummary(summaryPath, summary)
      return summary.summary
    },
    refresh,
    count: () => index.resultOffset.length,
    callCount: (seed, attempt) => {
      const slot = index.keys.get(keyOf(seed, attempt))
      return slot === undefined ? 0 : index.calls.lines(slot)
    },
    stepCount: (seed, attempt) => {
      const slot = index.keys.get(keyOf(seed, attempt))
      return slot === undefined ? 0 : index.steps.lines(slot)
    },
    stepTotal: () => index.steps.total,
    unfinishedKeys: () => {
      const keys: Array<RolloutKey> = []
      for (const [id, slot] of index.keys) {
        if (index.keyResult.at(slot) === -1 && index.steps.lines(slot) > 0) keys.push(keyOfId(id))
      }
      return keys
    },
    steps: (seed, attempt) =>
      Effect.try({
        try: () => {
          const slot = index.keys.get(keyOf(seed, attempt))
          return slot === undefined ? [] : stepsOf(slot)
        },
        catch: failure(`cannot read the steps of seed ${seed} attempt ${attempt} of ${dir}`),
      }),
    results: (from = 0) => {
      // The results indexed when the stream starts: a live run's later ones are for the next call.
      const end = index.resultOffset.length
      return Stream.paginateChunkEffect(Math.max(0, from), (at) =>
        at >= end
          ? Effect.succeed([Chunk.empty<EvalResult>(), Option.none<number>()] as const)
          : Effect.try({
              try: () => {
                const to = stepEnd(at, end)
                return [Chunk.unsafeFromArray(readResults(at, to)), to < end ? Option.some(to) : Option.none()] as const
              },
              catch: failure(`cannot read ${resultsPath}`),
            }),
      )
    },
    rollout: (seed, attempt) =>
      Effect.try({
        try: () => {
          const slot = index.keys.get(keyOf(seed, attempt))
          const position = slot === undefined ? -1 : index.keyResult.at(slot)
          if (slot === undefined || position === -1) return Option.none()
          const result = readResults(position, position + 1)[0]!
          const decoded = decodeModelCalls(linesOf(callsPath, index.calls, slot))
          if (Either.isLeft(decoded)) throw corrupt(`${callsPath}: ${decoded.left}`)
          return Option.some({ result, calls: decoded.right })
        },
        catch: failure(`cannot read seed ${seed} attempt ${attempt} of ${dir}`),
      }),
  }
}

/**
 * Opens a run directory for reading (a run still being written too) and indexes it: one pass over its
 * files that keeps byte offsets, not results, so a 100,000-rollout run stays a few megabytes in memory.
 */
export const openRunReader = (dir: string): Effect.Effect<RunReader, StoreError> =>
  Effect.gen(function* () {
    const stats = statOrNull(dir)
    if (stats === null || !stats.isDirectory()) {
      return yield* new StoreError({ reason: "NotFound", message: `${dir} is not a directory` })
    }
    if (!existsSync(join(dir, CONFIG_FILE)) && !existsSync(join(dir, RESULTS_FILE))) {
      return yield* new StoreError({
        reason: "NotFound",
        message: `${dir} is not a run directory (it has neither ${CONFIG_FILE} nor ${RESULTS_FILE})`,
      })
    }
    const manifest = yield* readRunManifest(dir).pipe(Effect.orElseSucceed(() => null))
    const reader = makeRunReader(dir, manifest)
    yield* reader.refresh()
    return reader
  })
