import {
  ConfigError,
  continueGridRun,
  defaultPriceTablePath,
  type EvalFlags,
  type EvalRunConfig,
  expandGridVariants,
  type GridOutcome,
  isGridRunDir,
  type loadEvalConfig,
  loadPricingFile,
  loadResumeSettings,
  makeRunControl,
  modelKeyLine,
  noModelEndpoint,
  openDatasetRun,
  openGridVariants,
  openImportedRun,
  type RunEvent,
  startGridRun,
  usePriceTableFile,
  type VariantSolving,
  variantConfig,
} from "@proctor/core"
import { compareMany, formatGridComparisonText, formatNumber } from "@proctor/report"
import { Effect, Either } from "effect"
import { ExitCode, runExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { embeddedInterception } from "../interception.js"
import { modelEndpointProblem } from "../internal/modelEndpointProblem.js"
import { runDirProblem } from "../internal/outputFileProblem.js"
import { proctorCommand } from "../invocation.js"
import { modelRateLimitsOf } from "../modelRateLimits.js"
import type { EvalOptions } from "../program/evalFlags.js"
import { usesModel } from "./agentRun.js"
import { readRunTotals } from "./compareCommand.js"
import { installSignalHandlers } from "./signalHandlers.js"

type LoadedConfig = Effect.Effect.Success<ReturnType<typeof loadEvalConfig>>

const usageError = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** True when this `proctor eval` is a grid run: variants in its config or flags, or a grid run directory resumed. */
export const isGridEval = (loaded: LoadedConfig | null, resumeDir: string | undefined): boolean =>
  loaded?.config.variants !== undefined || (resumeDir !== undefined && isGridRunDir(resumeDir))

/** What a grid run does not do yet: refused by name, never silently ignored. */
const UNSUPPORTED = [
  ["view", "--view"],
  ["backend", "--backend"],
  ["output", "--output"],
  ["outputJson", "--output-json"],
  ["outputTxt", "--output-txt"],
  ["tracesDir", "--traces-dir"],
  ["otlpEndpoint", "--otlp-endpoint"],
  ["failUnder", "--fail-under"],
  ["repair", "--repair"],
] as const

const unsupported = (options: EvalOptions, loaded: LoadedConfig | null): string | null => {
  const flag = UNSUPPORTED.find(([key]) => options[key] !== undefined && options[key] !== false)?.[1]
  const why = "is not available for a grid run (several --model or --prompt, or [[eval.variants]]) yet"
  if (flag !== undefined) return `${flag} ${why}: run each variant as a run of its own for it`
  if (loaded?.backendUrl != null) return `backend_url ${why}: leave it out to run the grid here`
  if (loaded?.config.tasks !== undefined)
    return "variants: a grid run varies dataset and task-app runs; agent runs (--tasks) are not gridded yet"
  return null
}

/**
 * A variant's solver: its imported eval's (promptfoo's providers as variants), its dataset run's (prompts and graders
 * of its own config), else the task app's.
 */
const solving: VariantSolving = (config) =>
  Effect.gen(function* () {
    const run =
      (yield* openImportedRun(config)) ?? (config.dataset === undefined ? null : yield* openDatasetRun(config))
    return run === null ? {} : { solver: run.solver, taskIdOf: run.taskIdOf }
  })

/** One line a variant as it finishes, and a running count of the whole grid on a terminal. */
const gridProgress = (io: Io, variants: number) => {
  const planned = new Map<string, number>()
  const done = new Map<string, number>()
  let total = 0
  let finished = 0
  let lastDraw = 0
  const tty = io.stderr.isTTY === true
  const draw = () => {
    let sum = 0
    for (const n of done.values()) sum += n
    io.stderr.write(`\r\x1b[2Kgrid: ${sum}/${total} rollouts, ${finished}/${variants} variants done`)
  }
  return (variant: string, event: RunEvent) => {
    if (event._tag === "RunStarted") {
      planned.set(variant, event.planned)
      done.set(variant, event.alreadyDone)
      total += event.planned
    } else if (event._tag === "RolloutFinished") {
      done.set(variant, event.progress.done)
      if (tty && Date.now() - lastDraw > 100) {
        lastDraw = Date.now()
        draw()
      }
    } else if (event._tag === "RunFinished") {
      finished++
      const s = event.summary
      if (tty) io.stderr.write("\r\x1b[2K")
      io.stderr.write(
        `${variant}: ${s.ok} ok, ${s.errored} errored, mean score ${formatNumber(s.metrics.mean_score)}${event.interrupted ? " (stopped)" : ""}\n`,
      )
    }
  }
}

/** Each variant's results read back from its journal and ranked (`proctor compare RUN` prints the same). */
const gridComparison = (outcome: GridOutcome, passThreshold: number) =>
  Effect.map(
    Effect.forEach(outcome.variants, ({ variant, outcome: run }) =>
      Effect.map(readRunTotals(run.location ?? ""), ({ totals }) => ({ label: variant.name, totals })),
    ),
    (sides) => compareMany(sides, { passThreshold }),
  )

/**
 * `proctor eval` with several models or prompts: every variant on the same seeds in one run directory
 * (core's `startGridRun`), sharing the concurrency and one interceptor; each variant's line as it finishes, then
 * the ranking with Holm-corrected pairwise comparisons. `--resume RUN` resumes every variant's journal.
 */
export const gridEval = (options: EvalOptions, loaded: LoadedConfig | null, flags: EvalFlags, io: Io) =>
  Effect.gen(function* () {
    const problem = unsupported(options, loaded)
    if (problem !== null) return yield* usageError(problem)
    const pricingOverrides = options.pricing === undefined ? [] : yield* loadPricingFile(options.pricing)
    yield* usePriceTableFile(defaultPriceTablePath(io.env))

    const resumeDir = loaded === null ? (options.resume ?? "") : null
    const resume =
      resumeDir === null
        ? null
        : yield* Effect.flatMap(
            loadResumeSettings({ envFile: options.envFile, env: io.env, flags, configPath: options.config }),
            (settings) => Effect.map(openGridVariants(resumeDir, settings), (runs) => ({ settings, runs })),
          )
    for (const warning of resume?.settings.warnings ?? []) io.stderr.write(`warning: ${warning}\n`)
    // Every variant's config, checked before anything starts: a prompt one row cannot fill stops the grid here.
    const configs: ReadonlyArray<EvalRunConfig> =
      resume !== null
        ? resume.runs.map((run) => run.config)
        : (yield* Either.mapLeft(expandGridVariants(loaded!.config, loaded!.config.variants ?? []), usageError)).map(
            (variant) => variantConfig(loaded!.config, variant),
          )
    const config = configs[0]!
    const env = loaded?.env ?? resume!.settings.env
    if (loaded !== null) {
      if (usesModel(config) && options.intercept !== false && config.policy_config.inference_url === undefined) {
        return yield* noModelEndpoint()
      }
      const dir = options.runDir ?? loaded.runDir ?? undefined
      const dirProblem = dir === undefined ? null : runDirProblem(dir)
      if (dirProblem !== null) return yield* usageError(`--run-dir: ${dirProblem}`)
    }
    for (const own of configs) yield* solving(own)
    const modelRateLimits = yield* modelRateLimitsOf(options.modelRateLimit, env)
    // Each variant's endpoint (a grid of providers has several), checked before any rollout starts.
    const endpoints = new Set(configs.map((own) => own.policy_config.inference_url))
    for (const inferenceUrl of endpoints) {
      if (options.intercept === false || typeof inferenceUrl !== "string") continue
      const unreachable = yield* Effect.promise(() => modelEndpointProblem(inferenceUrl))
      if (unreachable !== null)
        return yield* usageError(`the model endpoint ${inferenceUrl} cannot be reached: ${unreachable}`)
    }

    const control = makeRunControl()
    const uninstall = installSignalHandlers(control, options.graceSeconds)
    const outcome = yield* Effect.scoped(
      Effect.gen(function* () {
        const interception = yield* embeddedInterception(config, env, {
          enabled: options.intercept !== false && usesModel(config),
          pricingOverrides,
          modelRateLimits,
        })
        if (usesModel(config)) io.stderr.write(`${modelKeyLine(config, env, interception?.url ?? null)}\n`)
        io.stderr.write(
          `grid: ${configs.length} variants × ${config.seeds.length} seeds, concurrency ${config.concurrency} shared\n`,
        )
        const gridOptions = { control, interception, solving, onEvent: gridProgress(io, configs.length) }
        return resumeDir === null
          ? yield* startGridRun(loaded!.config, options.runDir ?? loaded!.runDir, gridOptions)
          : yield* continueGridRun(resumeDir, resume!.settings, { ...gridOptions, retryErrors: options.retryErrors })
      }),
    ).pipe(Effect.ensuring(Effect.sync(uninstall)))

    const comparison = yield* gridComparison(outcome, config.pass_threshold)
    if (options.json === true) {
      io.stdout.write(
        `${JSON.stringify(
          {
            grid_id: outcome.gridId,
            run_dir: outcome.runDir,
            interrupted: outcome.interrupted,
            variants: outcome.variants.map(({ variant, outcome: run }) => ({
              ...variant,
              run_dir: run.location,
              summary: run.summary,
            })),
            comparison,
          },
          null,
          2,
        )}\n`,
      )
    } else {
      io.stdout.write(`${formatGridComparisonText(comparison)}\n`)
    }
    io.stderr.write(
      `grid run directory: ${outcome.runDir} (compare again: ${proctorCommand("compare", outcome.runDir)})\n`,
    )
    if (outcome.interrupted) {
      io.stderr.write(`interrupted: resume with:\n  ${proctorCommand("eval", "--resume", outcome.runDir)}\n`)
      return ExitCode.Interrupted
    }
    const codes = outcome.variants.map(({ outcome: run }) => runExitCode(run.summary, null, io.stderr))
    return codes.find((code) => code !== ExitCode.Ok) ?? ExitCode.Ok
  })
