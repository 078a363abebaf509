import { existsSync, statSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer, type PubSub, Schema } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import { defaults, type EvalRunConfig } from "../config/EvalRunConfig.js"
import type { RunEvent } from "../events/RunEvents.js"
import { withRunEvents } from "../events/withRunEvents.js"
import { inProcessGrading } from "../grader/gradeInProcess.js"
import { Interceptor } from "../interceptor/Interceptor.js"
import { policyUpstream } from "../interceptor/PolicyUpstream.js"
import { serveInterceptor } from "../interceptor/serveInterceptor.js"
import { formatParseIssues, renderPath } from "../internal/formatIssues.js"
import { promiseOf } from "../internal/promiseOf.js"
import { JudgeSettings } from "../judge/JudgeSettings.js"
import { RunJudges } from "../judge/RunJudges.js"
import { assignSeeds, collectTasks, type TaskId } from "../plan/taskSeeds.js"
import { loadPricingFile, Pricing, type PricingOverrides } from "../pricing/Pricing.js"
import { makeRunControl, type RunControl } from "../runner/RunControl.js"
import { type RunOutcome, runRollouts } from "../runner/Runner.js"
import { type SandboxError, SandboxRuntime, type SandboxRuntimeService, type SandboxSpec } from "../sandbox/Sandbox.js"
import { functionSolver, type Solve } from "../solver/functionSolver.js"
import { Solver } from "../solver/Solver.js"
import {
  initRunDirectory,
  openJournal,
  RESULTS_FILE,
  RunDirectoryStoreLayer,
  readRunManifest,
} from "../store/RunDirectory.js"
import { interceptedLayer, makeRunId } from "./EvalRun.js"

export type { TaskId } from "../plan/taskSeeds.js"
export type { Solve, SolveContext, SolveItem, SolveResult } from "../solver/functionSolver.js"
export type { SandboxSession } from "../solver/sandboxSession.js"

/** The model a solver calls through `ctx.inferenceUrl`: every call is forwarded here and recorded. */
export interface EvaluateModel {
  /** OpenAI-compatible or Anthropic base URL (`https://api.openai.com/v1`, `http://127.0.0.1:8001/v1`). */
  readonly baseUrl: string
  /** Sent upstream in place of whatever the solver's client sends; default as `proctor eval` finds it. */
  readonly apiKey?: string | undefined
  /** Calls are recorded and priced as this provider; inferred from well-known hosts when absent. */
  readonly provider?: string | undefined
}

/** Each rollout's sandbox (`ctx.sandbox`): opened before `solve`, torn down after, labelled with run and rollout. */
export interface EvaluateSandbox<T> {
  /** `DockerRuntime`, `BwrapRuntime` (@proctor/sandbox), `LocalRuntime`: a layer, or the service itself. */
  readonly runtime: Layer.Layer<SandboxRuntime, SandboxError> | SandboxRuntimeService
  readonly spec: (task: T) => Omit<SandboxSpec, "labels">
}

/** Limits of every rollout (a solver may change them per task with `ctx.limits.override`); see `RolloutLimits`. */
export interface EvaluateLimits {
  readonly maxTurns?: number | undefined
  /** Enforced by the interceptor: needs the `model` option. */
  readonly maxTokens?: number | undefined
  readonly maxCost?: number | undefined
  readonly agentTimeoutSeconds?: number | undefined
  readonly verifierTimeoutSeconds?: number | undefined
}

