import { existsSync } from "node:fs"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { Effect, Either } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { loadDataset } from "../dataset/Dataset.js"
import { type DatasetCursor, jsonlCursor } from "../dataset/DatasetCursor.js"
import { graderSetupError } from "../dataset/DatasetRun.js"
import type { RolloutInterception } from "../interceptor/Interceptor.js"
import { isRecord } from "../internal/isRecord.js"
import { JudgeError } from "../judge/JudgeError.js"
import { JudgeObservations } from "../judge/JudgeObservations.js"
import type { JudgeSettings } from "../judge/JudgeSettings.js"
import { RunJudges } from "../judge/RunJudges.js"
import { type EvalResult, rolloutKeyId } from "../result/EvalResult.js"
import { CHEAP_BATCH_BYTES, openJournalAppender } from "../store/JournalAppender.js"
import {
  configFromManifest,
  initRunDirectory,
  makeRunDirectoryStore,
  openJournal,
  type RunDirectoryManifest,
  readRunManifest,
  saveSummary,
} from "../store/RunDirectory.js"
import { SummaryAccumulator } from "../summary/Summary.js"
import { answerOfFinal, gradeWithJudges, itemOfFinal } from "./GradedSolver.js"
import { GraderError, type GraderInput } from "./Grader.js"
import { type GradeOutcome, makeGraderSet } from "./GraderSet.js"
import { type GraderSpec, graderName } from "./GraderSpec.js"

/** Where a run's grader sets live: `{run_dir}/grades/{name}/`, each a run directory of its own. */
export const GRADES_DIR = "grades"

export const graderSetDir = (runDir: string, name: string): string => join(runDir, GRADES_DIR, name)

const SET_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/

/** A set's default name: its graders' names, so grading again with the same graders resumes the same set. */
export const defaultGraderSetName = (specs: ReadonlyArray<GraderSpec>): string => specs.map(graderName).join("+")

export interface GradeRunOptions {
  readonly runDir: string
  readonly specs: ReadonlyArray<GraderSpec>
  /** The set's name (default: its graders' names joined by `+`). */
  readonly name?: string | undefined
  /** The judge of the set's model graders without one of their own; default: the run's `[eval.judge]`. */
  readonly judge?: JudgeSettings | undefined
  /**
   * The interceptor model graders ask their judges through (their calls land in the set's `model_calls.jsonl`);
   * without one, a model grader's rollouts fail saying so.
   */
  readonly interception?: RolloutInterception | undefined
  /** Where the judges' keys are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** Rollouts graded at once when a grader asks a judge (default: the run's concurrency). */
  readonly concurrency?: number | undefined
}

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/**
 * Where each reader of a run's rows (the grading, each judge's observations) gets them: a cursor of its own over a
 * JSONL dataset (each reads in seed order, holding one row); a CSV dataset read whole, once; without a dataset, what
 * each result's task said of its row. A row that cannot be read is a string saying why.
 */
type RowReader = () => (result: EvalResult) => Readonly<Record<string, unknown>> | string

const datasetRows = (path: string) =>
  Effect.gen(function* () {
    const cannotRead = (error: { readonly message: string }) =>
      invalid(`${error.message} (the run's dataset: run proctor grade from where the run was started)`)
    if (!/\.jsonl?$/i.test(path)) {
      const { rows } = yield* Effect.mapError(loadDataset(path), cannotRead)
      const reader: RowReader = () => (result) => rows[result.seed] ?? `dataset ${path} has no row ${result.seed + 1}`
      return reader
    }
    const first = yield* Effect.try({ try: () => jsonlCursor(path), catch: (error) => cannotRead(error as Error) })
    const opened = [first]
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const cursor of opened) cursor.close()
      }),
    )
    // The first reader takes the cursor opened above (a missing file is the command's error); the others open theirs.
    let spare: DatasetCursor | undefined = first
    const reader: RowReader = () => {
      const cursor = spare ?? jsonlCursor(path)
      if (cursor !== spare) opened.push(cursor)
      spare = undefined
      return (result) => cursor.row(result.seed)
    }
    return reader
  })

const taskRows: RowReader = () => (result) => itemOfFinal(result, result.seed)

