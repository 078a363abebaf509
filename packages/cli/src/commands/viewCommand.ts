import { basename } from "node:path"
import { viewerPage } from "@proctor/viewer"
import { openRunDirectoryRun, runDirectoriesAt, serveViewerLocally } from "@proctor/viewer/backend"
import { Effect } from "effect"
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

/**
 * `proctor view RUN_DIR…`: the viewer over run directories, until Ctrl-C; a folder of runs (`runs/`) stands for the
 * run directories in it, newest first. Each directory is indexed (no result is kept in memory) and followed, so a
 * run another process is still writing shows its new rows as they land.
 */
export const viewCommand = (runDirs: ReadonlyArray<string>, options: ViewOptions, io: Io): Effect.Effect<ExitCode> => {
  const port = options.port ?? 0
  return Effect.scoped(
    Effect.gen(function* () {
      const signalled = yield* signalListener
      const dirs = (yield* Effect.forEach(runDirs, runDirectoriesAt)).flat()
      const names = namesOf(dirs)
      const runs = yield* Effect.forEach(dirs, (dir, i) =>
        openRunDirectoryRun(dir, { name: names[i], followEveryMs: FOLLOW_EVERY_MS }),
      )
      const { url } = yield* serveViewerLocally({ runs, page: viewerPage({ mode: "local", base: "api" }), port })
      io.stdout.write(`proctor view: ${url} (Ctrl-C to stop)\n`)
      if (options.open === true) openInBrowser(url, io.stderr)
      yield* signalled
      return ExitCode.Ok
    }),
  ).pipe(
    Effect.catchTags({
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