export interface EvaluateOptions<T extends { readonly id: TaskId }, S = undefined> {
  /** Names the run (`runs/{name}-{time}-{hex}`) and is checked on resume. */
  readonly name: string
  /** JSON objects, each with a unique `id`; an async iterable is read to its end before the run starts. */
  readonly tasks: Iterable<T> | AsyncIterable<T>
  /**
   * One rollout: return `{ score }` or throw (`RetryableError` to be retried, anything else is an error). An agent is
   * an `async function*` that yields its steps (`{ kind: "command", command, exit_code, … }`) and returns (or yields)
   * its result: the first result ends the rollout and the generator is closed. Effect users may return a `Stream`.
   */
  readonly solve: Solve<T, S>
  /** Once before the first rollout, for what rollouts share (a built image, a server); its value is `ctx.shared`. */
  readonly setup?: (() => S | Promise<S>) | undefined
  /** Once after the last rollout (also when the run fails), given what `setup` returned. */
  readonly teardown?: ((shared: S) => void | Promise<void>) | undefined
  readonly sandbox?: EvaluateSandbox<T> | undefined
  readonly limits?: EvaluateLimits | undefined
  /** Attempts per task (default 1); more than one gives pass@k. */
  readonly attempts?: number | undefined
  readonly concurrency?: number | undefined
  /** Per rollout (default 300): the context's signal is aborted and the try counts as a timeout. */
  readonly timeoutSeconds?: number | undefined
  /** Retries of a rollout that timed out or threw a `RetryableError` (default 3). */
  readonly maxRetries?: number | undefined
  /**
   * A task field whose equal values are one cluster of the mean score's standard error (a passage, a topic):
   * tasks that share it are not independent evidence. Without it, a task's attempts are one cluster.
   */
  readonly clusterBy?: string | undefined
  /** A score at or above this is correct, for pass@k and cost per correct answer (default 1). */
  readonly passThreshold?: number | undefined
  /** The run directory (default `runs/{run_id}`); one holding results of this eval is resumed. */
  readonly runDir?: string | undefined
  readonly model?: EvaluateModel | undefined
  /**
   * The judge that `ctx.grade`'s model graders ask (`{ model, provider }` or `{ model, inference_url, api_key_env }`,
   * the keys of `[eval.judge]`), unless a grader names its own. Its calls go through the run's interceptor, stored
   * under the rollout being graded and priced apart from the policy's; it is stored with the run (never a key).
   */
  readonly judge?: JudgeSettings | undefined
  /** Prices that override or extend proctor's table, or the path of a pricing file (as `--pricing`). */
  readonly pricing?: PricingOverrides | string | undefined
  /** Keep each rollout's model calls as a synth-ai trace in the run directory's `traces/`. */
  readonly returnTrace?: boolean | undefined
  readonly onEvent?: ((event: RunEvent) => void) | undefined
  /** Aborting stops new rollouts; in-flight ones finish within `graceMs` (default 10 s), then are abandoned. */
  readonly signal?: AbortSignal | undefined
  readonly graceMs?: number | undefined
}

/** Stands where a task app's URL would: the run's rollouts are solved in this process. */
const IN_PROCESS = "in-process:"

const invalid = (message: string) => new ConfigError({ reason: "InvalidValue", message: `evaluate: ${message}` })

const checked = (
  key: string,
  value: number | undefined,
  fallback: number,
  rule: "positive int" | "int ≥ 0" | "positive",
) =>
  Effect.suspend(() => {
    if (value === undefined) return Effect.succeed(fallback)
    const ok =
      rule === "positive"
        ? Number.isFinite(value) && value > 0
        : Number.isInteger(value) && (rule === "int ≥ 0" ? value >= 0 : value > 0)
    const expected =
      rule === "positive" ? "a positive number" : rule === "int ≥ 0" ? "an integer ≥ 0" : "a positive integer"
    return ok
      ? Effect.succeed(value)
      : Effect.fail(invalid(`${key}: expected ${expected}, got ${JSON.stringify(value)}`))
  })

const limitsConfig = (limits: EvaluateLimits | undefined) =>
  Effect.gen(function* () {
    if (limits === undefined) return {}
    const optional = (key: string, value: number | undefined, rule: "positive int" | "positive") =>
      value === undefined ? Effect.succeed(undefined) : checked(`limits.${key}`, value, value, rule)
    const fields = {
      max_turns: yield* optional("maxTurns", limits.maxTurns, "positive int"),
      max_tokens: yield* optional("maxTokens", limits.maxTokens, "positive int"),
      max_cost: yield* optional("maxCost", limits.maxCost, "positive"),
      agent_timeout_s: yield* optional("agentTimeoutSeconds", limits.agentTimeoutSeconds, "positive"),
      verifier_timeout_s: yield* optional("verifierTimeoutSeconds", limits.verifierTimeoutSeconds, "positive"),
    }
    return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
  })

const judgeSettings = (judge: unknown) =>
  Effect.mapError(Schema.decodeUnknown(JudgeSettings, { onExcessProperty: "error" })(judge), (error) =>
    invalid(formatParseIssues(error, (path) => renderPath("judge", path))),
  )

