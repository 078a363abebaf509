import { existsSync } from "node:fs"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { Effect, Either } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { type Dataset, loadDataset } from "../dataset/Dataset.js"
import { graderSetupError } from "../dataset/DatasetRun.js"
import type { EvalResult } from "../result/EvalResult.js"
import { CHEAP_BATCH_BYTES, openJournalAppender } from "../store/JournalAppender.js"
import {
  configFromManifest,
  initRunDirectory,
  openJournal,
  type RunDirectoryManifest,
  readRunManifest,
  saveSummary,
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
}

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** The row a stored result is graded against: its dataset row, else what its task said of it. */
const itemsOf = (dataset: Dataset | null) => (result: EvalResult) =>
  dataset === null ? itemOfFinal(result, result.seed) : (dataset.rows[result.seed] ?? {})

/**
 * A stored result graded again: the set's score is its `score` (and, for task-app and agent runs, its
 * `verifier_score`, as at run time); its verdicts replace `grades`. A grader that cannot judge makes it an error.
 */
const compareKeys = (a: EvalResult, b: EvalResult) => a.seed - b.seed || a.attempt - b.attempt

const regraded = (result: EvalResult, outcome: GradeOutcome | GraderError, isDataset: boolean): EvalResult =>
  outcome instanceof GraderError
    ? {
        ...result,
        score: null,
        status: "error",
        error_kind: "verifier",
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
  const config: EvalRunConfig = { ...stored, graders: options.specs }
  const dataset =
    config.dataset === undefined
      ? null
      : yield* Effect.mapError(loadDataset(config.dataset), (error) =>
          invalid(`${error.message} (the run's dataset: run proctor grade from where the run was started)`),
        )
  const graders = yield* Effect.mapError(makeGraderSet(options.specs), graderSetupError(options.specs))
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
  const itemOf = itemsOf(dataset)
  const started = Date.now()
  let graded = 0
  // Both journals come in key order: walked side by side, a key graded by an earlier session is skipped, and the
  // summary takes the whole set's results in key order (earlier sessions' included), as a read-back would.
  const earlierResults = earlier.results()[Symbol.iterator]()
  let before = earlierResults.next()
  for (const result of source.results()) {
    while (before.done !== true && compareKeys(before.value, result) < 0) {
      summary.add(before.value)
      before = earlierResults.next()
    }
    if (before.done !== true && compareKeys(before.value, result) === 0) {
      summary.add(before.value)
      before = earlierResults.next()
      continue
    }
    let next = result
    if (result.status === "ok") {
      const input: GraderInput = { answer: answerOfFinal(result, []), item: itemOf(result) }
      const outcome =
        graders.gradeSync === null
          ? yield* Effect.either(graders.grade(input)).pipe(Effect.map(Either.merge))
          : gradeSyncly(graders.gradeSync, input)
      next = regraded(result, outcome, dataset !== null)
    }
    const failed = appender.append(next)
    if (failed !== undefined) return yield* failed
    summary.add(next)
    graded++
  }
  for (; before.done !== true; before = earlierResults.next()) summary.add(before.value)
  const runSummary = summary.summarize({
    runId: manifest.run_id,
    plannedKeys: source.size,
    missingKeys: [],
    durationMs: Date.now() - started,
  })
  yield* saveSummary(dir, runSummary)
  return { name, dir, graded, resumed: earlier.size, summary: runSummary }
}, Effect.scoped)

/** A rule set's verdicts without an Effect per rollout; its `GraderError` as a value. */
const gradeSyncly = (grade: (input: GraderInput) => GradeOutcome, input: GraderInput): GradeOutcome | GraderError => {
  try {
    return grade(input)
  } catch (error) {
    if (error instanceof GraderError) return error
    throw error
  }
}
