import { statSync } from "node:fs"
import { basename, join } from "node:path"
import {
  defaults,
  type LiveRunState,
  openRunReader,
  RESULTS_FILE,
  type RunReader,
  STEPS_FILE,
  type StoreError,
} from "@proctor/core"
import { progressOfSummary, RunningSummary } from "@proctor/report"
import { Duration, Effect, Option, Schedule, type Scope, Stream } from "effect"
import type { RolloutRow } from "../apiShapes.js"
import { rolloutRow } from "../rolloutRow.js"
import { agentEventsOfDirectory } from "./internal/agentEventsOfDirectory.js"
import { inFlightOfDirectory } from "./internal/inFlightOfDirectory.js"
import { yieldToEventLoop } from "./internal/yieldToEventLoop.js"

import { ViewerError } from "./ViewerError.js"
import type { ViewerRun } from "./ViewerRun.js"

const unavailable = (error: StoreError) => new ViewerError({ reason: "Unavailable", message: error.message })

interface Source {
  readonly name: string
  /** The run's reader; null while the run has no directory yet (a live eval before its start). */
  readonly reader: () => Effect.Effect<RunReader | null, StoreError>
  /** Brings the reader up to date before it is read (a live eval's); a followed directory is refreshed by its poll. */
  readonly refreshBeforeRead: boolean
  readonly live: LiveRunState | null
  /** A followed directory: true while another process still writes it (see `WRITTEN_LATELY_MS`). */
  readonly writtenLately?: () => boolean
  readonly watch: (onChange: () => void) => () => void
}

/**
 * A run directory without a summary is followed as running while it was written this recently: a run killed hours
 * ago is not shown as acting, and no agent's turn takes this long without a step.
 */
const WRITTEN_LATELY_MS = 10 * 60_000

const makeRun = (source: Source): ViewerRun => {
  let running: RunningSummary | null = null
  const refreshLock = Effect.unsafeMakeSemaphore(1)

  const current = Effect.flatMap(Effect.suspend(source.reader), (reader) =>
    reader === null || !source.refreshBeforeRead ? Effect.succeed(reader) : Effect.as(refresh(reader), reader),
  ).pipe(Effect.mapError(unavailable))

  const refresh = (reader: RunReader) => refreshLock.withPermits(1)(reader.refresh())

  /** Folds the rows not yet counted into the running summary (built on first use). */
  const runningSummary = (reader: RunReader) =>
    Effect.gen(function* () {
      const config = reader.manifest?.config
      if (config === undefined) return null
      running ??= new RunningSummary(config)
      const summary = running
      yield* Stream.runForEach(reader.results(summary.added), (result) => Effect.sync(() => summary.add(result)))
      return summary.summary(reader.manifest?.run_id ?? source.name)
    }).pipe(Effect.mapError(unavailable))

  /** Another process is running it (`proctor view` of a directory being written) and it has rollouts acting. */
  const runningElsewhere = (reader: RunReader) =>
    source.live === null &&
    reader.summary() === null &&
    source.writtenLately?.() === true &&
    reader.unfinishedKeys().length > 0

  const passThreshold = (reader: RunReader) => reader.manifest?.config.pass_threshold ?? defaults.pass_threshold

  return {
    head: Effect.gen(function* () {
      const reader = yield* current
      const live = source.live
      const following = live !== null && !live.finished
      if (reader === null) {
        const progress = live?.progress() ?? null
        return {
          name: source.name,
          run_id: live?.runId ?? source.name,
          live: following,
          config: null,
          summary: null,
          progress,
          started_at: null,
        }
      }
      const stored = reader.summary()
      // A stored summary covers the run only if it counts every row: a resumed run's is its last session's.
      const finished = stored !== null && stored.completed === reader.count() && !following
      const summary = finished ? stored : yield* runningSummary(reader)
      const progress =
        live !== null ? live.progress() : finished || summary === null ? null : progressOfSummary(summary)
      return {
        name: source.name,
        run_id: reader.manifest?.run_id ?? live?.runId ?? source.name,
        live: following || (summary !== null && runningElsewhere(reader)),
        config: reader.manifest?.config ?? null,
        summary,
        progress,
        started_at: reader.manifest?.created_at ?? null,
      }
    }),
    rows: (from, limit) =>
      Effect.gen(function* () {
        const reader = yield* current
        const count = reader?.count() ?? 0
        if (reader === null || from >= count) return { rows: [], next: from, complete: true }
        const threshold = passThreshold(reader)
        const rows: Array<RolloutRow> = []
        // Chunk by chunk, each result dropped once it is a row, with the event loop let in between: a rollout
        // asked for while a big page is read is answered between two chunks, not after the page.
        yield* reader.results(from).pipe(
          Stream.take(limit),
          Stream.runForEachChunk((results) => {
            for (const r of results) rows.push(rolloutRow(r, reader.callCount(r.seed, r.attempt), threshold))
            return yieldToEventLoop
          }),
          Effect.mapError(unavailable),
        )
        const next = from + rows.length
        return { rows, next, complete: next >= count }
      }),
    rollout: (seed, attempt) =>
      Effect.flatMap(current, (reader) =>
        reader === null
          ? Effect.succeed(Option.none())
          : reader
              .rollout(seed, attempt)
              .pipe(
                Effect.map(Option.map((record) => ({ result: record.result, calls: record.calls }))),
                Effect.mapError(unavailable),
              ),
      ),
    steps: (seed, attempt) =>
      Effect.flatMap(current, (reader) =>
        reader === null ? Effect.succeed([]) : Effect.mapError(reader.steps(seed, attempt), unavailable),
      ),
    agentEvents: (seed, attempt) =>
      Effect.flatMap(current, (reader) =>
        reader === null ? Effect.succeed([]) : agentEventsOfDirectory(reader.dir, seed, attempt),
      ),
    live: Effect.flatMap(current, (reader) => {
      if (source.live !== null) return Effect.sync(() => source.live?.view() ?? null)
      if (reader === null || !runningElsewhere(reader)) return Effect.succeed(null)
      return Effect.flatMap(runningSummary(reader), (summary) =>
        summary === null ? Effect.succeed(null) : Effect.mapError(inFlightOfDirectory(reader, summary), unavailable),
      )
    }),
    results: Stream.unwrap(
      Effect.map(current, (reader) =>
        reader === null ? Stream.empty : Stream.mapError(reader.results(0), unavailable),
      ),
    ),
    watch: source.watch,
  }
}

