import { Effect, Stream } from "effect"
import { graderFailure } from "../grader/GradedSolver.js"
import { GraderError } from "../grader/Grader.js"
import type { GradeInProcess, inProcessGrading } from "../grader/gradeInProcess.js"
import { isRecord } from "../internal/isRecord.js"
import { JudgeError } from "../judge/JudgeError.js"
import type { StopReason } from "../result/RolloutStep.js"
import { SandboxError, type SandboxRuntimeService, type SandboxSpec } from "../sandbox/Sandbox.js"
import { clusterValue } from "../taskApp/RolloutOutcome.js"
import { isAsyncIterator, iteratorStream } from "./internal/iteratorStream.js"
import { RetryableError } from "./RetryableError.js"
import type { RolloutLimits } from "./RolloutLimits.js"
import {
  type FinalResult,
  finalOfScore,
  type RolloutFailure,
  type RolloutTask,
  Solver,
  SolverError,
  type SolverService,
  type Step,
  type StepRecord,
} from "./Solver.js"
import { type SandboxSession, sandboxSession } from "./sandboxSession.js"

/** What an `evaluate()` solver is told about the rollout it runs. */
export interface SolveContext<S = unknown> {
  /** 0-based: which of the task's `attempts` this is (retries of one attempt share it). */
  readonly attempt: number
  /** Aborted when the rollout times out or the run is cancelled: pass it to `fetch` and model clients. */
  readonly signal: AbortSignal
  /**
   * This rollout's own base URL on the inference interceptor (`http://127.0.0.1:PORT/cid_…/v1`): point any
   * OpenAI-compatible or Anthropic client at it and each call is traced, counted and priced. Needs
   * `evaluate`'s `model` option; reading it without one throws.
   */
  readonly inferenceUrl: string
  /**
   * This try's limits (turns, tokens, cost, the agent's time, grading time): present for agents (an `async
   * function*` solve, a `sandbox` option) and for runs that set any limit; see `RolloutLimits`.
   */
  readonly limits: RolloutLimits | undefined
  /**
   * The rollout's own sandbox, opened before `solve` is called (its start-up is not the agent's time) and torn
   * down after the rollout, whatever ended it. Needs `evaluate`'s `sandbox` option; reading it without one throws.
   */
  readonly sandbox: SandboxSession
  /** What `evaluate`'s `setup` returned, once for the run (undefined without one). */
  readonly shared: S
  /** Stores a step in the run's `steps.jsonl` (for solvers that are not generators; a generator yields its steps). */
  readonly step: (record: StepRecord) => Promise<void>
  /**
   * Grades an answer with rule, code or model graders (`{ type: "equals", field: "answer" }`, `{ type: "rubric",
   * rubric: "…" }`, one or a list, as `[[eval.graders]]` tables): resolves to the combined score and each verdict by
   * name. Return its `score`. Model graders ask `evaluate`'s `judge` (or their own), through the run's interceptor:
   * their calls are this rollout's, stored and priced apart from the policy's. Rejected (uncaught, the rollout's
   * error of kind `verifier` or `judge`) when a grader cannot judge; rejected with one line naming the key (kind
   * `solver`) when a spec is wrong: a key its type does not read, a missing or mistyped one, an unknown type.
   */
  readonly grade: GradeInProcess
}

export interface SolveResult {
  /** The rollout's score; with the default `passThreshold` of 1, a score ≥ 1 counts as correct for pass@k. */
  readonly score: number
  readonly answer?: unknown
  readonly details?: Readonly<Record<string, unknown>>
  /** Agents: why the agent stopped (default: the limit reached, else `model_ended`), its turns and messages. */
  readonly stop_reason?: StopReason | undefined
  readonly turns?: number | undefined
  readonly messages?: number | undefined
}

/** What a multi-step solver yields: its steps, and (yielded or returned) its result; the first result ends it. */
export type SolveItem = StepRecord | SolveResult

