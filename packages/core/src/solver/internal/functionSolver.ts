import { Effect } from "effect"
import { isRecord } from "../../internal/isRecord.js"
import { clusterValue } from "../../taskApp/RolloutOutcome.js"
import { RetryableError } from "../RetryableError.js"
import { type FinalResult, type RolloutTask, SolverError, type SolverService } from "../Solver.js"

/** What an `evaluate()` solver is told about the rollout it runs. */
export interface SolveContext {
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
}

export interface SolveResult {
  /** The rollout's score; with the default `passThreshold` of 1, a score ≥ 1 counts as correct for pass@k. */
  readonly score: number
  readonly answer?: unknown
  readonly details?: Readonly<Record<string, unknown>>
}

export type Solve<T> = (task: T, context: SolveContext) => SolveResult | Promise<SolveResult>

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return `threw ${JSON.stringify(error) ?? String(error)}`
  return error.name === "Error" || error.name === "" ? error.message : `${error.name}: ${error.message}`
}

const failure = (error: unknown): SolverError =>
  RetryableError.is(error)
    ? new SolverError({
        reason: "Failed",
        retryable: true,
        message: describe(error),
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      })
    : new SolverError({ reason: "Failed", retryable: false, message: describe(error) })

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
  return {
    _tag: "Final",
    score: value.score,
    reward_mean: null,
    outcome_score: null,
    events_score: null,
    verifier_score: null,
    tokens: null,
    cost_usd: null,
    ...(kept === undefined ? {} : { details: kept }),
  }
}

/** The task's value of `clusterBy`; undefined counts as its own seed's. */
const clusterOfTask = (task: unknown, key: string | undefined): string | undefined =>
  key === undefined || !isRecord(task) ? undefined : clusterValue(task[key])

const cancelled = () => new DOMException("the rollout was stopped (timeout or cancelled run)", "AbortError")

/**
 * A solver from a plain async function of a task. The runner enforces the timeout by interrupting the
 * rollout, which aborts the context's signal; the function's promise is then abandoned (a function that
 * ignores its signal runs on, but its result is no longer counted).
 */
export const functionSolver = <T>(name: string, taskOf: (seed: number) => T, solve: Solve<T>): SolverService => ({
  name,
  enforcesTimeout: false,
  solve: (rollout: RolloutTask) =>
    Effect.async<FinalResult, SolverError>((resume) => {
      const controller = new AbortController()
      const inferenceUrl = rollout.inferenceUrl ?? rollout.config.policy_config.inference_url
      const context: SolveContext = {
        attempt: rollout.key.attempt,
        signal: controller.signal,
        get inferenceUrl(): string {
          if (typeof inferenceUrl === "string") return inferenceUrl
          throw new Error("ctx.inferenceUrl needs evaluate's `model` option ({ baseUrl, apiKey?, provider? })")
        },
      }
      let settled = false
      const settle = (outcome: FinalResult | SolverError) => {
        if (settled) return
        settled = true
        resume(outcome instanceof SolverError ? Effect.fail(outcome) : Effect.succeed(outcome))
      }
      const task = taskOf(rollout.key.seed)
      const cluster = clusterOfTask(task, rollout.config.cluster_by)
      // A solve that throws synchronously is a rejected promise like any other.
      new Promise<unknown>((accept) => accept(solve(task, context))).then(
        (value) => {
          const final = finalOf(value)
          settle(cluster === undefined || final instanceof SolverError ? final : { ...final, cluster })
        },
        (error: unknown) => settle(failure(error)),
      )
      return Effect.sync(() => {
        settled = true
        controller.abort(cancelled())
      })
    }),
})
