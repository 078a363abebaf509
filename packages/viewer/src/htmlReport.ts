import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import {
  type EvalResult,
  type RolloutStep,
  type RunReader,
  type StoreError,
  TRACES_DIR,
  traceFileName,
} from "@proctor/core"
import {
  compareResults,
  comparisonThreshold,
  ReportWriteError,
  RunningSummary,
  runIdOf,
  summaryPlanOf,
} from "@proctor/report"
import { Effect, Option, Stream } from "effect"
import { type ComparisonView, type RolloutDetail, type RolloutRow, type RunHead, rolloutKey } from "./apiShapes.js"
import { type GridSpec, GridViewBuilder } from "./gridView.js"
import { rolloutRow } from "./rolloutRow.js"
import { embeddedDataTag, embeddedRolloutTag, viewerPageParts } from "./viewerPage.js"

/** Transcripts embedded at most, by default: a 50 MB file still opens in a browser in a few seconds. */
export const DEFAULT_TRANSCRIPT_BUDGET_BYTES = 50 * 1024 * 1024

export interface HtmlReportRun {
  /** How the page names the run (its directory, as given). */
  readonly name: string
  readonly reader: RunReader
}

export interface HtmlReportOptions {
  readonly runs: ReadonlyArray<HtmlReportRun>
  readonly file: string
  /** Bytes of rollout transcripts (JSON) the file embeds at most; every row is embedded regardless. */
  readonly transcriptBudgetBytes?: number
  /** The runs are this grid run's variants, in its order: the file opens on the grid's page. */
  readonly grid?: GridSpec
}

export interface HtmlReportWritten {
  readonly rollouts: number
  /** Rollouts whose transcript is in the file, and those left out to stay within the budget. */
  readonly transcripts: number
  readonly omitted: number
  readonly bytes: number
}

/** Which transcripts a reader wants first: errors, then wrong answers, then the rest. */
const priorityOf = (row: RolloutRow): number => (row.status === "error" ? 0 : row.passed === false ? 1 : 2)

interface Candidate {
  readonly run: number
  readonly seed: number
  readonly attempt: number
  readonly priority: number
  readonly bytes: number
}

/** A rollout's trace file (`traces/`), or undefined when it has none or it cannot be read. */
const traceFile = (reader: RunReader, seed: number, attempt: number): unknown => {
  const name = traceFileName(seed, attempt, reader.manifest?.config.attempts ?? 1)
  try {
    return JSON.parse(readFileSync(join(reader.dir, TRACES_DIR, name), "utf8"))
  } catch {
    return undefined
  }
}

/**
 * A rollout as the file embeds it. The task app's trace (from `traces/`; the journal does not hold it) comes
 * along only when no model call was intercepted (`--no-intercept`): it is then the only transcript, and
 * otherwise it repeats the calls. An agent's rollout brings its timeline (its steps).
 */
const detailOf = (reader: RunReader, record: RolloutDetail, steps: ReadonlyArray<RolloutStep>): RolloutDetail => {
  const timeline = steps.length === 0 ? {} : { steps }
  if (record.calls.length > 0) {
    return { result: { ...record.result, trace: undefined }, calls: record.calls, ...timeline }
  }
  const trace = record.result.trace ?? traceFile(reader, record.result.seed, record.result.attempt)
  return { result: { ...record.result, trace }, calls: record.calls, ...timeline }
}

interface RunScan {
  readonly head: RunHead
  readonly rows: Array<RolloutRow>
  readonly candidates: Array<Candidate>
  /** Kept only to compare two runs. */
  readonly results: Array<EvalResult>
}

/** The run's summary as last written, or (a run stopped before writing one) computed from its results, as the runner does. */
const scanRun = (index: number, run: HtmlReportRun, keepResults: boolean, grid: GridViewBuilder | null) =>
  Effect.gen(function* () {
    const { reader } = run
    const config = reader.manifest?.config ?? null
    const passThreshold = config?.pass_threshold ?? 1
    const running = new RunningSummary(summaryPlanOf(reader))
    const rows: Array<RolloutRow> = []
    const candidates: Array<Candidate> = []
    const results: Array<EvalResult> = []
    yield* Stream.runForEach(reader.results(), (result) =>
      Effect.map(
        Effect.zip(reader.rollout(result.seed, result.attempt), reader.steps(result.seed, result.attempt)),
        ([record, timeline]) => {
          const calls = Option.match(record, { onNone: () => [], onSome: (r) => r.calls })
          const row = rolloutRow(result, calls.length, passThreshold)
          rows.push(row)
          running.add(result)
          grid?.add(index, result)
          if (keepResults) results.push({ ...result, trace: undefined })
          if (Option.isSome(record)) {
            const bytes = JSON.stringify(detailOf(reader, record.value, timeline)).length
            candidates.push({
              run: index,
              seed: result.seed,
              attempt: result.attempt,
              priority: priorityOf(row),
              bytes,
            })
          }
        },
      ),
    )
    const head: RunHead = {
      index,
      name: run.name,
      run_id: reader.manifest?.run_id ?? run.name,
      live: false,
      config,
      summary: reader.summary() ?? running.summary(runIdOf(reader)),
      progress: null,
      started_at: reader.manifest?.created_at ?? null,
    }
    return { head, rows, candidates, results } satisfies RunScan
  })

