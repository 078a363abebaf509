import { closeSync, openSync, readSync, statSync } from "node:fs"
import { join } from "node:path"
import { type RolloutStep, rolloutKeyId, type StoreError, storeIoError } from "@proctor/core"
import { Effect } from "effect"

/** The run directory's step journal: one `RolloutStep` per line, appended as an agent's rollouts act. */
export const STEPS_FILE = "steps.jsonl"

/** A rollout's steps, every try of it, in the order they were written. */
export type ReadRolloutSteps = (seed: number, attempt: number) => Effect.Effect<ReadonlyArray<RolloutStep>, StoreError>

export interface StepsReader {
  /** Indexes what was appended since the last call; true when something was. */
  readonly refresh: () => Effect.Effect<boolean, StoreError>
  readonly steps: ReadRolloutSteps
}

const READ_BYTES = 1024 * 1024

/** Null for a run without steps (no file), without an exception per look: a report looks once per rollout. */
const sizeOf = (path: string): { readonly size: number; readonly ino: number } | null => {
  const stats = statSync(path, { throwIfNoEntry: false })
  return stats === undefined ? null : { size: stats.size, ino: stats.ino }
}

const readBytes = (path: string, offset: number, length: number): Buffer => {
  const buffer = Buffer.allocUnsafe(length)
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

/** A step's own `"seed":N` and `"attempt":N` (a quote inside a string value is escaped, so these are its keys). */
const SEED = /[{,]"seed":(-?\d+)[,}]/
const ATTEMPT = /[{,]"attempt":(\d+)[,}]/

/** The rollout a line is a step of, read without parsing the line; null for a line that is no step. */
const keyOfLine = (line: string): string | null => {
  const seed = SEED.exec(line)?.[1]
  const attempt = ATTEMPT.exec(line)?.[1]
  if (seed !== undefined && attempt !== undefined && line.endsWith("}")) {
    return rolloutKeyId({ seed: Number(seed), attempt: Number(attempt) })
  }
  try {
    const step = JSON.parse(line) as Partial<RolloutStep>
    return typeof step.seed === "number" && typeof step.attempt === "number"
      ? rolloutKeyId({ seed: step.seed, attempt: step.attempt })
      : null
  } catch {
    // A line that is not a step (cut by a crash) is no rollout's.
    return null
  }
}

/**
 * Reads a run directory's `steps.jsonl` by rollout: an index of each rollout's lines by byte offset (no step kept
 * in memory), extended as the file grows, so a viewer follows a rollout still acting. A file that is absent is a
 * run without steps. Until core's RunReader reads steps itself, this is the viewer's reader of them.
 */
export const openStepsReader = (dir: string): StepsReader => {
  const path = join(dir, STEPS_FILE)
  let lines = new Map<string, Array<readonly [offset: number, length: number]>>()
  let indexed = 0
  let ino = -1

  const indexAppended = (): boolean => {
    const file = sizeOf(path)
    if (file === null) return false
    if (file.ino !== ino || file.size < indexed) {
      lines = new Map()
      indexed = 0
      ino = file.ino
    }
    const grew = file.size > indexed
    while (indexed < file.size) {
      const bytes = readBytes(path, indexed, Math.min(READ_BYTES, file.size - indexed))
      const last = bytes.lastIndexOf(0x0a)
      if (last < 0) {
        // One line longer than a read, or a line still being written: take it whole once it ends.
        const rest = readBytes(path, indexed, file.size - indexed)
        const end = rest.indexOf(0x0a)
        if (end < 0) break
        index(rest.subarray(0, end + 1), indexed)
        indexed += end + 1
        continue
      }
      index(bytes.subarray(0, last + 1), indexed)
      indexed += last + 1
    }
    return grew
  }

  const index = (bytes: Buffer, at: number) => {
    let from = 0
    for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, from)) {
      const key = keyOfLine(bytes.toString("utf8", from, end))
      if (key !== null) {
        const own = lines.get(key)
        if (own === undefined) lines.set(key, [[at + from, end - from]])
        else own.push([at + from, end - from])
      }
      from = end + 1
    }
  }

  const refresh = () => Effect.try({ try: indexAppended, catch: storeIoError(`cannot index ${path}`) })

  return {
    refresh,
    steps: (seed, attempt) =>
      Effect.zipRight(
        refresh(),
        Effect.try({
          try: () =>
            (lines.get(rolloutKeyId({ seed, attempt })) ?? []).flatMap(([offset, length]) => {
              const text = readBytes(path, offset, length).toString("utf8")
              try {
                return [JSON.parse(text) as RolloutStep]
              } catch {
                // A step cut short by a crash, with the next session's first step glued to it: left out, as the
                // run reader leaves out such a model call.
                return []
              }
            }),
          catch: storeIoError(`cannot read ${path}`),
        }),
      ),
  }
}
