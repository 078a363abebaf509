import { existsSync } from "node:fs"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { Effect, Either } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { type Dataset, loadDataset } from "../dataset/Dataset.js"
import { graderSetupError } from "../dataset/DatasetRun.js"
import type { RolloutInterception } from "../interceptor/Interceptor.js"
import { JudgedRollout } from "../judge/JudgedRollout.js"
import { JudgeError } from "../judge/JudgeError.js"
import { JudgeObservations } from "../judge/JudgeObservations.js"
import type { JudgeSettings } from "../judge/JudgeSettings.js"
import { RunJudges } from "../judge/RunJudges.js"
import { type EvalResult, rolloutKeyId } from "../result/EvalResult.js"
import {
  configFromManifest,
  initRunDirectory,
  makeRunDirectoryStore,
  openJournal,
  type RunDirectoryManifest,
  readRunManifest,
} from "../store/RunDirectory.js"
import { SummaryAccumulator } from "../summary/Summary.js"
import { answerOfFinal, itemOfFinal } from "./GradedSolver.js"
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

/** The row a stored result is graded against: its dataset row, else what its task said of it. */
const itemsOf = (dataset: Dataset | null) => (result: EvalResult) =>
  dataset === null ? itemOfFinal(result, result.seed) : (dataset.rows[result.seed] ?? {})

/**
 * A stored result graded again: the set's score is its `score` (and, for task-app and agent runs, its
 * `verifier_score`, as at run time); its verdicts replace `grades`. A grader that cannot judge makes it an error.
 */
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
 * without calling the model. Results stream through one at a time (a 100,000-rollout run is never in memory), each
 * appended before the next is graded: killed, it resumes where it stopped. Errored rollouts are copied as they are.
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
  const dataset =
    config.dataset === undefined
      ? null
      : yield* Effect.mapError(loadDataset(config.dataset), (error) =>
          invalid(`${error.message} (the run's dataset: run proctor grade from where the run was started)`),
        )
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
  const done = new Set<string>()
  for (const result of (yield* openJournal(dir, config)).results()) done.add(rolloutKeyId(result))
  const source = yield* openJournal(options.runDir, stored)
  const store = yield* makeRunDirectoryStore(dir, config)
  const judges =
    options.interception === undefined
      ? RunJudges.none
      : RunJudges.make(
          { runId: manifest.run_id, interception: options.interception, env: options.env ?? process.env },
          (calls) => Effect.orDie(store.appendModelCalls(calls)),
        )
  const summary = new SummaryAccumulator({
    attempts: config.attempts,
    passThreshold: config.pass_threshold,
    clusterBy: config.cluster_by,
  })
  const itemOf = itemsOf(dataset)
  const started = Date.now()
  let graded = 0
  const gradeOne = (result: EvalResult): Effect.Effect<EvalResult> => {
    if (result.status !== "ok") return Effect.succeed(result)
    const input: GraderInput = { answer: answerOfFinal(result, []), item: itemOf(result) }
    if (graders.gradeSync !== null)
      return Effect.succeed(regraded(result, gradeSyncly(graders.gradeSync, input), dataset !== null))
    const rollout = {
      rolloutId: `${manifest.run_id}-${name}-${rolloutKeyId(result)}`,
      seed: result.seed,
      attempt: result.attempt,
    }
    return graders.grade(input).pipe(
      Effect.provideService(RunJudges, judges),
      Effect.provideService(JudgedRollout, rollout),
      Effect.either,
      Effect.map((outcome) => regraded(result, Either.merge(outcome), dataset !== null)),
    )
  }
  // Rule sets grade one result at a time (microseconds each); a set with judges asks several at once.
  const width = graders.judged ? Math.max(1, options.concurrency ?? config.concurrency) : 1
  let batch: Array<EvalResult> = []
  const flush = Effect.suspend(() => {
    const taken = batch
    batch = []
    return Effect.forEach(
      taken,
      (result) =>
        Effect.flatMap(gradeOne(result), (next) =>
          Effect.zipRight(
            store.append(next),
            Effect.sync(() => graded++),
          ),
        ),
      {
        concurrency: width,
        discard: true,
      },
    )
  })
  for (const result of source.results()) {
    if (done.has(rolloutKeyId(result))) continue
    batch.push(result)
    if (batch.length >= width) yield* flush
  }
  yield* flush
  // The summary is the whole set's, earlier sessions' results included: read back from the set's own journal.
  // Its judges' trust is read beside the run's own judges' verdicts, so a second judge's agreement with the first shows.
  const observations = judgeObservationsOf(options.specs, judge, dataset, "")
  const runJudges = judgeObservationsOf(stored.graders ?? [], stored.judge, dataset, `${RUN_GRADES}/`)
  for (const result of (yield* openJournal(dir, config)).results()) {
    summary.add(result)
    observations.add(result)
  }
  if (observations.active && runJudges.active) for (const result of source.results()) runJudges.add(result)
  // The set's judges' calls, apart from the policy's (which the set did not make).
  const callSpending = store.callSpending === undefined ? undefined : yield* store.callSpending(() => false)
  const runSummary = summary.summarize({
    runId: manifest.run_id,
    plannedKeys: source.size,
    missingKeys: [],
    durationMs: Date.now() - started,
    callSpending,
    judgeTrust: observations.active ? JudgeObservations.trustOf(observations, runJudges) : undefined,
  })
  yield* store.saveSummary(runSummary)
  return { name, dir, graded, resumed: done.size, summary: runSummary }
}, Effect.scoped)

/** How the run's own verdicts are named beside a set's in the set's judge trust (`run/rubric`). */
const RUN_GRADES = "run"

const judgeObservationsOf = (
  specs: ReadonlyArray<GraderSpec>,
  evalJudge: JudgeSettings | undefined,
  dataset: Dataset | null,
  prefix: string,
) => new JudgeObservations({ specs, evalJudge, rowOf: itemsOf(dataset), prefix })

/** A rule set's verdicts without an Effect per rollout; its `GraderError` as a value. */
const gradeSyncly = (grade: (input: GraderInput) => GradeOutcome, input: GraderInput): GradeOutcome | GraderError => {
  try {
    return grade(input)
  } catch (error) {
    if (error instanceof GraderError) return error
    throw error
  }
}
