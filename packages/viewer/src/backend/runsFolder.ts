import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { CONFIG_FILE, isGridRunDir, RESULTS_FILE, StoreError, storeIoError, VARIANTS_DIR } from "@proctor/core"
import { Effect } from "effect"

/** What makes a directory a run directory for the reader: its plan or its journal. */
const isRunDirectory = (dir: string): boolean =>
  existsSync(join(dir, CONFIG_FILE)) || existsSync(join(dir, RESULTS_FILE))

/** When a run started: its manifest's `created_at`, else when its directory last changed (a run without a plan). */
const startedMs = (dir: string): number => {
  try {
    const created = (JSON.parse(readFileSync(join(dir, CONFIG_FILE), "utf8")) as { created_at?: unknown }).created_at
    const ms = typeof created === "string" ? Date.parse(created) : Number.NaN
    if (Number.isFinite(ms)) return ms
  } catch {
    // No manifest, or one being written: the directory's own time stands in.
  }
  return statSync(dir).mtimeMs
}

/** The run directories a folder's entry stands for: itself, a grid run's variants, or none. */
const runsOfEntry = (dir: string): ReadonlyArray<string> => {
  if (isRunDirectory(dir)) return [dir]
  if (!isGridRunDir(dir)) return []
  const variants = join(dir, VARIANTS_DIR)
  if (!existsSync(variants)) return []
  return readdirSync(variants, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && isRunDirectory(join(variants, entry.name)))
    .map((entry) => join(variants, entry.name))
}

/**
 * What `proctor view PATH` shows of a path: the run directory itself, or — for a folder of runs such as `runs/` —
 * every run directory directly inside it, and every variant of a grid run inside it, newest first. A path that is
 * neither is refused with the reason.
 */
export const runDirectoriesAt = (path: string): Effect.Effect<ReadonlyArray<string>, StoreError> =>
  Effect.try({
    try: () => {
      const stats = existsSync(path) ? statSync(path) : null
      if (stats === null || !stats.isDirectory()) {
        throw new StoreError({ reason: "NotFound", message: `${path} is not a directory` })
      }
      if (isRunDirectory(path)) return [path]
      const runs = readdirSync(path, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .flatMap((entry) => runsOfEntry(join(path, entry.name)))
        .map((dir) => ({ dir, started: startedMs(dir) }))
        .sort((a, b) => b.started - a.started || a.dir.localeCompare(b.dir))
      if (runs.length === 0) {
        throw new StoreError({
          reason: "NotFound",
          message: `${path} is neither a run directory (it has no ${CONFIG_FILE} or ${RESULTS_FILE}) nor a folder of run directories`,
        })
      }
      return runs.map((run) => run.dir)
    },
    catch: (cause) => (cause instanceof StoreError ? cause : storeIoError(`cannot list the runs in ${path}`)(cause)),
  })