/**
 * A stored result graded again: the set's score is its `score` (and, for task-app and agent runs, its
 * `verifier_score`, as at run time); its verdicts replace `grades`. A grader that cannot judge makes it an error.
 */
const compareKeys = (a: EvalResult, b: EvalResult) => a.seed - b.seed || a.attempt - b.attempt

const regraded = (
  result: EvalResult,
  outcome: GradeOutcome | GraderError | JudgeError,
  isDataset: boolean,
): EvalResult =>
  outcome instanceof GraderError || outcome instanceof JudgeError
    ? {
        ...result,
        score: null,
        status: "error",
        error_kind: outcome instanceof JudgeError ? "judge" : "verifier",
        error: `grader ${outcome.grader}: ${outcome.message}`,
      }
    : {
        ...result,
        score: outcome.score,
        verifier_score: isDataset ? result.verifier_score : outcome.score,
        grades: outcome.grades,
      }

/**
 * `proctor grade`: grades a finished run's stored answers with other graders, as a named set in the run directory
 * (`grades/{name}/`, a run directory of its own: `config.json` with the graders, `results.jsonl`, `summary.json`),
 * without calling the model. Results stream through one at a time (a 100,000-rollout run is never in memory), appended
 * in batches when every grader is a rule (each verdict at once otherwise): killed, it resumes after the last one
 * written. Errored rollouts are copied as they are.
 */
