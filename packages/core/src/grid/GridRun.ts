import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Either, Layer, Schema } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import { type EvalRunConfig, publicConfig } from "../config/EvalRunConfig.js"
import {
  continueEvalRun,
  type EvalRunOptions,
  makeRunId,
  openResumedRun,
  type ResumedRun,
  type ResumeOptions,
  taskAppSolverLayer,
} from "../eval/EvalRun.js"
import type { RunEvent } from "../events/RunEvents.js"
import { withRunEvents } from "../events/withRunEvents.js"
import { makeRunControl, type RunControl } from "../runner/RunControl.js"
import type { RunOutcome } from "../runner/Runner.js"
import { withDeadline } from "../runner/Runner.js"
import { Solver, type SolverService } from "../solver/Solver.js"
import { StoreError, storeIoError } from "../store/ResultStore.js"
import { CONFIG_FILE, initRunDirectory, writeFileAtomically } from "../store/RunDirectory.js"
import { expandGridVariants, type GridVariant, variantConfig } from "./GridVariants.js"

/** A grid run's directory holds `grid.json` and one run directory per variant under `variants/`. */
export const GRID_FILE = "grid.json"
export const VARIANTS_DIR = "variants"

export const variantRunDir = (gridDir: string, name: string): string => join(gridDir, VARIANTS_DIR, name)

const GridManifest = Schema.Struct({
  grid_id: Schema.String,
  created_at: Schema.String,
  variants: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      model: Schema.optionalWith(Schema.String, { exact: true }),
      prompt: Schema.optionalWith(Schema.String, { exact: true }),
      system: Schema.optionalWith(Schema.String, { exact: true }),
      inference_url: Schema.optionalWith(Schema.String, { exact: true }),
    }),
  ),
})
/** `grid.json`: the grid's id and its variants in order, each with what it sets; each variant's plan is its own. */
export type GridManifest = typeof GridManifest.Type

/** True when `dir` is a grid run's directory. */
export const isGridRunDir = (dir: string): boolean => existsSync(join(dir, GRID_FILE))

/** Reads a grid run's `grid.json`. */
export const readGridManifest = (dir: string) =>
  Effect.try({
    try: () => JSON.parse(readFileSync(join(dir, GRID_FILE), "utf8")) as unknown,
    catch: storeIoError(`cannot read ${join(dir, GRID_FILE)}`),
  }).pipe(
    Effect.flatMap(Schema.decodeUnknown(GridManifest)),
    Effect.mapError((error) =>
      error._tag === "StoreError"
        ? error
        : new StoreError({ reason: "Corrupt", message: `${join(dir, GRID_FILE)} is not a grid manifest` }),
    ),
  )

/** A variant's solver and task ids, made from its own config (a dataset run's prompts are the variant's). */
export type VariantSolving = (
  config: EvalRunConfig,
) => Effect.Effect<Pick<EvalRunOptions, "solver" | "taskIdOf">, ConfigError>

export interface GridRunOptions extends Pick<EvalRunOptions, "interception" | "retryErrors"> {
  readonly control?: RunControl | undefined
  /** Default: the HTTP task-app solver of the variant's config. */
  readonly solving?: VariantSolving | undefined
  /** Every variant's run events, with the variant's name. */
  readonly onEvent?: ((variant: string, event: RunEvent) => void) | undefined
}

export interface GridOutcome {
  readonly gridId: string
  readonly runDir: string
  readonly variants: ReadonlyArray<{ readonly variant: GridVariant; readonly outcome: RunOutcome }>
  /** True when a stop left some variant's keys missing (resumable). */
  readonly interrupted: boolean
}

/**
 * The variants' solvers share one pool of `concurrency` rollouts in flight: each rollout's try takes a permit,
 * and its deadline starts once it has one (waiting for a permit is not the rollout's time).
 */
const gatedSolver = (permits: Effect.Semaphore, timeoutS: number) =>
  Layer.effect(
    Solver,
    Effect.map(Solver, (inner): SolverService => {
      const solve = withDeadline(inner, timeoutS)
      return { ...inner, enforcesTimeout: true, solve: (task) => permits.withPermits(1)(solve(task)) }
    }),
  )

const variantSolver = (config: EvalRunConfig, options: GridRunOptions, permits: Effect.Semaphore) =>
  Effect.map(
    options.solving === undefined
      ? Effect.succeed<Pick<EvalRunOptions, "solver" | "taskIdOf">>({})
      : options.solving(config),
    ({ solver, taskIdOf }) => ({
      solver: gatedSolver(permits, config.timeout_s).pipe(Layer.provide(solver ?? taskAppSolverLayer(config))),
      taskIdOf,
    }),
  )

