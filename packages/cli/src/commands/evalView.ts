import { LiveRunState, type RunEvent } from "@proctor/core"
import { viewerPage } from "@proctor/viewer"
import { liveRunDirectoryRun, serveViewerLocally } from "@proctor/viewer/backend"
import { Effect } from "effect"
import type { Io } from "../Io.js"
import { signalListener } from "../internal/signalListener.js"

/** `proctor eval --view`: the viewer of the run in progress, fed by its events. */
export interface EvalViewer {
  readonly onEvent: (event: RunEvent) => void
  /**
   * Once the run has ended, the viewer stays until Ctrl-C, so its results can be looked at; a run that Ctrl-C
   * interrupted was already asked to stop, and the viewer closes with it.
   */
  readonly afterRun: (interrupted: boolean) => Effect.Effect<void>
}

export const startEvalViewer = (name: string, io: Io) =>
  Effect.gen(function* () {
    const live = new LiveRunState()
    const { url } = yield* serveViewerLocally({
      runs: [liveRunDirectoryRun(live, name)],
      page: viewerPage({ mode: "local", base: "api" }),
    })
    io.stderr.write(`viewer: ${url}\n`)
    return {
      onEvent: live.onEvent,
      afterRun: (interrupted) =>
        interrupted
          ? Effect.void
          : Effect.scoped(
              Effect.gen(function* () {
                // Listening before the line is printed: a Ctrl-C sent on seeing it is the viewer's, never a kill.
                const received = yield* signalListener
                io.stderr.write(`the run has ended; the viewer stays at ${url} until Ctrl-C\n`)
                yield* received
              }),
            ),
    } satisfies EvalViewer
  })
