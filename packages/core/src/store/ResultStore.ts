import { Context, type Effect, Schema } from "effect"
import type { AgentTrajectoryEvent } from "../result/AgentTrajectoryEvent.js"
import type { EvalResult, RolloutKey } from "../result/EvalResult.js"
import type { ModelCall } from "../result/ModelCall.js"
import type { RolloutStep } from "../result/RolloutStep.js"
import type { RunSummary } from "../summary/Summary.js"

/** `Corrupt`: stored results that do not agree with the run's plan (the message names the first such line). */
export class StoreError extends Schema.TaggedError<StoreError>()("StoreError", {
  reason: Schema.Literal("Io", "NotFound", "AlreadyHasResults", "Corrupt"),
  message: Schema.String,
  /** The run directory that already holds results (`AlreadyHasResults`): the caller says how to resume it. */
  runDir: Schema.optional(Schema.String),
  /** What failed underneath (`Io`: the file system's error), kept whole for traces; its message is in `message`. */
  cause: Schema.optional(Schema.Defect),
}) {}

/** A file-system failure while doing `what`: named in the message, and kept as the error's cause. */
export const storeIoError =
  (what: string) =>
  (cause: unknown): StoreError =>
    new StoreError({
      reason: "Io",
      message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    })

/** What a run's model calls spent, counted call by call (see `ResultStoreService.callSpending`). */
export interface CallSpending {
  readonly calls: number
  /** Tokens of the calls that reported usage (`metered` of them). */
  readonly tokens: number
  readonly metered: number
  /** USD of the calls that had a price (`priced` of them). */
  readonly costUsd: number
  readonly priced: number
  /** The part spent on rollouts whose result is an error. */
  readonly errorTokens: number
  readonly errorCostUsd: number
  /**
   * What the judge's calls (`role = "judge"`, a model grader's) spent, counted apart: the fields above are the
   * policy's alone. Absent when the store does not tell them apart.
   */
  readonly judge?: JudgeCallSpending | undefined
  /**
   * Calls the response cache answered (counted in `calls` and `tokens`, at no cost), and what the `avoidedPriced` of
   * them that had a price would have cost.
   */
  readonly cachedCalls?: number
  readonly avoidedCostUsd?: number
  readonly avoidedPriced?: number
}

/** A judge's calls and what they spent; `rollouts` is how many rollouts they were made for. */
export interface JudgeCallSpending {
  readonly calls: number
  readonly tokens: number
  readonly metered: number
  readonly costUsd: number
  readonly priced: number
  readonly rollouts: number
}

export interface ResultStoreService {
  /** Where results live, for messages (`proctor eval --resume …`); null when not on disk. */
  readonly location: string | null
  /** Results stored by earlier sessions of this run, one per planned key; a store that disagrees with the plan fails. */
  readonly completed: Effect.Effect<Iterable<EvalResult>, StoreError>
  /**
   * A result is counted only after this succeeds; what a counted result then survives is the store's: the run
   * directory's and the job server's SQLite survive a killed process but not a power loss or a kernel crash (no
   * fsync per result; see each), PostgreSQL survives what its commits survive.
   */
  readonly append: (result: EvalResult) => Effect.Effect<void, StoreError>
  /** The inference interceptor's records of a rollout's model calls, stored before its result. */
  readonly appendModelCalls: (calls: ReadonlyArray<ModelCall>) => Effect.Effect<void, StoreError>
  /** Steps of multi-step rollouts as they happen (`steps.jsonl`, a table), each try's in order. */
  readonly appendSteps: (steps: ReadonlyArray<RolloutStep>) => Effect.Effect<void, StoreError>
  /** A command-line agent's own output as it arrives (`agent_trajectory.jsonl`); absent where it is not kept. */
  readonly appendAgentEvents?: (events: ReadonlyArray<AgentTrajectoryEvent>) => Effect.Effect<void, StoreError>
  readonly saveSummary: (summary: RunSummary) => Effect.Effect<void, StoreError>
  /**
   * Every stored model call's tokens and cost, this run's earlier sessions and failed tries included; `errored`
   * names the rollouts whose result is an error. Absent where the store does not keep calls that way.
   */
  readonly callSpending?: (errored: (key: RolloutKey) => boolean) => Effect.Effect<CallSpending, StoreError>
}

/** Where finished rollouts are kept: a run directory (CLI) or a database (server). */
export class ResultStore extends Context.Tag("@proctor/core/ResultStore")<ResultStore, ResultStoreService>() {}
