import { mkdir, writeFile } from "node:fs/promises"
import { basename, join } from "node:path"
import { ReportWriteError } from "@proctor/report"
import { Effect } from "effect"
import { unzipSync } from "fflate"

/** A trace file name the server may send: `seed_{seed}[_attempt_{n}]_trace.json` or any plain `*.json` name. */
const SAFE_NAME = /^[\w.-]+\.json$/

const baseName = (entryName: string) => basename(entryName.replaceAll("\\", "/"))
const isTraceName = (name: string) => SAFE_NAME.test(name) && !name.startsWith(".")

/**
 * Writes the JSON files of a job's trace zip into `dir` (flattened: only base names, never a path the
 * archive chose, so an entry like `../../x.json` cannot escape), and returns the paths written.
 */
export const extractTraces = (
  archive: Uint8Array,
  dir: string,
): Effect.Effect<ReadonlyArray<string>, ReportWriteError> =>
  Effect.gen(function* () {
    const entries = yield* Effect.try({
      try: () => unzipSync(archive, { filter: (entry) => isTraceName(baseName(entry.name)) }),
      catch: (error) => new ReportWriteError({ path: dir, message: `the traces zip: ${(error as Error).message}` }),
    })
    const fail = (path: string) => (error: unknown) =>
      new ReportWriteError({ path, message: error instanceof Error ? error.message : String(error) })
    // No traces, no folder: an empty one would look like a download that lost its files.
    if (Object.keys(entries).length === 0) return []
    yield* Effect.tryPromise({ try: () => mkdir(dir, { recursive: true }), catch: fail(dir) })
    const written: Array<string> = []
    for (const [entryName, data] of Object.entries(entries)) {
      const path = join(dir, baseName(entryName))
      yield* Effect.tryPromise({ try: () => writeFile(path, data), catch: fail(path) })
      written.push(path)
    }
    return written
  })
