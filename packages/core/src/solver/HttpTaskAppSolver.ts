import { Clock, Duration, Effect, Layer, Option } from "effect"
import { awaitAsyncRollout, type SettledRollout } from "../taskApp/awaitAsyncRollout.js"
import { type PendingRollout, PendingRollouts, type PendingRolloutsService } from "../taskApp/PendingRollouts.js"
import { firstPollDelayMs } from "../taskApp/PollSchedule.js"
import { clusterOf, missingScoreReason, outcomeOf, reportOf } from "../taskApp/RolloutOutcome.js"
import { encodeRolloutRequest } from "../taskApp/RolloutRequestBuilder.js"
import { TaskAppClient, type TaskAppClientService } from "../taskApp/TaskAppClient.js"
import { TaskAppError } from "../taskApp/TaskAppError.js"
import type { RolloutResponse } from "../taskApp/TaskAppWire.js"
import { type FinalResult, type RolloutTask, Solver, type SolverService } from "./Solver.js"

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

/** How long proctor waits for the app to confirm a terminate before it moves on (the rollout is abandoned anyway). */
const TERMINATE_WAIT = Duration.seconds(5)

const finalOf = (task: RolloutTask, response: RolloutResponse, stopped: boolean) => {
  const aborted = stopped || response.aborted === true
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
}

const solveWith = (client: TaskAppClientService, pending: PendingRolloutsService) => {
  // A store that cannot write is fatal for the run, as it is for results.
  const release = (task: RolloutTask) => Effect.orDie(pending.release(task.key))

  /** Waits for a rollout the app runs in the background; one abandoned (deadline, cancel, Ctrl-C) is terminated. */
  const follow = (task: RolloutTask, rollout: PendingRollout, firstDelayMs: number) => {
    const terminate = (reason: string) =>
      client.terminateRollout(rollout.appRolloutId, reason).pipe(Effect.timeout(TERMINATE_WAIT), Effect.ignore)
    return awaitAsyncRollout({ client, pending: rollout, timeoutS: task.config.timeout_s, firstDelayMs }).pipe(
      Effect.onInterrupt(() => Effect.zipRight(terminate("cancelled"), release(task))),
      Effect.tapBoth({
        onSuccess: () => release(task),
        // A rollout the app failed is over; any other failure leaves it running unless proctor says stop.
        onFailure: (error) =>
          Effect.zipRight(
            error.reason === "RolloutFailed"
              ? Effect.void
              : terminate(error.reason === "Timeout" ? "timeout" : "abandoned"),
            release(task),
          ),
      }),
    )
  }

  const settledFinal = (task: RolloutTask, settled: Exclude<SettledRollout, { _tag: "Unknown" }>) =>
    finalOf(task, settled.response, settled._tag === "Stopped")

  const start = (task: RolloutTask) =>
    Effect.flatMap(client.rollout(encodeRolloutRequest(task)), (started) => {
      if (started._tag === "Finished") return finalOf(task, started.response, false)
      const { appRolloutId, statusPath, retryAfterMs } = started.accepted
      return Effect.gen(function* () {
        const rollout = { appRolloutId, statusPath, acceptedAtMs: yield* Clock.currentTimeMillis }
        // Journaled before the first poll: a session killed from here on re-attaches on resume.
        yield* Effect.orDie(pending.hold(task.key, rollout))
        const settled = yield* follow(task, rollout, firstPollDelayMs(retryAfterMs))
        if (settled._tag === "Unknown") {
          return yield* Effect.fail(
            new TaskAppError({
              reason: "HttpStatus",
              status: 404,
              endpoint: `GET ${statusPath}`,
              message: `the task app no longer knows rollout ${appRolloutId}, which it accepted in this session`,
            }),
          )
        }
        return yield* settledFinal(task, settled)
      })
    })

  return (task: RolloutTask) =>
    Effect.flatMap(pending.held(task.key), (held) => {
      if (Option.isNone(held)) return start(task)
      // An earlier session (killed) left this rollout with the app: polled again, at once, instead of started over.
      return Effect.flatMap(follow(task, held.value, 0), (settled) =>
        settled._tag === "Unknown" ? start(task) : settledFinal(task, settled),
      )
    })
}

/**
 * The solver that asks a task app over HTTP to run each rollout: the answer is the result, or (the async form)
 * the id of a rollout the app runs in the background, polled until it settles. Rollouts in the async form are
 * remembered in `PendingRollouts` (the run directory's `async_rollouts.jsonl` when it is provided).
 */
export const makeHttpTaskAppSolver = Effect.gen(function* () {
  const client = yield* TaskAppClient
  const pending = yield* Effect.flatMap(Effect.serviceOption(PendingRollouts), (provided) =>
    Option.match(provided, { onSome: Effect.succeed, onNone: () => PendingRollouts.make }),
  )
  const solve = solveWith(client, pending)
  return { name: "task-app", enforcesTimeout: true, solve } satisfies SolverService
})

export const HttpTaskAppSolverLayer = Layer.effect(Solver, makeHttpTaskAppSolver)
