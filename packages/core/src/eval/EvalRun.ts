import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { Effect, Either, Layer, type PubSub } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { applyResumeSettings, type ResumeSetting } from "../config/ResumeSettings.js"
import { withSecrets } from "../config/withoutSecrets.js"
import { graderSetupError } from "../dataset/DatasetRun.js"
import { forwardModelCalls } from "../events/forwardModelCalls.js"
import type { RunEvent } from "../events/RunEvents.js"
import { withRunEvents } from "../events/withRunEvents.js"
import { gradedLayer, itemOfFinal } from "../grader/GradedSolver.js"
import { makeGraderSet } from "../grader/GraderSet.js"
import { JudgeObservations } from "../judge/JudgeObservations.js"
import { RunJudges } from "../judge/RunJudges.js"
import { RunBudget } from "../runner/RunBudget.js"
import { makeRunControl, type RunControl } from "../runner/RunControl.js"
import { type RunOutcome, runRollouts } from "../runner/Runner.js"
import { HttpTaskAppSolverLayer } from "../solver/HttpTaskAppSolver.js"
import { type InterceptionOptions, interceptedSolver } from "../solver/InterceptedSolver.js"
import { Solver } from "../solver/Solver.js"
import { PendingRolloutsFileLayer } from "../store/PendingRolloutsFile.js"
import { ResultStore } from "../store/ResultStore.js"
import {
  configFromManifest,
  initRunDirectory,
  type RunDirectoryManifest,
  RunDirectoryStoreLayer,
  readRunManifest,
} from "../store/RunDirectory.js"
import { TaskAppClient } from "../taskApp/TaskAppClient.js"

export const makeRunId = (config: EvalRunConfig, now = new Date()): string => {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15)
  return `${config.app_id ?? config.env_name ?? "eval"}-${stamp}-${randomBytes(2).toString("hex")}`
}