/**
 * One rollout: a result (or its promise); an async generator (`async function*`) that yields steps and returns or
 * yields its result; or, for Effect users, a `Stream` of the same. Throw (or fail with) `RetryableError` to be
 * retried; a `SandboxError` is a retried `sandbox` error; anything else is an error of the rollout.
 */
export type Solve<T, S = unknown> = (
  task: T,
  context: SolveContext<S>,
) =>
  | SolveResult
  | Promise<SolveResult>
  | AsyncGenerator<SolveItem, SolveResult | undefined, undefined>
  | Stream.Stream<SolveItem, unknown>

/** Each rollout's sandbox: where from, and what it is made of for a task (its labels are proctor's). */
export interface FunctionSolverSandbox<T> {
  readonly runtime: SandboxRuntimeService
  readonly spec: (task: T) => Omit<SandboxSpec, "labels">
}

export interface FunctionSolverOptions<T, S> {
  readonly sandbox?: FunctionSolverSandbox<T> | undefined
  readonly shared?: S
  /** Every try gets `limits` (the runner's stop reasons) even when the run sets none. */
  readonly agent?: boolean
  /** `ctx.grade` of the run (its judges). */
  readonly grading: ReturnType<typeof inProcessGrading>
}

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return `threw ${JSON.stringify(error) ?? String(error)}`
  return error.name === "Error" || error.name === "" ? error.message : `${error.name}: ${error.message}`
}

const failure = (error: unknown): RolloutFailure => {
  if (error instanceof SandboxError || error instanceof SolverError) return error
  if (error instanceof GraderError || error instanceof JudgeError) return graderFailure(error)
  return RetryableError.is(error)
    ? new SolverError({
        reason: "Failed",
        retryable: true,
        message: describe(error),
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      })
    : new SolverError({ reason: "Failed", retryable: false, message: describe(error) })
}

const AGENT_FIELDS = ["stop_reason", "turns", "messages"] as const

const finalOf = (value: unknown): FinalResult | SolverError => {
  if (!isRecord(value) || typeof value.score !== "number" || !Number.isFinite(value.score)) {
    const got = isRecord(value) ? `score ${JSON.stringify(value.score) ?? "undefined"}` : JSON.stringify(value)
    return new SolverError({
      reason: "NoResult",
      retryable: false,
      message: `solve must return { score: <finite number> }; got ${got ?? "undefined"}`,
    })
  }
  const details = isRecord(value.details) ? value.details : undefined
  const kept = value.answer === undefined ? details : { ...details, answer: value.answer }
  const agent = AGENT_FIELDS.some((field) => value[field] !== undefined)
    ? Object.fromEntries(AGENT_FIELDS.filter((field) => value[field] !== undefined).map((f) => [f, value[f]]))
    : undefined
  return finalOfScore(value.score, { ...(kept === undefined ? {} : { details: kept }), ...agent })
}

/** A step is what says which `kind` it is; anything else yielded is taken for the result. */
const isStepRecord = (value: unknown): value is StepRecord => isRecord(value) && typeof value.kind === "string"

/** The task's value of `clusterBy`; undefined counts as its own seed's. */
const clusterOfTask = (task: unknown, key: string | undefined): string | undefined =>
  key === undefined || !isRecord(task) ? undefined : clusterValue(task[key])

const cancelled = () => new DOMException("the rollout was stopped (timeout or cancelled run)", "AbortError")

const isStream = (value: unknown): value is Stream.Stream<unknown, unknown> =>
  typeof value === "object" && value !== null && Stream.StreamTypeId in value

const noSandbox = (): never => {
  throw new Error("ctx.sandbox needs evaluate's `sandbox` option ({ runtime, spec })")
}

/**
 * A solver from an async function of a task, or an async generator of its steps (nanoeval's shape). The runner
 * enforces the timeout by interrupting the rollout, which aborts the context's signal and closes a generator; a
 * plain function's promise is then abandoned (a function that ignores its signal runs on, but its result is no
 * longer counted).
 */