/** When the run's journal or steps were last written (epoch ms; 0 when neither exists). */
const lastWrittenMs = (dir: string): number =>
  Math.max(
    0,
    ...[RESULTS_FILE, STEPS_FILE].map((name) => statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0),
  )

/**
 * A run directory on disk (`proctor view DIR`), followed while another process may still write it: every
 * `followEveryMs` the reader indexes what was appended, and watchers hear of new rows, new steps and of a summary
 * written.
 */
export const openRunDirectoryRun = (
  dir: string,
  options: { readonly name?: string | undefined; readonly followEveryMs?: number | undefined } = {},
): Effect.Effect<ViewerRun, StoreError, Scope.Scope> =>
  Effect.gen(function* () {
    const reader = yield* openRunReader(dir)
    const watchers = new Set<() => void>()
    let writtenAtMs = lastWrittenMs(dir)
    const run = makeRun({
      name: options.name ?? basename(dir),
      reader: () => Effect.succeed(reader),
      refreshBeforeRead: false,
      live: null,
      writtenLately: () => Date.now() - writtenAtMs < WRITTEN_LATELY_MS,
      watch: (onChange) => {
        watchers.add(onChange)
        return () => watchers.delete(onChange)
      },
    })
    const poll = Effect.gen(function* () {
      const before = { count: reader.count(), steps: reader.stepTotal(), summarized: reader.summary() !== null }
      yield* reader.refresh()
      if (
        reader.count() !== before.count ||
        reader.stepTotal() !== before.steps ||
        (reader.summary() !== null) !== before.summarized
      ) {
        writtenAtMs = Date.now()
        for (const watcher of watchers) watcher()
      }
    }).pipe(Effect.catchAll((error) => Effect.logWarning(`cannot follow ${dir}: ${error.message}`)))
    yield* Effect.forkScoped(Effect.repeat(poll, Schedule.spaced(Duration.millis(options.followEveryMs ?? 1_000))))
    return run
  })

/**
 * The run a `proctor eval --view` is running: its rows from its run directory (opened once the run has started
 * and brought up to date on each read), its in-flight work from its events.
 */
export const liveRunDirectoryRun = (live: LiveRunState, name: string): ViewerRun => {
  let reader: RunReader | null = null
  return makeRun({
    name,
    reader: () =>
      reader !== null || live.runDir === null
        ? Effect.succeed(reader)
        : Effect.map(openRunReader(live.runDir), (opened) => {
            reader = opened
            return opened
          }),
    refreshBeforeRead: true,
    live,
    watch: (onChange) => live.watch(onChange),
  })
}
