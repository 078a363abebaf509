import { basename } from "node:path"
import { ConfigError, isGridRunDir, type StoreError } from "@proctor/core"
import { viewerPage } from "@proctor/viewer"
import {
  type GridSpec,
  openGridDirectoryRuns,
  openRunDirectoryRun,
  runDirectoriesAt,
  serveViewerLocally,
  type ViewerRun,
} from "@proctor/viewer/backend"
import { Effect, type Scope } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { openInBrowser } from "../internal/openInBrowser.js"
import { signalListener } from "../internal/signalListener.js"
import type { ViewOptions } from "../program/view.js"

/** How often a run directory is looked at for rows another process appended. */
const FOLLOW_EVERY_MS = 1_000

/** Each run's name is its directory's; two directories of one name are told apart by the path given. */
const namesOf = (dirs: ReadonlyArray<string>) => {
  const names = dirs.map((dir) => basename(dir.replace(/[/\\]+$/, "")) || dir)
  return names.map((name, i) => (names.indexOf(name) === names.lastIndexOf(name) ? name : dirs[i]!))
}

/** Run directories, or a folder of them, each a run named by its directory. */
const openRunDirectories = (paths: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const dirs = (yield* Effect.forEach(paths, runDirectoriesAt)).flat()
    const names = namesOf(dirs)
    return yield* Effect.forEach(dirs, (dir, i) =>
      openRunDirectoryRun(dir, { name: names[i], followEveryMs: FOLLOW_EVERY_MS }),
    )
  })

/** What the viewer shows: a grid run directory's variants and its grid, or run directories. */
const openViewed = (
  paths: ReadonlyArray<string>,
): Effect.Effect<
  { readonly runs: ReadonlyArray<ViewerRun>; readonly grid?: GridSpec },
  ConfigError | StoreError,
  Scope.Scope
> => {
  const grid = paths.find(isGridRunDir)
  if (grid === undefined) return Effect.map(openRunDirectories(paths), (runs) => ({ runs }))
  if (paths.length > 1) {
    return Effect.fail(
      new ConfigError({
        reason: "InvalidValue",
        message: `${grid} is a grid run directory: view it on its own (proctor view ${grid})`,
      }),
    )
  }
  return openGridDirectoryRuns(grid, { followEveryMs: FOLLOW_EVERY_MS })
}

/**
 * `proctor view RUN_DIR…`: the viewer over run directories, until Ctrl-C; a folder of runs (`runs/`) stands for the
 * run directories in it, newest first; a grid run directory for its variants, with its grid page. Each directory is
 * indexed (no result is kept in memory) and followed, so a run another process is still writing shows its new rows
 * as they land.
 */
export const viewCommand = (runDirs: ReadonlyArray<string>, options: ViewOptions, io: Io): Effect.Effect<ExitCode> => {
  const port = options.port ?? 0
  return Effect.scoped(
    Effect.gen(function* () {
      const signalled = yield* signalListener
      const { runs, grid } = yield* openViewed(runDirs)
      const page = viewerPage({ mode: "local", base: "api", ...(grid === undefined ? {} : { grid: true }) })
      const { url } = yield* serveViewerLocally({ runs, grid, page, port })
      io.stdout.write(`proctor view: ${url} (Ctrl-C to stop)\n`)
      if (options.open === true) openInBrowser(url, io.stderr)
      yield* signalled
      return ExitCode.Ok
    }),
  ).pipe(
    Effect.catchTags({
      ConfigError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor view: ${error.message}\n`)
          return ExitCode.Usage
        }),
      StoreError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor view: ${error.message}\n`)
          return error.reason === "Io" ? ExitCode.Failed : ExitCode.Usage
        }),
      ViewerServeError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor view: --port: ${error.message}\n`)
          return error.reason === "PortInUse" ? ExitCode.Usage : ExitCode.Failed
        }),
    }),
  )
}