const runConfig = <T extends { readonly id: TaskId }, S>(options: EvaluateOptions<T, S>) =>
  Effect.gen(function* () {
    if (typeof options.name !== "string" || options.name.trim() === "") {
      return yield* invalid("name: expected a non-empty string")
    }
    if (options.model !== undefined && !URL.canParse(options.model.baseUrl)) {
      return yield* invalid(`model.baseUrl: expected an http(s) URL, got ${JSON.stringify(options.model.baseUrl)}`)
    }
    const judge = options.judge === undefined ? undefined : yield* judgeSettings(options.judge)
    return {
      ...defaults,
      app_id: options.name,
      task_app_url: IN_PROCESS,
      task_app_api_key: null,
      env_name: null,
      seeds: [],
      attempts: yield* checked("attempts", options.attempts, defaults.attempts, "positive int"),
      concurrency: yield* checked("concurrency", options.concurrency, defaults.concurrency, "positive int"),
      timeout_s: yield* checked("timeoutSeconds", options.timeoutSeconds, defaults.timeout_s, "positive"),
      max_retries: yield* checked("maxRetries", options.maxRetries, defaults.max_retries, "int ≥ 0"),
      return_trace: options.returnTrace ?? false,
      model: null,
      provider: options.model?.provider ?? null,
      policy_name: null,
      policy_config: options.model === undefined ? {} : { inference_url: options.model.baseUrl },
      env_config: {},
      ops: null,
      pass_threshold: options.passThreshold ?? defaults.pass_threshold,
      ...(options.clusterBy === undefined ? {} : { cluster_by: options.clusterBy }),
      ...(judge === undefined ? {} : { judge }),
      ...(yield* limitsConfig(options.limits)),
    } satisfies EvalRunConfig
  })

const holdsResults = (dir: string) => {
  const journal = join(dir, RESULTS_FILE)
  return existsSync(journal) && statSync(journal).size > 0
}

/** A new run directory, or the stored results of an earlier session of this eval in `runDir`. */
const openRun = (config: EvalRunConfig, runDir: string | undefined) =>
  Effect.gen(function* () {
    if (runDir !== undefined && holdsResults(runDir)) {
      const manifest = yield* readRunManifest(runDir)
      if (manifest.config.app_id !== config.app_id || manifest.config.task_app_url !== IN_PROCESS) {
        return yield* invalid(
          `runDir ${runDir} holds the run of ${JSON.stringify(manifest.config.app_id)}, not of ${JSON.stringify(config.app_id)}`,
        )
      }
      const journal = yield* openJournal(runDir, manifest.config)
      return { runId: manifest.run_id, dir: runDir, stored: journal.results(), resumed: true }
    }
    const runId = makeRunId(config)
    return { runId, dir: runDir ?? join("runs", runId), stored: [], resumed: false }
  })

/** The interceptor on loopback for the life of the run: the solver's calls (`model`) and the judges' go through it. */
const runInterceptor = (pricing: PricingOverrides | string | undefined) =>
  Effect.gen(function* () {
    const overrides = typeof pricing === "string" ? yield* loadPricingFile(pricing) : (pricing ?? [])
    const prices = yield* Pricing.make(overrides)
    const interceptor = yield* Interceptor.make({ priceCall: prices.costOf })
    yield* serveInterceptor(interceptor)
    return { interceptor, priceTable: prices.table() }
  })

/** Where the solver's calls are forwarded: `model`'s base URL, with its key. */
const modelUpstream = (config: EvalRunConfig, model: EvaluateModel) => {
  const upstream = policyUpstream(
    {
      ...config,
      policy_config: {
        inference_url: model.baseUrl,
        ...(model.apiKey === undefined ? {} : { api_key: model.apiKey }),
      },
    },
    process.env,
  )
  return upstream === null
    ? Effect.fail(invalid(`model.baseUrl: expected an http(s) URL, got ${model.baseUrl}`))
    : Effect.succeed(upstream)
}

const isAsyncGeneratorFunction = (f: unknown) => Object.prototype.toString.call(f) === "[object AsyncGeneratorFunction]"

