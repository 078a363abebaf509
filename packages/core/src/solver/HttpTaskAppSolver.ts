import { Effect, Layer } from "effect"
import { clusterOf, missingScoreReason, outcomeOf, reportOf } from "../taskApp/RolloutOutcome.js"
import { encodeRolloutRequest } from "../taskApp/RolloutRequestBuilder.js"
import { TaskAppClient } from "../taskApp/TaskAppClient.js"
import { TaskAppError } from "../taskApp/TaskAppError.js"
import type { RolloutResponse } from "../taskApp/TaskAppWire.js"
import { type FinalResult, Solver, type SolverService } from "./Solver.js"

/**
 * A 2xx answer without a finite score is no result: counted as one, it would leave the eval silently empty.
 * The task app did answer, so a retry would get the same answer; an app that wants one answers 5xx.
 */
const noScore = (response: RolloutResponse) =>
  new TaskAppError({
    reason: "NoScore",
    endpoint: "POST /rollout",
    message: `the task app's answer has no score: ${missingScoreReason(response)}`,
  })

/** The solver that asks a task app over HTTP to run each rollout. */
export const makeHttpTaskAppSolver = Effect.map(
  TaskAppClient,
  (client): SolverService => ({
    name: "task-app",
    enforcesTimeout: true,
    solve: (task) =>
      Effect.flatMap(client.rollout(encodeRolloutRequest(task)), (response) => {
        const aborted = response.aborted === true
        const outcome = outcomeOf(response)
        if (outcome.score === null && !aborted) return Effect.fail(noScore(response))
        const cluster = clusterOf(response, task.config.cluster_by)
        const final: FinalResult = {
          _tag: "Final",
          ...outcome,
          ...reportOf(response),
          ...(response.trace === undefined || response.trace === null ? {} : { trace: response.trace }),
          ...(aborted ? { aborted: true } : {}),
          ...(cluster === undefined ? {} : { cluster }),
        }
        return Effect.succeed(final)
      }),
  }),
)

export const HttpTaskAppSolverLayer = Layer.effect(Solver, makeHttpTaskAppSolver)
