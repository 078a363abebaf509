import { cpSync, existsSync } from "node:fs"
import { join } from "node:path"
import {
  ConfigError,
  continueEvalRun,
  defaultPriceTablePath,
  type EvalFlags,
  type EvalRunConfig,
  loadEvalConfig,
  loadPricingFile,
  loadResumeSettings,
  makeRunControl,
  modelKeyLine,
  noModelEndpoint,
  OtlpExport,
  type OtlpExportReport,
  openDatasetRun,
  openImportedRun,
  openJournal,
  otlpSettingsOf,
  publicConfig,
  type RunEvent,
  type RunOutcome,
  responseCacheDirOf,
  startEvalRun,
  TaskAppClient,
  TRACES_DIR,
  usePriceTableFile,
  withRunEvents,
} from "@proctor/core"
import { Effect, Either } from "effect"
import { backendEval, wantsBackend } from "../backend/backendEval.js"
import { ExitCode, runExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { embeddedInterception } from "../interception.js"
import { modelEndpointProblem } from "../internal/modelEndpointProblem.js"
import { outputFileProblem, runDirProblem } from "../internal/outputFileProblem.js"
import { sandboxCount } from "../internal/sandboxCount.js"
import { tracesDirProblem } from "../internal/tracesDirProblem.js"
import { proctorCommand } from "../invocation.js"
import { modelRateLimitsOf } from "../modelRateLimits.js"
import { ProgressDisplay } from "../ProgressDisplay.js"
import { printResults } from "../printResults.js"
import { type EvalOptions, evalFlagSettings } from "../program/evalFlags.js"
import { agentRunOf, usesModel } from "./agentRun.js"
import { startEvalViewer } from "./evalView.js"
import { gridEval, isGridEval } from "./gridEval.js"
import { checkResumeFlags, repairHint, resumeRun } from "./resumeRun.js"
import { installSignalHandlers } from "./signalHandlers.js"

const usageError = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** `--resume DIR`: the settings given again and the run directory's manifest, each read once. */
const openResume = (runDir: string, options: EvalOptions, flags: EvalFlags, io: Io) =>
  Effect.gen(function* () {
    const settings = yield* loadResumeSettings({
      envFile: options.envFile,
      env: io.env,
      flags,
      configPath: options.config,
    })
    const run = yield* resumeRun(runDir, settings, options.repair === true, io.stderr)
    return { run, config: run.config, env: settings.env, warnings: settings.warnings }
  })

/**
 * What is on this machine, checked before any server is asked or anything printed: the output files can be
 * written, a new run's directory can be one, a resumed run's journal agrees with its plan.
 */
const checkLocalInputs = (
  options: EvalOptions,
  loaded: { readonly runDir: string | null } | null,
  resumeDir: string | undefined,
  config: EvalRunConfig,
) =>
  Effect.gen(function* () {
    for (const [flag, path] of [
      ["--output-json", options.outputJson],
      ["--output", options.output],
      ["--output-txt", options.outputTxt],
    ] as const) {
      const problem = path === undefined ? null : outputFileProblem(path)
      if (problem !== null) return yield* usageError(`${flag}: ${problem}`)
    }
    if (resumeDir !== undefined) return yield* openJournal(resumeDir, config)
    const runDir = options.runDir ?? loaded?.runDir ?? undefined
    const problem = runDir === undefined ? null : runDirProblem(runDir)
    if (problem !== null) return yield* usageError(`--run-dir: ${problem}`)
  })

/** Checks the task app answers before hundreds of rollouts fail one by one. */
const preflight = (config: EvalRunConfig) =>
  Effect.scoped(
    Effect.flatMap(
      TaskAppClient.make({ baseUrl: config.task_app_url, apiKey: config.task_app_api_key, timeoutMs: 15_000 }),
      (client) => Effect.either(client.health()),
    ),
  )

/** The closing line of an OTLP export: what reached the collector, and what was dropped and why. */
const otlpLine = (report: OtlpExportReport): string =>
  report.dropped === 0
    ? `otlp: ${report.sent} spans sent to ${report.endpoint}`
    : `otlp: ${report.sent} of ${report.submitted} spans sent to ${report.endpoint}, ${report.dropped} dropped${
        report.error === null ? " (the collector did not answer in time)" : ` (${report.error})`
      }`

export const evalCommand = (options: EvalOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    const failUnder = options.failUnder ?? null
    yield* checkResumeFlags(options)
    const flags = evalFlagSettings(options)

    const resumeDir = options.resume
    const loaded =
      resumeDir === undefined
        ? yield* loadEvalConfig({ configPath: options.config, flags, envFile: options.envFile, env: io.env })
        : null
    for (const warning of loaded?.warnings ?? []) io.stderr.write(`warning: ${warning}\n`)
    // Several models or prompts: a grid run (commands/gridEval.ts).
    if (isGridEval(loaded, resumeDir)) return yield* gridEval(options, loaded, flags, io)
    // Checked before anything runs: found wrong only after the run, they would cost the whole run's output.
    const tracesDir = options.tracesDir ?? loaded?.tracesDir ?? null
    const tracesProblem = tracesDir === null ? null : tracesDirProblem(tracesDir)
    if (tracesProblem !== null) return yield* usageError(`--traces-dir: ${tracesProblem}`)
    const pricingOverrides = options.pricing === undefined ? [] : yield* loadPricingFile(options.pricing)
    // The copy `proctor pricing update` keeps, when there is one; a run never fetches prices itself.
    yield* usePriceTableFile(defaultPriceTablePath(io.env))
    const otlpSettings = yield* otlpSettingsOf(options.otlpEndpoint, io.env)
    // job server mode: same config, run as a job on a server (src/backend/backendEval.ts)
    if (wantsBackend(options, loaded)) {
      if (options.view === true) {
        return yield* usageError("--view: a job runs on the server; follow it in the server's dashboard (its URL's /)")
      }
      return yield* backendEval({ loaded, failUnder, options, io })
    }
    // A direct run whose policy has no model to call would fail every rollout the same way: say it once.
    const needsModel = loaded === null || usesModel(loaded.config)
    if (needsModel && options.intercept !== false && loaded?.config.policy_config.inference_url === undefined) {
      if (loaded !== null) return yield* noModelEndpoint()
    }
    const source = loaded ?? (yield* openResume(resumeDir ?? "", options, flags, io))
    if (loaded === null) for (const warning of source.warnings) io.stderr.write(`warning: ${warning}\n`)
    const { config: runConfig, env } = source
    const modelRateLimits = yield* modelRateLimitsOf(options.modelRateLimit, env)

    // Local inputs first (nothing is started or printed before they are found good), then the servers.
    yield* checkLocalInputs(options, loaded, resumeDir, runConfig)
    // A dataset run's rows, prompts and graders are checked here, before any server starts.
    const datasetRun =
      (yield* openImportedRun(runConfig)) ?? (runConfig.dataset === undefined ? null : yield* openDatasetRun(runConfig))
    const hasTaskApp = runConfig.tasks === undefined && datasetRun === null
    const health = hasTaskApp ? yield* preflight(runConfig) : Either.right(null)
    if (Either.isLeft(health)) {
      const error = health.left
      if (error.reason === "Unauthorized") {
        io.stderr.write(
          runConfig.task_app_api_key === null
            ? `proctor eval: the task app at ${runConfig.task_app_url} wants a key, and no task-app key was given: set task_app_api_key or ENVIRONMENT_API_KEY\n`
            : `proctor eval: ${error.message}: the key given (task_app_api_key or ENVIRONMENT_API_KEY) is not the task app's\n`,
        )
        return ExitCode.Usage
      }
      if (error.reason === "Unreachable" || error.reason === "Timeout") {
        io.stderr.write(`proctor eval: the task app at ${runConfig.task_app_url} is not answering: ${error.message}\n`)
        return ExitCode.Failed
      }
      if (error.status === 404) {
        io.stderr.write(
          `proctor eval: ${runConfig.task_app_url} is not a task app (${error.message.split(":")[0]}); --url takes a task app's base URL\n`,
        )
        return ExitCode.Usage
      }
    }
    const inferenceUrl = runConfig.policy_config.inference_url
    if (options.intercept !== false && typeof inferenceUrl === "string") {
      const problem = yield* Effect.promise(() => modelEndpointProblem(inferenceUrl))
      if (problem !== null) {
        const hint = resumeDir === undefined ? "" : "; give the model's URL with --inference-url"
        return yield* usageError(`the model endpoint ${inferenceUrl} cannot be reached: ${problem}${hint}`)
      }
    }

    const control = makeRunControl()
    const display = new ProgressDisplay(io.stderr, io.stderr.isTTY === true && options.json !== true)
    const viewer = options.view === true ? yield* startEvalViewer(runConfig.app_id ?? "eval", io) : null
    const startedAt = Date.now()
    const uninstall = installSignalHandlers(control, options.graceSeconds)
    const outcome: RunOutcome = yield* Effect.scoped(
      Effect.gen(function* () {
        const otlp = otlpSettings === null ? null : yield* OtlpExport.make(otlpSettings)
        const onEvent = (event: RunEvent) => {
          display.onEvent(event)
          viewer?.onEvent(event)
          otlp?.onEvent(event)
        }
        // An agent run says first which sandbox runtime it uses (and that `local` isolates nothing).
        const agentRun = runConfig.tasks === undefined ? null : yield* agentRunOf(runConfig)
        if (agentRun !== null) io.stderr.write(`${agentRun.line}\n`)
        // What a crash of an earlier session left behind (containers, bwrap namespaces) goes before new work starts.
        if (agentRun !== null && "run" in source) {
          const { removed } = yield* agentRun.runtime.prune(source.run.runId)
          if (removed > 0) io.stderr.write(`removed ${sandboxCount(removed)} an earlier session of this run left\n`)
        }
        const interception = yield* embeddedInterception(runConfig, env, {
          enabled: options.intercept !== false && usesModel(runConfig),
          pricingOverrides,
          modelRateLimits,
          onCall: otlp?.onModelCall,
        })
        if (usesModel(runConfig)) io.stderr.write(`${modelKeyLine(runConfig, env, interception?.url ?? null)}\n`)
        const cacheDir = interception === undefined ? null : responseCacheDirOf(runConfig, env)
        if (cacheDir !== null) io.stderr.write(`response cache: ${cacheDir}\n`)
        const solving =
          agentRun !== null
            ? { solver: agentRun.solver, taskIdOf: agentRun.taskIdOf, env }
            : datasetRun !== null
              ? {
                  solver: datasetRun.solver,
                  taskIdOf: datasetRun.taskIdOf,
                  rowOf: (seed: number) => datasetRun.dataset.rows[seed],
                  env,
                }
              : { env }
        const run = yield* withRunEvents(onEvent, (events) =>
          "run" in source
            ? continueEvalRun(source.run, {
                control,
                events,
                interception,
                retryErrors: options.retryErrors,
                ...solving,
              })
            : startEvalRun({
                config: runConfig,
                runDir: options.runDir ?? loaded?.runDir,
                control,
                events,
                interception,
                ...solving,
              }),
        )
        if (otlp !== null) io.stderr.write(`${otlpLine(yield* otlp.finish(Date.now() - startedAt))}\n`)
        return run
      }),
    ).pipe(Effect.ensuring(Effect.sync(uninstall)))
    display.stop()

    const runDir = outcome.location ?? ""
    if (tracesDir !== null && existsSync(join(runDir, TRACES_DIR))) {
      cpSync(join(runDir, TRACES_DIR), tracesDir, { recursive: true })
    }
    yield* printResults({
      config: publicConfig(runConfig),
      summary: outcome.summary,
      attempts: runConfig.attempts,
      results: Effect.map(openJournal(runDir, runConfig), (journal) => journal.results),
      options,
      io,
      location: `run directory: ${runDir}`,
      identity: { run_id: outcome.runId, run_dir: runDir, interrupted: outcome.interrupted },
      tracesDir,
      stepSummary: io.env.GITHUB_STEP_SUMMARY,
    })

    yield* viewer?.afterRun(outcome.interrupted) ?? Effect.void
    if (outcome.interrupted) {
      const stopped = outcome.summary.stopped
      io.stderr.write(
        `${stopped === undefined ? "interrupted" : `stopped: ${stopped.message}`}: ${outcome.summary.missing} rollouts not run. Resume with:\n  ${proctorCommand("eval", "--resume", runDir)}\n`,
      )
      return ExitCode.Interrupted
    }
    return runExitCode(outcome.summary, failUnder, io.stderr)
  }).pipe(
    Effect.scoped,
    Effect.catchTags({
      SandboxError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor eval: sandbox: ${error.message}\n`)
          return ExitCode.Failed
        }),
      ConfigError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor eval: ${error.message}\n`)
          return ExitCode.Usage
        }),
      ViewerServeError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor eval: --view: ${error.message}\n`)
          return ExitCode.Failed
        }),
      ReportWriteError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor eval: ${error.message} (results are safe in the run directory)\n`)
          return ExitCode.Failed
        }),
      StoreError: (error) =>
        Effect.sync(() => {
          const resume =
            error.runDir === undefined ? "" : `; resume it with: ${proctorCommand("eval", "--resume", error.runDir)}`
          io.stderr.write(`proctor eval: ${error.message}${resume}\n`)
          if (error.reason === "Corrupt" && options.resume !== undefined) io.stderr.write(repairHint(options.resume))
          return error.reason === "Io" ? ExitCode.Failed : ExitCode.Usage
        }),
    }),
  )