/** Failures first, then by run, seed and attempt; each that still fits in the budget is kept. */
const chooseTranscripts = (candidates: ReadonlyArray<Candidate>, budget: number): Array<Candidate> => {
  const ordered = [...candidates].sort(
    (x, y) => x.priority - y.priority || x.run - y.run || x.seed - y.seed || x.attempt - y.attempt,
  )
  const chosen: Array<Candidate> = []
  let used = 0
  for (const candidate of ordered) {
    if (used + candidate.bytes > budget) continue
    used += candidate.bytes
    chosen.push(candidate)
  }
  return chosen
}

/**
 * `proctor report RUN_DIR… --html FILE`: the viewer as one self-contained HTML file with the runs' data in it
 * (shared-notes VIEWER_API.md, mode `embedded`). Every row is embedded; transcripts up to the budget, errors and
 * wrong answers first, and the page says how many were left out. With two runs, their comparison too; a grid run's
 * variants, its grid page.
 * Written piece by piece (transcripts are read again one at a time, never all held), to FILE.partial, then renamed.
 */
export const writeHtmlReport = (
  options: HtmlReportOptions,
): Effect.Effect<HtmlReportWritten, ReportWriteError | StoreError> =>
  Effect.gen(function* () {
    const budget = options.transcriptBudgetBytes ?? DEFAULT_TRANSCRIPT_BUDGET_BYTES
    const compare = options.runs.length === 2
    const grid = options.grid === undefined ? null : new GridViewBuilder(options.grid)
    const scans = yield* Effect.forEach(options.runs, (run, index) => scanRun(index, run, compare, grid))
    const chosen = chooseTranscripts(
      scans.flatMap((scan) => scan.candidates),
      budget,
    )
    const total = scans.reduce((sum, scan) => sum + scan.rows.length, 0)
    const candidates = scans.reduce((sum, scan) => sum + scan.candidates.length, 0)
    const comparison: ComparisonView | undefined = compare
      ? compareResults(scans[0]!.results, scans[1]!.results, {
          passThreshold: comparisonThreshold(scans[0]!.head.config),
        })
      : undefined
    const partial = `${options.file}.partial`
    const failed = (cause: unknown) =>
      new ReportWriteError({ path: options.file, message: cause instanceof Error ? cause.message : String(cause) })
    const fd = yield* Effect.try({ try: () => openSync(partial, "w"), catch: failed })
    let bytes = 0
    const write = (text: string) =>
      Effect.try({
        try: () => {
          bytes += writeSync(fd, text)
        },
        catch: failed,
      })
    const written = Effect.gen(function* () {
      const { before, after } = viewerPageParts({ mode: "embedded", base: "" })
      const head = {
        runs: scans.map((scan) => scan.head),
        rows: scans.map((scan) => scan.rows),
        omitted: candidates - chosen.length,
        ...(comparison === undefined ? {} : { comparison }),
        ...(grid === null ? {} : { grid: grid.view(comparisonThreshold(scans[0]?.head.config)) }),
      }
      yield* write(`${before}${embeddedDataTag(head)}`)
      for (const { run, seed, attempt } of chosen) {
        const reader = options.runs[run]!.reader
        const record = yield* reader.rollout(seed, attempt)
        if (Option.isSome(record)) {
          const steps = yield* reader.steps(seed, attempt)
          yield* write(embeddedRolloutTag(rolloutKey(run, seed, attempt), detailOf(reader, record.value, steps)))
        }
      }
      yield* write(after)
    })
    yield* written.pipe(
      Effect.ensuring(Effect.sync(() => closeSync(fd))),
      Effect.tapError(() => Effect.sync(() => rmSync(partial, { force: true }))),
    )
    yield* Effect.try({ try: () => renameSync(partial, options.file), catch: failed })
    return { rollouts: total, transcripts: chosen.length, omitted: candidates - chosen.length, bytes }
  })