/** A variant ready to run: its directory initialised (or found, on resume), its config. */
interface OpenedVariant {
  readonly variant: GridVariant
  readonly run: ResumedRun
}

/** Runs the opened variants at once, each in its own run directory, and collects their outcomes in order. */
const runVariants = (gridId: string, runDir: string, opened: ReadonlyArray<OpenedVariant>, options: GridRunOptions) =>
  Effect.gen(function* () {
    const permits = yield* Effect.makeSemaphore(opened[0]?.run.config.concurrency ?? 1)
    const control = options.control ?? makeRunControl()
    const outcomes = yield* Effect.forEach(
      opened,
      ({ variant, run }) => {
        const go = (events?: EvalRunOptions["events"]) =>
          Effect.flatMap(variantSolver(run.config, options, permits), (solving) =>
            continueEvalRun(run, {
              ...solving,
              control,
              events,
              interception: options.interception,
              retryErrors: options.retryErrors,
            }),
          )
        const onEvent = options.onEvent
        return Effect.map(
          onEvent === undefined ? go() : withRunEvents((event) => onEvent(variant.name, event), go),
          (outcome) => ({ variant, outcome }),
        )
      },
      { concurrency: "unbounded" },
    )
    return {
      gridId,
      runDir,
      variants: outcomes,
      interrupted: outcomes.some(({ outcome }) => outcome.interrupted),
    } satisfies GridOutcome
  })

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/**
 * Starts a grid run: `config.variants` expanded, every variant's run directory made (`variants/{name}/`, its own
 * config, the same seeds), then `grid.json` written, then every variant run at once, sharing `concurrency`. A
 * start killed before `grid.json` is written left nothing to resume and runs again; after, `continueGridRun`
 * resumes it from each variant's journal.
 */
export const startGridRun = Effect.fn("GridRun.start")(function* (
  config: EvalRunConfig,
  runDir: string | null | undefined,
  options: GridRunOptions = {},
) {
  if (config.variants === undefined) return yield* invalid("a grid run needs variants")
  const variants = yield* Either.mapLeft(expandGridVariants(config, config.variants), invalid)
  const gridId = makeRunId(config)
  const dir = runDir ?? join("runs", gridId)
  if (isGridRunDir(dir) || existsSync(join(dir, CONFIG_FILE))) {
    return yield* new StoreError({ reason: "AlreadyHasResults", message: `${dir} already holds a run`, runDir: dir })
  }
  const opened: Array<OpenedVariant> = []
  for (const variant of variants) {
    const own = variantConfig(config, variant)
    const run: ResumedRun = {
      runId: `${gridId}.${variant.name}`,
      runDir: variantRunDir(dir, variant.name),
      config: own,
      changes: [],
    }
    yield* initRunDirectory(run.runDir, run.runId, own)
    opened.push({ variant, run })
  }
  const manifest = {
    grid_id: gridId,
    created_at: new Date().toISOString(),
    variants: variants.map(({ name, model, prompt, system, inference_url }) => ({
      name,
      ...(model === undefined ? {} : { model }),
      ...(prompt === undefined ? {} : { prompt }),
      ...(system === undefined ? {} : { system }),
      ...(inference_url === undefined ? {} : { inference_url }),
    })),
    config: publicConfig(config),
  }
  yield* Effect.try({
    try: () => writeFileAtomically(dir, GRID_FILE, (fd) => writeFileSync(fd, `${JSON.stringify(manifest, null, 2)}\n`)),
    catch: storeIoError(`cannot write ${join(dir, GRID_FILE)}`),
  })
  return yield* runVariants(gridId, dir, opened, options)
})

/**
 * Resumes a grid run: each variant's run directory opened as `proctor eval --resume` opens one (the settings given
 * again apply to every variant), and only the keys missing from its journal run.
 */
export const continueGridRun = Effect.fn("GridRun.continue")(function* (
  runDir: string,
  settings: Pick<ResumeOptions, "apiKey" | "secrets" | "settings">,
  options: GridRunOptions = {},
) {
  const manifest = yield* readGridManifest(runDir)
  const opened: Array<OpenedVariant> = []
  for (const variant of manifest.variants) {
    opened.push({ variant, run: yield* openResumedRun(variantRunDir(runDir, variant.name), settings) })
  }
  return yield* runVariants(manifest.grid_id, runDir, opened, options)
})

/** The variants' resumed configs, as `continueGridRun` will run them (for what the caller sets up first). */
export const openGridVariants = Effect.fn("GridRun.openVariants")(function* (
  runDir: string,
  settings: Pick<ResumeOptions, "apiKey" | "secrets" | "settings">,
) {
  const manifest = yield* readGridManifest(runDir)
  return yield* Effect.forEach(manifest.variants, (variant) =>
    openResumedRun(variantRunDir(runDir, variant.name), settings),
  )
})