export const functionSolver = <T, S = unknown>(
  name: string,
  taskOf: (seed: number) => T,
  solve: Solve<T, S>,
  options: FunctionSolverOptions<T, S>,
): SolverService => {
  const { sandbox } = options

  const run = (rollout: RolloutTask, session: SandboxSession | undefined): Effect.Effect<FinalResult, RolloutFailure> =>
    Effect.suspend(() => {
      const controller = new AbortController()
      const abort = () => controller.abort(cancelled())
      const inferenceUrl = rollout.inferenceUrl ?? rollout.config.policy_config.inference_url
      const recordStep = rollout.recordStep
      const context: SolveContext<S> = {
        attempt: rollout.key.attempt,
        signal: controller.signal,
        get inferenceUrl(): string {
          if (typeof inferenceUrl === "string") return inferenceUrl
          throw new Error("ctx.inferenceUrl needs evaluate's `model` option ({ baseUrl, apiKey?, provider? })")
        },
        limits: rollout.limits,
        get sandbox(): SandboxSession {
          return session ?? noSandbox()
        },
        shared: options.shared as S,
        step: (record) => (recordStep === undefined ? Promise.resolve() : Effect.runPromise(recordStep(record))),
        grade: options.grading({ rolloutId: rollout.rolloutId, seed: rollout.key.seed, attempt: rollout.key.attempt }),
      }
      const task = taskOf(rollout.key.seed)
      const cluster = clusterOfTask(task, rollout.config.cluster_by)
      const withCluster = (final: FinalResult): FinalResult => (cluster === undefined ? final : { ...final, cluster })
      let output: ReturnType<Solve<T, S>>
      try {
        output = solve(task, context)
      } catch (error) {
        return Effect.fail(failure(error))
      }
      if (isStream(output) || isAsyncIterator(output)) {
        const items: Stream.Stream<unknown, RolloutFailure> = isStream(output)
          ? Stream.mapError(output, failure)
          : iteratorStream(output, failure, abort)
        let index = 0
        const steps = Stream.mapEffect(items, (item): Effect.Effect<Step | FinalResult, RolloutFailure> => {
          if (isStepRecord(item)) return Effect.succeed({ _tag: "Step", index: index++, record: item })
          const final = finalOf(item)
          return final instanceof SolverError ? Effect.fail(final) : Effect.succeed(final)
        })
        return Solver.fromStream(name, () => steps)
          .solve(rollout)
          .pipe(
            Effect.map(withCluster),
            Effect.onInterrupt(() => Effect.sync(abort)),
          )
      }
      const result = output
      return Effect.async<FinalResult, RolloutFailure>((resume) => {
        let settled = false
        const settle = (outcome: FinalResult | RolloutFailure) => {
          if (settled) return
          settled = true
          resume(outcome._tag === "Final" ? Effect.succeed(outcome) : Effect.fail(outcome))
        }
        Promise.resolve(result).then(
          (value) => {
            const final = finalOf(value)
            settle(final instanceof SolverError ? final : withCluster(final))
          },
          (error: unknown) => settle(failure(error)),
        )
        return Effect.sync(() => {
          settled = true
          abort()
        })
      })
    })

  return {
    name,
    enforcesTimeout: false,
    usesLimits: options.agent === true || sandbox !== undefined,
    solve: (rollout) =>
      sandbox === undefined
        ? run(rollout, undefined)
        : Effect.scoped(
            Effect.gen(function* () {
              const task = taskOf(rollout.key.seed)
              // The sandbox's start-up is not the agent's working time.
              rollout.limits?.pause()
              const handle = yield* sandbox.runtime
                .open({ ...sandbox.spec(task), labels: { runId: rollout.runId, rolloutId: rollout.rolloutId } })
                .pipe(Effect.ensuring(Effect.sync(() => rollout.limits?.resume())))
              return yield* run(rollout, sandboxSession(handle))
            }),
          ),
  }
}
