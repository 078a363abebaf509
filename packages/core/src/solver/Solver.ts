import { Context, Effect, Option, Schema, Stream } from "effect"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import type { GraderVerdicts } from "../grader/Grader.js"
import type { ErrorKind, RolloutKey } from "../result/EvalResult.js"
import type { RolloutStep, StopReason } from "../result/RolloutStep.js"
import type { SandboxError } from "../sandbox/Sandbox.js"
import type { RolloutOutcome } from "../taskApp/RolloutOutcome.js"
import type { TaskAppError } from "../taskApp/TaskAppError.js"
import type { ModelCallsFailed } from "./ModelCallsFailed.js"
import type { RolloutLimits } from "./RolloutLimits.js"

/** What a solver is asked to do: one rollout of one (seed, attempt) of a run. */
export interface RolloutTask {
  readonly runId: string
  readonly key: RolloutKey
  /** The rollout's own id, sent to task apps as `run_id` and `trace_correlation_id`. */
  readonly rolloutId: string
  readonly config: EvalRunConfig
  /**
   * Where this try's model calls go when proctor routes them (the interceptor's URL, with the try's correlation
   * id): it stands for the policy's `inference_url`, and the policy's `api_key` stays with the interceptor.
   */
  readonly inferenceUrl?: string
  /** This try's limits (agent runs, and runs with limits in their config); see `RolloutLimits`. */
  readonly limits?: RolloutLimits
  /**
   * Stores a step in the run's `steps.jsonl` (bounded, numbered and timed by the runner) and publishes it as a
   * `RolloutStep` event; a `model` step counts a turn. `Solver.fromStream` calls it for every step with a `record`.
   */
  readonly recordStep?: (record: StepRecord) => Effect.Effect<void>
  /**
   * Stores an event of a command-line agent's own output (its trajectory as it wrote it) in the run's
   * `agent_trajectory.jsonl`, numbered and bounded by the runner; see `AgentEvent`.
   */
  readonly recordAgentEvent?: (agent: string, event: unknown) => Effect.Effect<void>
}

/**
 * One step of a rollout as it happens (an observation, tool calls, a reward). `record`, when present, is stored
 * in the run directory's `steps.jsonl` (the runner fills in the rollout's id, key, try, index and times).
 */
export interface Step {
  readonly _tag: "Step"
  readonly index: number
  readonly reward?: number | null
  readonly info?: unknown
  readonly record?: StepRecord
}

/** What a solver says of a step; the rest of a `RolloutStep` is the runner's. */
export type StepRecord = Omit<RolloutStep, "rollout_id" | "seed" | "attempt" | "retry" | "index" | "at" | "elapsed_ms">

/** How a rollout ended: the numbers read from it, and its trace when one was asked for. */
export interface FinalResult extends RolloutOutcome {
  readonly _tag: "Final"
  readonly trace?: unknown
  /** A task app may report a rollout it gave up on; proctor records it as an error, not a score. */
  readonly aborted?: boolean
  /**
   * What the solver said about the rollout, kept in the result: an in-process solver's answer and details,
   * a task app's `metrics.details`, its last trajectory's `final` and last step's `info`.
   */
  readonly details?: unknown
  readonly final?: unknown
  readonly info?: unknown
  /** The task's value of the run's `cluster_by` key, when the solver knows it. */
  readonly cluster?: string
  /** Agent rollouts: why the agent stopped, its model turns and its conversation's length in messages. */
  readonly stop_reason?: StopReason
  readonly turns?: number
  readonly messages?: number
  /** The run's graders' verdicts of this rollout, by grader name. */
  readonly grades?: GraderVerdicts
}

/**
 * A final result that is a bare score: none of a task app's reward breakdown, tokens or cost; `over` adds or replaces
 * fields (details, an agent's stop reason, a verifier's score).
 */
export const finalOfScore = (score: number, over: Omit<Partial<FinalResult>, "_tag" | "score"> = {}): FinalResult => ({
  _tag: "Final",
  score,
  reward_mean: null,
  outcome_score: null,
  events_score: null,
  verifier_score: null,
  tokens: null,
  cost_usd: null,
  ...over,
})

/** A failure inside an in-process solver. `retryable` marks system errors (nanoeval's rule). */
export class SolverError extends Schema.TaggedError<SolverError>()("SolverError", {
  /**
   * `Verifier`: the task's tests left no reward or ran past their time, or a grader could not judge; `Judge`: a judge
   * model gave no usable verdict after its retries (neither is retried: the policy's answer stands).
   */
  reason: Schema.Literal("Failed", "Timeout", "NoResult", "NoScore", "Verifier", "Judge"),
  message: Schema.String,
  retryable: Schema.Boolean,
  retryAfterMs: Schema.optional(Schema.Number),
}) {
  get kind(): ErrorKind {
    return SOLVER_ERROR_KINDS[this.reason]
  }
}

const SOLVER_ERROR_KINDS: Readonly<Record<SolverError["reason"], ErrorKind>> = {
  Failed: "solver",
  NoResult: "solver",
  Timeout: "timeout",
  NoScore: "no_score",
  Verifier: "verifier",
  Judge: "judge",
}

/** `SandboxError` is a failure of its own: kind `sandbox`, retried unless the runtime is unavailable. */
export type RolloutFailure = TaskAppError | SolverError | ModelCallsFailed | SandboxError

export interface SolverService {
  readonly name: string
  /**
   * True when the solver enforces `config.timeout_s` itself (the HTTP solver lets its transport do it),
   * so the runner adds no timer per rollout.
   */
  readonly enforcesTimeout: boolean
  /** True for agents (multi-step solvers): each try gets `limits` even when the run's config sets none. */
  readonly usesLimits?: boolean
  readonly solve: (task: RolloutTask) => Effect.Effect<FinalResult, RolloutFailure>
}

/** Runs rollouts. The HTTP task app is one implementation; library users write in-process ones. */
export class Solver extends Context.Tag("@proctor/core/Solver")<Solver, SolverService>() {
  /**
   * A solver written as nanoeval does: a rollout is a stream of steps that ends with its final result. The first
   * final result ends the rollout: the stream is closed there (its finalizers run, a generator behind it is
   * returned), whatever it would have produced next. Each step with a `record` is stored (`task.recordStep`);
   * `onStep` sees every step as it happens (progress, live traces).
   */
  static readonly fromStream = (
    name: string,
    run: (task: RolloutTask) => Stream.Stream<Step | FinalResult, RolloutFailure>,
    onStep: (task: RolloutTask, step: Step) => Effect.Effect<void> = () => Effect.void,
  ): SolverService => ({
    name,
    enforcesTimeout: false,
    usesLimits: true,
    solve: (task) => {
      const record = task.recordStep
      const seeStep = (step: Step) =>
        record === undefined || step.record === undefined
          ? onStep(task, step)
          : Effect.zipRight(record(step.record), onStep(task, step))
      return run(task).pipe(
        Stream.tap((item) => (item._tag === "Step" ? seeStep(item) : Effect.void)),
        Stream.filter((item): item is FinalResult => item._tag === "Final"),
        Stream.runHead,
        Effect.flatMap(
          Option.match({
            onNone: () =>
              Effect.fail(
                new SolverError({ reason: "NoResult", retryable: false, message: `${name} ended without a result` }),
              ),
            onSome: Effect.succeed,
          }),
        ),
      )
    },
  })
}
