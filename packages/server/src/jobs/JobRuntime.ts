import {
  type EvalRunConfig,
  harborRun,
  Interceptor,
  type InterceptorService,
  interceptedLayer,
  type ModelCall,
  Pricing,
  type PricingService,
  policyUpstream,
  type ResultStore,
  type SandboxRuntimeService,
  type Solver,
  taskAppSolverLayer,
} from "@proctor/core"
import { Context, Effect, Layer, Option, type PubSub, Schema } from "effect"
import { type JobSecrets, runConfigOf } from "./JobConfig.js"
import type { JobRecord } from "./JobStore.js"
import { SandboxRuntimes } from "./SandboxRuntimes.js"
import { SecretBox } from "./SecretBox.js"

export interface JobRuntimeOptions {
  /** The solver each job runs on. Default: core's HTTP task-app solver for the job's config. */
  readonly solverFor?:
    | ((job: { readonly jobId: string; readonly config: EvalRunConfig }) => Layer.Layer<Solver>)
    | undefined
  /**
   * Where the model key for intercepted calls comes from when the policy has no `api_key`
   * (`PROCTOR_UPSTREAM_API_KEY`, `OPENAI_API_KEY`, …; see core's `policyUpstream`). Default `process.env`.
   */
  readonly upstreamEnv?: Readonly<Record<string, string | undefined>> | undefined
}

/**
 * A stored job that cannot run: its secrets are gone (it ended) or cannot be opened, or its stored config no longer
 * reads. The message is what the job's `error` says.
 */
export class JobUnrunnable extends Schema.TaggedError<JobUnrunnable>()("JobUnrunnable", {
  reason: Schema.Literal("SecretsGone", "SecretsUnreadable", "ConfigUnreadable", "AgentUnrunnable"),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect),
}) {}

/** A stored job made runnable: its config with its secrets, and the solver its rollouts run on. */
export interface OpenedJob {
  readonly config: EvalRunConfig
  /** Needs the store the job's model calls (and, embedded, its results) go to. */
  readonly solver: Layer.Layer<Solver, never, ResultStore>
  /** An agent job's: a result's `task_id` (its task directory's name) and the runtime its sandboxes open on. */
  readonly agent: {
    readonly taskIdOf: (seed: number) => string
    readonly sandbox: SandboxRuntimeService
  } | null
  /** Every call the job's interceptor sees (every job's: filter by run id), when its calls are intercepted. */
  readonly modelCalls?: PubSub.PubSub<ModelCall> | undefined
  /** The prices its intercepted calls are priced from, as its summary names them (`PricingService.table`). */
  readonly priceTable?: string | undefined
}

export interface JobRuntimeService {
  readonly open: (record: JobRecord) => Effect.Effect<OpenedJob, JobUnrunnable>
}

/**
 * With an `Interceptor` in context, every job whose policy names an `inference_url` has its model calls routed
 * through it (core's `interceptedSolver`): tokens, cost and traces measured on the wire, each rollout's calls
 * stored before its result.
 */
export const withInterception = (
  base: Layer.Layer<Solver>,
  interceptor: InterceptorService,
  pricing: Option.Option<PricingService>,
  config: EvalRunConfig,
  env: Readonly<Record<string, string | undefined>>,
): Pick<OpenedJob, "solver" | "modelCalls" | "priceTable"> => {
  const upstream = policyUpstream(config, env)
  return upstream === null
    ? { solver: base }
    : {
        solver: interceptedLayer({ interceptor, upstream }).pipe(Layer.provide(base)),
        modelCalls: interceptor.calls,
        priceTable: Option.isSome(pricing) ? pricing.value.table() : undefined,
      }
}

export const makeJobRuntime = (options: JobRuntimeOptions = {}) =>
  Effect.gen(function* () {
    const box = yield* SecretBox
    const interceptor = yield* Effect.serviceOption(Interceptor)
    const pricing = yield* Effect.serviceOption(Pricing)
    const upstreamEnv = options.upstreamEnv ?? process.env
    const sandboxes = yield* Effect.serviceOption(SandboxRuntimes)
    const agentUnrunnable = (message: string, cause?: unknown) =>
      new JobUnrunnable({ reason: "AgentUnrunnable", message, cause })

    /**
     * An agent job (`tasks` set): its tasks read from this machine's path, its sandboxes on this machine's runtime.
     * A job whose path or runtime this machine lacks cannot run here, and says which.
     */
    const agentJob = (config: EvalRunConfig) =>
      Effect.gen(function* () {
        if (Option.isNone(sandboxes)) {
          return yield* agentUnrunnable("this server runs no agent jobs (it has no sandbox runtimes)")
        }
        const sandbox = yield* Effect.mapError(sandboxes.value.get(config.sandbox ?? "docker"), (error) =>
          agentUnrunnable(error.message, error),
        )
        const run = yield* Effect.mapError(harborRun(config, sandbox), (error) => agentUnrunnable(error.message, error))
        return { solver: run.solver, agent: { taskIdOf: run.taskIdOf, sandbox } }
      })

    const secretsOf = (record: JobRecord) =>
      record.secretsSealed === null
        ? Effect.fail(
            new JobUnrunnable({ reason: "SecretsGone", message: "the job's secrets are gone (it had already ended)" }),
          )
        : box.open(record.secretsSealed, record.id).pipe(
            Effect.map((text) => JSON.parse(text) as JobSecrets),
            Effect.mapError(
              (error) => new JobUnrunnable({ reason: "SecretsUnreadable", message: error.message, cause: error }),
            ),
          )

    const service: JobRuntimeService = {
      open: (record) =>
        Effect.gen(function* () {
          const secrets = yield* secretsOf(record)
          const config = yield* Effect.mapError(
            runConfigOf(record.config, secrets),
            (problem) =>
              new JobUnrunnable({
                reason: "ConfigUnreadable",
                message: `the job's stored config is unreadable: ${problem}`,
              }),
          )
          const custom = options.solverFor?.({ jobId: record.id, config })
          const { solver: base, agent } =
            custom !== undefined
              ? { solver: custom, agent: null }
              : config.tasks !== undefined
                ? yield* agentJob(config)
                : { solver: taskAppSolverLayer(config), agent: null }
          const run = Option.isSome(interceptor)
            ? withInterception(base, interceptor.value, pricing, config, upstreamEnv)
            : { solver: base }
          return { config, agent, ...run } satisfies OpenedJob
        }),
    }
    return service
  })

/**
 * Stored job → secrets → config → solver (through the interceptor when there is one): the one way a job is opened,
 * by the embedded job manager and by a cluster's rollout workers alike. An agent job's solver is core's Harbor task
 * solver on a runtime from `SandboxRuntimes`, when the process has one.
 */
export class JobRuntime extends Context.Tag("@proctor/server/JobRuntime")<JobRuntime, JobRuntimeService>() {
  static readonly make = makeJobRuntime
  static readonly layer = (options: JobRuntimeOptions = {}): Layer.Layer<JobRuntime, never, SecretBox> =>
    Layer.effect(JobRuntime, makeJobRuntime(options))
}