export const gradeRun = Effect.fn("gradeRun")(function* (options: GradeRunOptions) {
  const name = options.name ?? defaultGraderSetName(options.specs)
  if (!SET_NAME.test(name)) {
    return yield* invalid(`--name: ${JSON.stringify(name)} is not a set name (letters, digits, . _ + -)`)
  }
  const manifest: RunDirectoryManifest = yield* readRunManifest(options.runDir)
  const stored = yield* Either.mapLeft(configFromManifest(manifest, undefined), (wrong) =>
    invalid(`${options.runDir}/config.json cannot be read: ${wrong}`),
  )
  const judge = options.judge ?? stored.judge
  const config: EvalRunConfig = { ...stored, graders: options.specs, ...(judge === undefined ? {} : { judge }) }
  const isDataset = config.dataset !== undefined
  const rowReader = config.dataset === undefined ? taskRows : yield* datasetRows(config.dataset)
  const graders = yield* Effect.mapError(makeGraderSet(options.specs, judge), graderSetupError(options.specs))
  const dir = graderSetDir(options.runDir, name)
  if (existsSync(join(dir, "config.json"))) {
    const earlier = yield* readRunManifest(dir)
    if (!isDeepStrictEqual(earlier.config.graders, JSON.parse(JSON.stringify(options.specs)))) {
      return yield* invalid(`${dir} holds a set graded by other graders: give this one another --name`)
    }
  } else {
    yield* initRunDirectory(dir, manifest.run_id, config)
  }
  const earlier = yield* openJournal(dir, config)
  const source = yield* openJournal(options.runDir, stored)
  // Rules regrade in microseconds: a kill loses a batch of them at most. A code grader or a judge writes each verdict.
  const appender = yield* openJournalAppender(dir, graders.gradeSync === null ? 0 : CHEAP_BATCH_BYTES)
  const summary = new SummaryAccumulator({
    attempts: config.attempts,
    passThreshold: config.pass_threshold,
    clusterBy: config.cluster_by,
  })
  const itemOf = rowReader()
  // A set's judges store their calls in the set's own model_calls.jsonl, counted apart in its summary.
  const calls = graders.judged ? yield* makeRunDirectoryStore(dir, config) : null
  const judges =
    calls === null || options.interception === undefined
      ? RunJudges.none
      : RunJudges.make(
          { runId: manifest.run_id, interception: options.interception, env: options.env ?? process.env },
          (recorded) => Effect.orDie(calls.appendModelCalls(recorded)),
        )
  const gradeOne = (result: EvalResult): Effect.Effect<EvalResult> => {
    if (result.status !== "ok") return Effect.succeed(result)
    const item = itemOf(result)
    if (typeof item === "string") {
      const unread = new GraderError({ reason: "Unloadable", grader: "(dataset)", message: item })
      return Effect.succeed(regraded(result, unread, isDataset))
    }
    const input: GraderInput = { answer: answerOfFinal(result, []), item, ...toolCallsOf(result) }
    if (graders.gradeSync !== null) {
      return Effect.succeed(regraded(result, gradeSyncly(graders.gradeSync, input), isDataset))
    }
    const rollout = {
      rolloutId: `${manifest.run_id}-${name}-${rolloutKeyId(result)}`,
      seed: result.seed,
      attempt: result.attempt,
    }
    return gradeWithJudges(graders, judges, rollout, input).pipe(
      Effect.either,
      Effect.map((outcome) => regraded(result, Either.merge(outcome), isDataset)),
    )
  }
  // The set's judges' verdicts, beside the run's own judges' (named `run/…`): a second judge's agreement shows.
  const observations = judgeObservationsOf(options.specs, judge, rowReader, "")
  const runJudges = judgeObservationsOf(stored.graders ?? [], stored.judge, rowReader, `${RUN_GRADES}/`)
  const take = (result: EvalResult) => {
    summary.add(result)
    observations.add(result)
  }
  const started = Date.now()
  let graded = 0
  // Rules grade one result at a time (microseconds each); a set with judges asks several at once, appended in order.
  const width = graders.judged ? Math.max(1, options.concurrency ?? config.concurrency) : 1
  let pending: Array<EvalResult> = []
  const flush = Effect.suspend(() => {
    const taken = pending
    pending = []
    return Effect.flatMap(Effect.forEach(taken, gradeOne, { concurrency: width }), (nexts) => {
      for (const next of nexts) {
        const failed = appender.append(next)
        if (failed !== undefined) return failed
        take(next)
        graded++
      }
      return Effect.void
    })
  })
  // Both journals come in key order: walked side by side, a key graded by an earlier session is skipped, and the
  // summary takes the whole set's results in key order (earlier sessions' included), as a read-back would.
  const earlierResults = earlier.results()[Symbol.iterator]()
  let before = earlierResults.next()
  for (const result of source.results()) {
    if (runJudges.active) runJudges.add(result)
    while (before.done !== true && compareKeys(before.value, result) < 0) {
      take(before.value)
      before = earlierResults.next()
    }
    if (before.done !== true && compareKeys(before.value, result) === 0) {
      take(before.value)
      before = earlierResults.next()
      continue
    }
    pending.push(result)
    if (pending.length >= width) yield* flush
  }
  yield* flush
  for (; before.done !== true; before = earlierResults.next()) take(before.value)
  // The set's judges' calls, apart from the policy's (which the set did not make).
  const callSpending = calls?.callSpending === undefined ? undefined : yield* calls.callSpending(() => false)
  const runSummary = summary.summarize({
    runId: manifest.run_id,
    plannedKeys: source.size,
    missingKeys: [],
    durationMs: Date.now() - started,
    callSpending,
    judgeTrust: observations.active ? JudgeObservations.trustOf(observations, runJudges) : undefined,
  })
  yield* saveSummary(dir, runSummary)
  return { name, dir, graded, resumed: earlier.size, summary: runSummary }
}, Effect.scoped)

/** How the run's own verdicts are named beside a set's in the set's judge trust (`run/rubric`). */
const RUN_GRADES = "run"

const judgeObservationsOf = (
  specs: ReadonlyArray<GraderSpec>,
  evalJudge: JudgeSettings | undefined,
  rowReader: RowReader,
  prefix: string,
) => {
  const rowOf = rowReader()
  return new JudgeObservations({
    specs,
    evalJudge,
    rowOf: (result) => {
      const row = rowOf(result)
      return typeof row === "string" ? undefined : row
    },
    prefix,
  })
}

/** A rule set's verdicts without an Effect per rollout; its `GraderError` as a value. */
/** The tools a dataset run's model called, as its result stored them (`details.tool_calls`). */
const toolCallsOf = (result: EvalResult): Pick<GraderInput, "toolCalls"> => {
  const stored = isRecord(result.details) ? result.details.tool_calls : undefined
  return Array.isArray(stored) ? { toolCalls: stored as NonNullable<GraderInput["toolCalls"]> } : {}
}

const gradeSyncly = (grade: (input: GraderInput) => GradeOutcome, input: GraderInput): GradeOutcome | GraderError => {
  try {
    return grade(input)
  } catch (error) {
    if (error instanceof GraderError) return error
    throw error
  }
}