/** The sandbox runtime for the run: the service given, or the layer given built for the run's life. */
const sandboxRuntime = (runtime: EvaluateSandbox<unknown>["runtime"]) =>
  Layer.isLayer(runtime)
    ? Effect.map(Layer.build(runtime as Layer.Layer<SandboxRuntime, SandboxError>), (context) =>
        Context.get(context, SandboxRuntime),
      )
    : Effect.succeed(runtime as SandboxRuntimeService)

/** `setup`'s value for the run, and `teardown` when the run ends, however it ends. */
const sharedState = <S>(setup: (() => S | Promise<S>) | undefined, teardown: ((shared: S) => unknown) | undefined) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: async () => (setup === undefined ? (undefined as S) : await setup()), catch: (e) => e }),
    (shared) =>
      teardown === undefined
        ? Effect.void
        : Effect.promise(async () => {
            await teardown(shared)
          }),
  )

const evaluation = <T extends { readonly id: TaskId }, S>(
  options: EvaluateOptions<T, S>,
  control: RunControl,
  events: PubSub.PubSub<RunEvent> | undefined,
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const base = yield* runConfig(options)
      const tasks = yield* collectTasks(options.tasks)
      const run = yield* openRun(base, options.runDir)
      const table = yield* assignSeeds(tasks, run.stored, run.dir)
      const config: EvalRunConfig = { ...base, seeds: table.seeds }
      if (!run.resumed) yield* initRunDirectory(run.dir, run.runId, config)
      const runtime = options.sandbox === undefined ? undefined : yield* sandboxRuntime(options.sandbox.runtime)
      // What a killed session of this run left behind goes before any new sandbox starts.
      if (runtime !== undefined && run.resumed) yield* runtime.prune(run.runId)
      const shared = yield* sharedState(options.setup, options.teardown)
      const intercepted =
        options.model === undefined && config.judge === undefined ? undefined : yield* runInterceptor(options.pricing)
      const interceptor = intercepted?.interceptor
      const judges =
        interceptor === undefined
          ? Layer.succeed(RunJudges, RunJudges.none)
          : RunJudges.layer({ runId: run.runId, interception: interceptor, env: process.env })
      const solver = Layer.effect(
        Solver,
        Effect.map(RunJudges, (runJudges) =>
          functionSolver(options.name, table.taskOf, options.solve, {
            sandbox: runtime === undefined ? undefined : { runtime, spec: options.sandbox!.spec },
            shared,
            agent: isAsyncGeneratorFunction(options.solve),
            grading: inProcessGrading(runJudges, config.judge),
          }),
        ),
      ).pipe(Layer.provide(judges))
      const solverLayer =
        options.model === undefined || interceptor === undefined
          ? solver
          : interceptedLayer({ interceptor, upstream: yield* modelUpstream(config, options.model) }).pipe(
              Layer.provide(solver),
            )
      const priceTable = intercepted?.priceTable
      return yield* runRollouts({ runId: run.runId, config, control, events, taskIdOf: table.idOf, priceTable }).pipe(
        Effect.provide(solverLayer.pipe(Layer.provideMerge(RunDirectoryStoreLayer(run.dir, config)))),
      )
    }),
  )

/**
 * Runs an eval in this process, nanoeval's `Eval` for TypeScript: each task is solved `attempts` times by
 * `solve`, with bounded concurrency, timeouts and retries, and every result lands in a run directory like
 * `proctor eval`'s (results.jsonl with the task's id, model_calls.jsonl, summary.json). Calling it again with
 * the same `runDir` and tasks runs only what is missing. Resolves to the run's summary (pass@k when
 * attempts > 1); rejects with a `ConfigError` naming a bad option, before any rollout.
 */
export const evaluate = async <T extends { readonly id: TaskId }, S = undefined>(
  options: EvaluateOptions<T, S>,
): Promise<RunOutcome> => {
  const control = makeRunControl()
  const onAbort = () => {
    control.requestStop()
    setTimeout(control.cancelInFlight, options.graceMs ?? 10_000).unref()
  }
  if (options.signal?.aborted === true) onAbort()
  else options.signal?.addEventListener("abort", onAbort, { once: true })
  const onEvent = options.onEvent
  const program =
    onEvent === undefined
      ? evaluation(options, control, undefined)
      : withRunEvents(onEvent, (events) => evaluation(options, control, events))
  try {
    return await promiseOf(program)
  } finally {
    options.signal?.removeEventListener("abort", onAbort)
  }
}
