import { Effect, Layer } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import type { Dataset } from "../dataset/Dataset.js"
import { datasetSolver, type RowPrompt } from "../dataset/DatasetSolver.js"
import { runJudgesOrNone } from "../grader/GradedSolver.js"
import { GraderError, type GraderInput, type GraderVerdict, type GraderVerdicts } from "../grader/Grader.js"
import { type GradeOutcome, type GraderSet, modelGrader, SCORE_GRADER } from "../grader/GraderSet.js"
import { JudgeClient } from "../judge/JudgeClient.js"
import type { JudgeError } from "../judge/JudgeError.js"
import type { JudgeSettings } from "../judge/JudgeSettings.js"
import { RunJudges } from "../judge/RunJudges.js"
import { Solver } from "../solver/Solver.js"
import type { ImportedCheck, ImportedEval, ImportedRow } from "./ImportedEval.js"
import { readImportedEval } from "./readImportedEval.js"

/** Where a check asks a judge, as the key path it was read from and its name: itself, or a set's members. */
const judgePathsOf = (check: ImportedCheck): ReadonlyArray<string> =>
  "model" in check || "judged" in check
    ? [`${check.path}: "${"model" in check ? (check.model.name ?? check.name) : check.name}"`]
    : "set" in check
      ? check.set.flatMap(judgePathsOf)
      : []

/**
 * The grader set of an imported eval: each row has its own checks (a promptfoo test its own assertions), found by
 * the row object the solver grades. The verdict named `score` is the row's own by its source's rule (promptfoo: the
 * weighted mean, passed when every assertion passed or the test's threshold was reached), so it is the run's score
 * and its pass rate is the source's pass rate; each check is a metric of its own beside it.
 */
export const importedGraderSet = (rows: ReadonlyArray<ImportedRow>, judge?: JudgeSettings): GraderSet => {
  const byItem = new Map<Readonly<Record<string, unknown>>, ImportedRow>(rows.map((row) => [row.item, row]))
  const names = [SCORE_GRADER, ...new Set(rows.flatMap((row) => row.checks.map((check) => check.name)))]
  const rowOf = (item: GraderInput["item"]): ImportedRow => {
    const row = byItem.get(item)
    if (row === undefined) {
      throw new GraderError({ reason: "BadResult", grader: SCORE_GRADER, message: "a row the import did not make" })
    }
    return row
  }
  const outcome = (row: ImportedRow, verdicts: ReadonlyArray<{ check: ImportedCheck; verdict: GraderVerdict }>) => {
    const overall = row.aggregate(verdicts)
    const grades: GraderVerdicts = {
      [SCORE_GRADER]: overall,
      ...Object.fromEntries(verdicts.map(({ check, verdict }) => [check.name, verdict])),
    }
    return { score: overall.score, grades }
  }
  const asGraderError = (error: unknown) =>
    error instanceof GraderError
      ? error
      : new GraderError({ reason: "Threw", grader: SCORE_GRADER, message: String(error), cause: error })
  const allRules = rows.every((row) => row.checks.every((check) => "rule" in check))
  const verdictOf = (
    check: ImportedCheck,
    input: GraderInput,
  ): Effect.Effect<GraderVerdict, GraderError | JudgeError, RunJudges> => {
    if ("rule" in check) return Effect.try({ try: () => check.rule(input.answer), catch: asGraderError })
    if ("run" in check) return check.run(input.answer, input.prompt ?? "")
    if ("set" in check) {
      // A set is one verdict by its own rule; its members' verdicts are its details.
      return Effect.map(
        Effect.forEach(check.set, (member) =>
          Effect.map(verdictOf(member, input), (verdict) => ({ check: member, verdict })),
        ),
        (verdicts) => ({
          ...check.aggregate(verdicts),
          details: Object.fromEntries(verdicts.map(({ check: member, verdict }) => [member.name, verdict])),
        }),
      )
    }
    if ("judged" in check) {
      const { model, temperature, max_tokens, grade } = check.judged
      if (judge === undefined) return new GraderError({ reason: "Unloadable", grader: check.name, message: "no judge" })
      // The run's judge (its endpoint and key), asked with the criterion's own model and settings.
      const settings: JudgeSettings = {
        ...judge,
        model,
        ...(temperature === undefined ? {} : { temperature }),
        ...(max_tokens === undefined ? {} : { max_tokens }),
      }
      return Effect.flatMap(RunJudges, (judges) =>
        Effect.flatMap(judges.clientOf(check.name, settings), (client) =>
          Effect.provideService(grade(input.answer, check.name), JudgeClient, client),
        ),
      )
    }
    return Effect.flatMap(modelGrader(check.name, check.model, judge), (grade) =>
      grade({
        answer: input.answer,
        item: check.item,
        ...(input.prompt === undefined ? {} : { prompt: input.prompt }),
      }),
    )
  }
  const gradeSync = ({ answer, item }: GraderInput): GradeOutcome => {
    const row = rowOf(item)
    return outcome(
      row,
      row.checks.map((check) => ({
        check,
        verdict: (check as { rule: (answer: string) => GraderVerdict }).rule(answer),
      })),
    )
  }
  return {
    specs: [],
    names,
    judged: rows.some((row) => row.checks.some((check) => judgePathsOf(check).length > 0)),
    gradeSync: allRules ? gradeSync : null,
    grade: (input) =>
      allRules
        ? Effect.try({ try: () => gradeSync(input), catch: asGraderError })
        : Effect.gen(function* () {
            const row = yield* Effect.try({ try: () => rowOf(input.item), catch: asGraderError })
            const verdicts = yield* Effect.forEach(row.checks, (check) =>
              Effect.map(verdictOf(check, input), (verdict) => ({ check, verdict })),
            )
            return outcome(row, verdicts)
          }),
  }
}

/** An imported eval as proctor's dataset run: its rows the dataset, its messages the prompts, its checks the graders. */
export const importedDatasetRun = (config: EvalRunConfig, imported: ImportedEval) => {
  const dataset: Dataset = {
    path: imported.source,
    rows: imported.rows.map((row) => row.item),
    ids: imported.rows.map((row) => row.id),
  }
  const prompts = new Map<number, RowPrompt>(
    imported.rows.map((row, seed) => [seed, { system: row.system, user: row.user }]),
  )
  return {
    dataset,
    solver: Layer.effect(
      Solver,
      Effect.map(runJudgesOrNone, (judges) =>
        datasetSolver(config, dataset, prompts, importedGraderSet(imported.rows, config.judge), judges),
      ),
    ),
    taskIdOf: (seed: number) => dataset.ids[seed] ?? seed,
  }
}

/** The run of a config that imports another tool's eval (`from_promptfoo`, `from_openai_evals`); null otherwise. */
export const openImportedRun = Effect.fn("Import.openRun")(function* (config: EvalRunConfig) {
  const imported = yield* readImportedEval(config)
  if (imported === null) return null
  for (const seed of config.seeds) {
    if (imported.rows[seed] === undefined) {
      return yield* new ConfigError({
        reason: "InvalidValue",
        message: `seeds: ${seed} is past the last test of ${imported.source} (${imported.rows.length} tests: seeds 0-${imported.rows.length - 1})`,
      })
    }
  }
  const judged = imported.rows.flatMap((row) => row.checks.flatMap(judgePathsOf))[0]
  if (judged !== undefined && config.judge === undefined) {
    return yield* new ConfigError({
      reason: "Missing",
      message: `${imported.source}: ${judged} asks a judge model: give one with --judge (or [eval.judge])`,
    })
  }
  return importedDatasetRun(config, imported)
})