export interface EvalRunOptions {
  readonly config: EvalRunConfig
  /** Where the run's journal, config, traces and summary go; default `runs/{run_id}` under the cwd. */
  readonly runDir?: string | null | undefined
  readonly runId?: string | undefined
  readonly control?: RunControl | undefined
  readonly events?: PubSub.PubSub<RunEvent> | undefined
  /** Defaults to the HTTP task-app solver for `config.task_app_url`. */
  readonly solver?: Layer.Layer<Solver> | undefined
  /** Route the policy's model calls through this interceptor to `upstream` (tokens, cost, traces). */
  readonly interception?: Omit<InterceptionOptions, "recordCalls"> | undefined
  /** A result's `task_id` from its seed (agent runs: the task directory's name). */
  readonly taskIdOf?: ((seed: number) => string | number) | undefined
  /** On resume: run the keys stored as errors again (see `runRollouts`). */
  readonly retryErrors?: boolean | undefined
  /** A seed's dataset row (dataset runs), where the judges' human labels are read; else what its task said of it. */
  readonly rowOf?: ((seed: number) => Readonly<Record<string, unknown>> | undefined) | undefined
  /** Where model graders' judges find their keys (`api_key_env`, a provider's variable); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
}

/** The HTTP solver with a keep-alive pool sized to the run's concurrency and the run's deadline. */
export const taskAppSolverLayer = (config: EvalRunConfig): Layer.Layer<Solver> =>
  HttpTaskAppSolverLayer.pipe(
    Layer.provide(
      TaskAppClient.layer({
        baseUrl: config.task_app_url,
        apiKey: config.task_app_api_key,
        timeoutMs: config.timeout_s * 1000,
        connections: config.concurrency,
        maxResponseBytes: config.max_response_bytes,
      }),
    ),
  )

/**
 * Wraps the `Solver` it is given so every rollout's model calls go through the interceptor and land in the
 * run's `ResultStore` before the rollout's result does.
 */
export const interceptedLayer = (
  interception: Omit<InterceptionOptions, "recordCalls">,
  budget: RunBudget | null = null,
) =>
  Layer.effect(
    Solver,
    Effect.gen(function* () {
      const solver = yield* Solver
      const store = yield* ResultStore
      // A store that cannot write is fatal for the run, as it is for results: nothing is silently lost.
      return interceptedSolver(solver, {
        ...interception,
        recordCalls: (calls) => {
          budget?.spendCalls(calls)
          return Effect.orDie(store.appendModelCalls(calls))
        },
      })
    }),
  )

/**
 * The run's graders around a task app's or an agent's solver (a dataset run's solver grades by itself): built
 * once, before the first rollout, and a grader that cannot be built is a config error.
 */
const withGraders = (config: EvalRunConfig, solver: Layer.Layer<Solver>) =>
  config.graders === undefined || config.dataset !== undefined
    ? Effect.succeed(solver)
    : Effect.map(
        Effect.mapError(makeGraderSet(config.graders, config.judge), graderSetupError(config.graders)),
        (graders) => gradedLayer(graders).pipe(Layer.provide(solver)),
      )

/**
 * The judges of the run's model graders, on the run's interceptor: their calls are stored with the policy's. Without
 * an interceptor there are none, and a model grader says so.
 */
const judgesLayer = (runId: string, options: EvalRunOptions) =>
  options.interception === undefined
    ? Layer.empty
    : RunJudges.layer({ runId, interception: options.interception.interceptor, env: options.env ?? process.env })

/** The run's model-grader verdicts, for the summary's judge trust; none without a model grader. */
const judgeObservationsOf = ({ config, rowOf }: EvalRunOptions) => {
  const observations = new JudgeObservations({
    specs: config.graders ?? [],
    evalJudge: config.judge,
    rowOf: (result) => rowOf?.(result.seed) ?? itemOfFinal(result, result.seed),
  })
  return observations.active ? observations : undefined
}

const execute = (runId: string, dir: string, options: EvalRunOptions) =>
  Effect.gen(function* () {
    // Task-app rollouts answered in the async form are journaled in the run directory, so a resume re-attaches.
    const solver = (yield* withGraders(options.config, options.solver ?? taskAppSolverLayer(options.config))).pipe(
      Layer.provide(PendingRolloutsFileLayer(dir)),
      Layer.provide(judgesLayer(runId, options)),
    )
    // With the model calls intercepted, the budget counts what each call spent; without, what results report.
    const budget = RunBudget.of(options.config, options.interception === undefined ? "results" : "calls")
    const solverWithInterception =
      options.interception === undefined
        ? solver
        : interceptedLayer(options.interception, budget).pipe(Layer.provide(solver))
    const { config, control, events, retryErrors, taskIdOf } = options
    const calls = options.interception?.interceptor.calls
    const judgeObservations = judgeObservationsOf(options)
    const priceTable = options.interception?.priceTable
    const run = runRollouts({
      runId,
      config,
      control,
      events,
      retryErrors,
      taskIdOf,
      budget,
      judgeObservations,
      priceTable,
    }).pipe(
      Effect.provide(solverWithInterception.pipe(Layer.provideMerge(RunDirectoryStoreLayer(dir, options.config)))),
    )
    return yield* calls === undefined || events === undefined
      ? run
      : Effect.scoped(Effect.zipRight(forwardModelCalls(runId, calls, events), run))
  })

/** Starts a new run in a fresh run directory. */
export const startEvalRun = Effect.fn("EvalRun.start")(function* (options: EvalRunOptions) {
  const runId = options.runId ?? makeRunId(options.config)
  const dir = options.runDir ?? join("runs", runId)
  yield* initRunDirectory(dir, runId, options.config)
  return yield* execute(runId, dir, options)
})

export interface ResumeOptions extends Omit<EvalRunOptions, "config" | "runDir" | "runId"> {
  readonly runDir: string
  /** The task-app key is never written to the run directory, so it is given again. */
  readonly apiKey?: string | undefined
  /** Secrets of the policy and env tables, likewise never written: given again (see `loadResumeSettings`). */
  readonly secrets?: RunSecrets | undefined
  /**
   * Settings given again (flags, a config file): those of how the run executes apply to this session;
   * any that would change its plan is refused (see `applyResumeSettings`).
   */
  readonly settings?: ReadonlyArray<ResumeSetting> | undefined
}

export interface RunSecrets {
  readonly policy_config: Readonly<Record<string, unknown>>
  readonly env_config: Readonly<Record<string, unknown>>
}

const hasPath = (secrets: RunSecrets | undefined, path: string): boolean => {
  let node: unknown = secrets
  for (const key of path.split(".")) {
    if (typeof node !== "object" || node === null || !(key in node)) return false
    node = (node as Record<string, unknown>)[key]
  }
  return true
}

export interface ResumedConfig {
  readonly config: EvalRunConfig
  /** One line per setting this session changes (a new concurrency, task-app URL, …), to tell the user. */
  readonly changes: ReadonlyArray<string>
}

/**
 * The config a resumed run continues with: the stored one plus the secrets given again and the settings
 * that may change. A run that used secrets cannot be resumed without them: its missing rollouts would all
 * fail (or, worse, run differently) and be journaled as done.
 */
const resumedConfig = (
  manifest: RunDirectoryManifest,
  runDir: string,
  options: Pick<ResumeOptions, "apiKey" | "secrets" | "settings">,
): Effect.Effect<ResumedConfig, ConfigError> =>
  Effect.gen(function* () {
    const missing = (manifest.omitted_secrets ?? []).filter((path) => !hasPath(options.secrets, path))
    if (manifest.task_app_api_key_set && (options.apiKey === undefined || options.apiKey === "")) {
      missing.unshift("the task-app key (ENVIRONMENT_API_KEY)")
    }
    if (missing.length > 0) {
      return yield* new ConfigError({
        reason: "Missing",
        message: `${runDir} was run with ${missing.join(", ")}, which proctor never stores; give ${
          missing.length > 1 ? "them" : "it"
        } again (the config file with --config, ENVIRONMENT_API_KEY or --env-file) to resume`,
      })
    }
    const { overrides, inferenceUrl, changes } = yield* applyResumeSettings(
      manifest.config,
      runDir,
      options.settings ?? [],
    )
    const stored = yield* Either.mapLeft(
      configFromManifest(manifest, options.apiKey),
      (wrong) =>
        new ConfigError({ reason: "InvalidValue", message: `${runDir}/config.json cannot be resumed: ${wrong}` }),
    )
    const config: EvalRunConfig = {
      ...stored,
      policy_config: withSecrets(
        inferenceUrl === null ? stored.policy_config : { ...stored.policy_config, inference_url: inferenceUrl },
        options.secrets?.policy_config ?? {},
      ),
      env_config: withSecrets(stored.env_config, options.secrets?.env_config ?? {}),
      ...overrides,
    }
    return { config, changes }
  })

/** A run directory opened to be resumed: its id and the config its missing rollouts run with. */
export interface ResumedRun {
  readonly runId: string
  readonly runDir: string
  readonly config: EvalRunConfig
  /** The run settings this resume changes (concurrency, retries, timeout, url), one sentence each. */
  readonly changes: ReadonlyArray<string>
}

/**
 * Reads a run directory's manifest, once, and the config it continues with; settings that would change the
 * run's plan are refused (see `resumedConfig`).
 */
export const openResumedRun = Effect.fn("EvalRun.openResumed")(function* (
  runDir: string,
  settings: Pick<ResumeOptions, "apiKey" | "secrets" | "settings">,
) {
  const manifest = yield* readRunManifest(runDir)
  const { config, changes } = yield* resumedConfig(manifest, runDir, settings)
  return { runId: manifest.run_id, runDir, config, changes } satisfies ResumedRun
})

/** Runs only the rollouts an opened run directory does not hold yet; the last result of each key wins. */
export const continueEvalRun = Effect.fn("EvalRun.continue")(function* (
  run: ResumedRun,
  options: Omit<EvalRunOptions, "config" | "runDir" | "runId">,
) {
  return yield* execute(run.runId, run.runDir, { ...options, config: run.config })
})

export interface RunEvalOptions {
  readonly runDir?: string
  readonly onEvent?: (event: RunEvent) => void
  /** Aborting stops new rollouts; in-flight ones finish within `graceMs`, then are abandoned. */
  readonly signal?: AbortSignal
  readonly graceMs?: number
}

/** The Promise API for callers who do not use Effect: the same run, events delivered to a callback. */
export const runEval = (config: EvalRunConfig, options: RunEvalOptions = {}): Promise<RunOutcome> => {
  const control = makeRunControl()
  const onAbort = () => {
    control.requestStop()
    setTimeout(control.cancelInFlight, options.graceMs ?? 10_000).unref()
  }
  options.signal?.addEventListener("abort", onAbort, { once: true })
  const start = (events?: PubSub.PubSub<RunEvent>) => startEvalRun({ config, runDir: options.runDir, control, events })
  const onEvent = options.onEvent
  const program = onEvent === undefined ? start() : withRunEvents(onEvent, start)
  return Effect.runPromise(program).finally(() => options.signal?.removeEventListener("abort", onAbort))
}
