import { Cause, Effect, Exit, Option } from "effect"
import type { InterceptorUpstream, RolloutInterception } from "../interceptor/Interceptor.js"
import { roundUsd } from "../internal/roundUsd.js"
import type { ModelCall } from "../result/ModelCall.js"
import { mergeSessionTraces, sessionTraceFromCalls } from "../traces/SessionTrace.js"
import { modelCallsFailure } from "./ModelCallsFailed.js"
import type { FinalResult, RolloutFailure, RolloutTask, SolverService } from "./Solver.js"

export interface InterceptionOptions {
  readonly interceptor: RolloutInterception
  /** The real model: the policy's configured `inference_url`, and the key proctor sends it. */
  readonly upstream: InterceptorUpstream
  /**
   * Stores a rollout's calls (model_calls.jsonl, a table) before its result is stored. Calls of failed
   * tries are recorded too: they were made, and may have been paid for.
   */
  readonly recordCalls: (calls: ReadonlyArray<ModelCall>) => Effect.Effect<void>
  /** The prices the interceptor's calls are priced from, as the summary names them (`PricingService.table`). */
  readonly priceTable?: string | undefined
}

const totalCost = (values: ReadonlyArray<number | null>): number | null =>
  values.length === 0 || values.some((v) => v === null)
    ? null
    : roundUsd(values.reduce<number>((a, v) => a + (v ?? 0), 0))

/** Tokens and cost measured on the wire. A call with usage but no price makes the rollout unpriced, not cheaper. */
export const callTotals = (calls: ReadonlyArray<ModelCall>) => {
  const metered = calls.filter((c) => c.usage !== null)
  return {
    tokens: metered.length === 0 ? null : metered.reduce((sum, c) => sum + (c.usage?.total_tokens ?? 0), 0),
    cost_usd: totalCost(metered.map((c) => c.cost_usd)),
  }
}

const enrich = (task: RolloutTask, final: FinalResult, calls: ReadonlyArray<ModelCall>): FinalResult => {
  if (calls.length === 0) return final
  const totals = callTotals(calls)
  const traced = task.config.return_trace
    ? {
        trace: mergeSessionTraces(
          final.trace,
          sessionTraceFromCalls(calls, {
            sessionId: task.rolloutId,
            runId: task.runId,
            seed: task.key.seed,
            attempt: task.key.attempt,
          }),
        ),
      }
    : {}
  return { ...final, tokens: totals.tokens ?? final.tokens, cost_usd: totals.cost_usd, ...traced }
}

/** A limit the interceptor holds reached: its refused calls say so, not that the model failed. */
const budgetReached = (task: RolloutTask) => {
  const reached = task.limits?.reached()
  return reached === "max_tokens" || reached === "max_cost" || reached === "max_turns"
}

/** A result scored without one successful model call is no measure of the model: the rollout fails instead. */
const settle = (task: RolloutTask, final: FinalResult, calls: ReadonlyArray<ModelCall>) => {
  const failure = budgetReached(task) ? null : modelCallsFailure(calls)
  return failure === null ? Effect.succeed(enrich(task, final, calls)) : Effect.fail(failure)
}

/**
 * An in-process solver that fails after every model call it made failed (its client threw on a 429 or an
 * unreachable model) failed because of the model: the rollout is the error the upstream's answer names,
 * retried when that is a system error, as a task app's rollout would be.
 */
const failed = (
  task: RolloutTask,
  exit: Exit.Failure<FinalResult, RolloutFailure>,
  calls: ReadonlyArray<ModelCall>,
) => {
  const error = Cause.failureOption(exit.cause)
  if (Option.isNone(error) || error.value._tag !== "SolverError" || budgetReached(task)) return exit
  const failure = modelCallsFailure(calls)
  return failure === null ? exit : Effect.fail(failure)
}

/**
 * Routes a solver's model calls through the inference interceptor: each try of a rollout gets its own
 * correlation id in the `inference_url` it is given, so concurrent rollouts never mix calls, and the
 * result carries tokens, cost and a trace measured on the wire rather than reported by the task app.
 */
export const interceptedSolver = (solver: SolverService, options: InterceptionOptions): SolverService => ({
  name: `${solver.name}+interceptor`,
  enforcesTimeout: solver.enforcesTimeout,
  ...(solver.usesLimits === undefined ? {} : { usesLimits: solver.usesLimits }),
  solve: (task) =>
    Effect.flatMap(
      Effect.orDie(
        options.interceptor.open({
          runId: task.runId,
          rolloutId: task.rolloutId,
          seed: task.key.seed,
          attempt: task.key.attempt,
          upstream: options.upstream,
          budget: task.limits,
        }),
      ),
      ({ cid, inferenceUrl }) =>
        Effect.onInterrupt(
          Effect.flatMap(Effect.exit(solver.solve({ ...task, inferenceUrl })), (exit) =>
            Effect.flatMap(options.interceptor.close(cid), (calls) =>
              Effect.zipRight(
                options.recordCalls(calls),
                Exit.isSuccess(exit) ? settle(task, exit.value, calls) : failed(task, exit, calls),
              ),
            ),
          ),
          () => Effect.flatMap(options.interceptor.close(cid), options.recordCalls),
        ),
    ),
})
