import type { AgentTrajectoryEvent, EvalResult, LiveRunView, RolloutStep } from "@proctor/core"
import type { Effect, Option, Stream } from "effect"
import type { RolloutDetail, RowsPage, RunHead } from "../apiShapes.js"
import type { ViewerError } from "./ViewerError.js"

/**
 * One run as the viewer data API serves it, whatever holds it: a run directory (`proctor view`), the run an
 * eval is writing (`proctor eval --view`), or a job's rows in the job server's database. `E` is the holder's own
 * failure (the job store's), which its host maps to a status itself.
 */
export interface ViewerRun<E = never> {
  readonly head: Effect.Effect<Omit<RunHead, "index">, ViewerError | E>
  /** Up to `limit` rows from position `from`, in the run's append-only order. */
  readonly rows: (from: number, limit: number) => Effect.Effect<RowsPage, ViewerError | E>
  readonly rollout: (seed: number, attempt: number) => Effect.Effect<Option.Option<RolloutDetail>, ViewerError | E>
  /** The rollout's timeline, while it runs too (no result needed); absent where the holder keeps no steps. */
  readonly steps?: (seed: number, attempt: number) => Effect.Effect<ReadonlyArray<RolloutStep>, ViewerError | E>
  /**
   * A command-line agent's own output for the rollout (its `agent_trajectory.jsonl` lines), while it runs too; absent
   * where the holder keeps none.
   */
  readonly agentEvents?: (
    seed: number,
    attempt: number,
  ) => Effect.Effect<ReadonlyArray<AgentTrajectoryEvent>, ViewerError | E>
  /** What is in flight now; null when nobody here follows the run's in-flight work. */
  readonly live: Effect.Effect<LiveRunView | null, ViewerError | E>
  /** Every final result, for a comparison. */
  readonly results: Stream.Stream<EvalResult, ViewerError | E>
  /** Calls `onChange` whenever the run has new rows or live state; returns the function that stops it. */
  readonly watch: (onChange: () => void) => () => void
}
