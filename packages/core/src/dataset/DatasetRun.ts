import { Effect, Layer } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { runJudgesOrNone } from "../grader/GradedSolver.js"
import type { GraderError } from "../grader/Grader.js"
import { makeGraderSet } from "../grader/GraderSet.js"
import { type GraderSpec, graderName } from "../grader/GraderSpec.js"
import { referenceProblemOf } from "../grader/RuleGraders.js"
import { missingHumanLabels } from "../judge/JudgeObservations.js"
import { Solver } from "../solver/Solver.js"
import { describeRow, loadDataset } from "./Dataset.js"
import { datasetSolver, type RowPrompt } from "./DatasetSolver.js"
import { loadDatasetTools } from "./DatasetTools.js"
import { compileItemTemplate, type ItemTemplate, TemplateProblem } from "./ItemTemplate.js"

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** A grader that cannot be built (a bad regex, a code module that does not load) is a config problem: exit 2. */
export const graderSetupError = (specs: ReadonlyArray<GraderSpec>) => (error: GraderError) => {
  const index = specs.findIndex((spec) => graderName(spec) === error.grader)
  return invalid(`${index < 0 ? "graders" : `graders[${index}]`} (${error.grader}): ${error.message}`)
}

const compiled = (key: "prompt" | "system", source: string | undefined) =>
  Effect.try({
    try: () => (source === undefined ? undefined : compileItemTemplate(source)),
    catch: (error) => invalid(`${key}: the template ${(error as Error).message}`),
  })

/**
 * A dataset run, opened: its rows read, every planned row's prompt filled in and every grader's reference found in
 * it (a missing column is one line naming the column and the row, before anything runs), every judge's
 * `human_labels` column found in the file, its graders built.
 */
export const openDatasetRun = Effect.fn("DatasetRun.open")(function* (config: EvalRunConfig) {
  if (config.dataset === undefined || config.prompt === undefined) {
    return yield* invalid("a dataset run needs `dataset` and `prompt`")
  }
  const dataset = yield* loadDataset(config.dataset)
  const user = (yield* compiled("prompt", config.prompt)) as ItemTemplate
  const system = yield* compiled("system", config.system)
  const tools = config.tools === undefined ? undefined : yield* loadDatasetTools(config.tools)
  const specs = config.graders ?? []
  const referenceProblems = specs.map(referenceProblemOf)
  const prompts = new Map<number, RowPrompt>()
  for (const seed of new Set(config.seeds)) {
    const item = dataset.rows[seed]
    if (item === undefined) {
      return yield* invalid(
        `seeds: ${seed} is past the dataset's last row (${dataset.rows.length} rows: seeds 0-${dataset.rows.length - 1})`,
      )
    }
    const fill = <A>(key: string, template: { readonly render: (item: Readonly<Record<string, unknown>>) => A }): A => {
      try {
        return template.render(item)
      } catch (error) {
        if (error instanceof TemplateProblem)
          throw invalid(
            `${key}: ${describeRow(dataset, seed)} of ${dataset.path} has ${error.message.replace(/^no /, "no ")}`,
          )
        throw error
      }
    }
    const filled = yield* Effect.try({
      try: () => ({
        system: system === undefined ? "" : fill("system", system),
        user: fill("prompt", user),
        ...(tools === undefined ? {} : { tools: fill("tools", tools) }),
      }),
      catch: (error) => (error instanceof ConfigError ? error : invalid(String(error))),
    })
    prompts.set(seed, filled)
    for (const [index, problemOf] of referenceProblems.entries()) {
      const problem = problemOf(item)
      if (problem !== null) {
        return yield* invalid(`graders[${index}].${problem} in ${describeRow(dataset, seed)} of ${dataset.path}`)
      }
    }
  }
  const unlabelled = missingHumanLabels(specs, config.judge, (column) =>
    dataset.rows.some((row) => Object.hasOwn(row, column)),
  )
  if (unlabelled !== null) {
    return yield* invalid(`${unlabelled.key}: no row of ${dataset.path} has a column "${unlabelled.column}"`)
  }
  const graders = yield* Effect.mapError(makeGraderSet(specs, config.judge), graderSetupError(specs))
  return {
    dataset,
    solver: Layer.effect(
      Solver,
      Effect.map(runJudgesOrNone, (judges) => datasetSolver(config, dataset, prompts, graders, judges)),
    ),
    taskIdOf: (seed: number) => dataset.ids[seed] ?? seed,
  }
})
