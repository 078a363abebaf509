import { Duration, Effect, Fiber, PubSub } from "effect"
import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import type { RunEvent, RunProgress } from "../events/RunEvents.js"
import type { JudgeObservations } from "../judge/JudgeObservations.js"
import { type PlannedKey, RolloutPlan } from "../plan/RolloutPlan.js"
import type { AgentTrajectoryEvent } from "../result/AgentTrajectoryEvent.js"
import {
  type EvalResult,
  MAX_RETRY_ERROR_CHARS,
  MAX_RETRY_LOG_ENTRIES,
  type RetryLogEntry,
  type RolloutKey,
  rolloutKeyId,
} from "../result/EvalResult.js"
import type { RolloutStep } from "../result/RolloutStep.js"
import type { LimitSettings } from "../solver/RolloutLimits.js"
import { type FinalResult, type RolloutFailure, Solver, SolverError, type SolverService } from "../solver/Solver.js"
import { ResultStore, type StoreError } from "../store/ResultStore.js"
import { type RunSummary, SummaryAccumulator } from "../summary/Summary.js"
import { makeRolloutId } from "../taskApp/RolloutRequestBuilder.js"
import { type BackoffPolicy, defaultBackoff, retryDelay } from "./Backoff.js"
import { agentEventRecorder } from "./internal/agentEventRecorder.js"
import { boundJson } from "./internal/boundJson.js"
import { hasLimits, LimitsHelper, limitSettingsOf, stoppedAtLimit } from "./internal/LimitsHelper.js"
import { stepRecorder } from "./internal/stepRecorder.js"
import { RunBudget } from "./RunBudget.js"
import { makeRunControl, type RunControl } from "./RunControl.js"

export interface RunnerOptions {
  readonly runId: string
  readonly config: EvalRunConfig
  readonly backoff?: BackoffPolicy | undefined
  readonly control?: RunControl | undefined
  readonly events?: PubSub.PubSub<RunEvent> | undefined
  /** The id of the task behind a seed, recorded in its results (`evaluate()`, whose tasks have ids). */
  readonly taskIdOf?: ((seed: number) => string | number) | undefined
  /** Run the keys an earlier session stored as errors again; their new results are appended and win. */
  readonly retryErrors?: boolean | undefined
  /**
   * The session's budget (`max_run_cost`, `max_run_tokens`); default: the config's, metered by what results report.
   * Give one metered by the intercepted model calls when the run has them (see `EvalRun`).
   */
  readonly budget?: RunBudget | null | undefined
  /** The run's model graders' verdicts, collected for the summary's `judge_trust` (earlier sessions' included). */
  readonly judgeObservations?: JudgeObservations | undefined
  /** The prices its model calls were priced from (`PricingService.table`); default: the maintained table in force. */
  readonly priceTable?: string | undefined
}

export interface RunOutcome {
  readonly runId: string
  readonly location: string | null
  readonly summary: RunSummary
  /** True when a stop was requested before every rollout ran; the missing keys are resumable. */
  readonly interrupted: boolean
}

/** The solve function with the run's per-rollout deadline, unless the solver keeps its own. */
export const withDeadline = (solver: SolverService, timeoutS: number) =>
  solver.enforcesTimeout
    ? solver.solve
    : (task: Parameters<SolverService["solve"]>[0]) =>
        solver.solve(task).pipe(
          Effect.timeoutFail({
            duration: Duration.seconds(timeoutS),
            onTimeout: () =>
              new SolverError({ reason: "Timeout", retryable: true, message: `no result within ${timeoutS} s` }),
          }),
        )

const isRetryable = (error: RolloutFailure) => error.retryable

interface Attempt {
  readonly key: RolloutKey
  readonly rolloutId: string
  readonly startedAt: string
  readonly retries: number
  readonly latencyMs: number
  /** The failed tries before this one; undefined when there were none. */
  readonly retryLog: ReadonlyArray<RetryLogEntry> | undefined
}

const withRetryLog = (result: EvalResult, a: Attempt): EvalResult =>
  a.retryLog === undefined ? result : { ...result, retry_log: a.retryLog }

/** Built as one literal (no spreads): this runs once per rollout on the hot path. */
const okResult = (a: Attempt, final: FinalResult): EvalResult => {
  const aborted = final.aborted === true
  const result: EvalResult = {
    seed: a.key.seed,
    attempt: a.key.attempt,
    score: final.score,
    reward_mean: final.reward_mean,
    outcome_score: final.outcome_score,
    events_score: final.events_score,
    latency_ms: a.latencyMs,
    verifier_score: final.verifier_score,
    tokens: final.tokens,
    cost_usd: final.cost_usd,
    error: aborted ? "the task app aborted the rollout" : null,
    status: aborted ? "error" : "ok",
    error_kind: aborted ? "aborted" : null,
    retries: a.retries,
    started_at: a.startedAt,
    finished_at: new Date().toISOString(),
    run_id: a.rolloutId,
    details: boundJson(final.details),
    final: boundJson(final.final),
    info: boundJson(final.info),
  }
  const traced = final.trace === undefined ? result : { ...result, trace: final.trace }
  const clustered = final.cluster === undefined ? traced : { ...traced, cluster: final.cluster }
  const graded = final.grades === undefined ? clustered : { ...clustered, grades: final.grades }
  return withRetryLog(final.stop_reason === undefined ? graded : { ...graded, ...agentFields(final) }, a)
}

/** An agent's stop reason, turns and conversation length, as far as it gave them. */
const agentFields = (final: FinalResult) => ({
  stop_reason: final.stop_reason,
  ...(final.turns === undefined ? {} : { turns: final.turns }),
  ...(final.messages === undefined ? {} : { messages: final.messages }),
})

/** A try under limits ends with a stop reason: the solver's own, else the limit it reached, else the model's. */
const withStopReason = (final: FinalResult, limits: LimitsHelper | undefined): FinalResult =>
  limits === undefined
    ? final
    : {
        ...final,
        stop_reason: final.stop_reason ?? limits.reached() ?? "model_ended",
        turns: final.turns ?? limits.turns(),
      }

const errorRow = (a: Attempt, error: RolloutFailure): EvalResult => ({
  seed: a.key.seed,
  attempt: a.key.attempt,
  score: null,
  reward_mean: null,
  outcome_score: null,
  events_score: null,
  latency_ms: a.latencyMs,
  verifier_score: null,
  tokens: null,
  cost_usd: null,
  error: error.message,
  status: "error",
  error_kind: error.kind,
  retries: a.retries,
  started_at: a.startedAt,
  finished_at: new Date().toISOString(),
  run_id: a.rolloutId,
})

const errorResult = (a: Attempt, error: RolloutFailure): EvalResult => withRetryLog(errorRow(a, error), a)

/** A finished rollout is a result when it has a finite score, or says why it has none (aborted). */
const isResult = (final: FinalResult) =>
  final.aborted === true || (final.score !== null && Number.isFinite(final.score))

const noScore = (solverName: string) =>
  new SolverError({ reason: "NoScore", retryable: false, message: `${solverName} finished without a finite score` })

const elapsedSince = (t0: number) => Math.round((performance.now() - t0) * 100) / 100

export interface RolloutTryOptions {
  readonly runId: string
  readonly config: EvalRunConfig
  readonly solver: SolverService
  readonly control: RunControl
  readonly backoff: BackoffPolicy
  readonly events?: PubSub.PubSub<RunEvent> | undefined
  /** Stores steps of multi-step rollouts (the store's `appendSteps`); without it steps are only published. */
  readonly recordSteps?: ((steps: ReadonlyArray<RolloutStep>) => Effect.Effect<void>) | undefined
  /** Stores command-line agents' own output (the store's `appendAgentEvents`); without it that is not kept. */
  readonly recordAgentEvents?: ((events: ReadonlyArray<AgentTrajectoryEvent>) => Effect.Effect<void>) | undefined
}

/**
 * A try's `RolloutStarted`, with the most time it is given as far as that is known at its start: the agent's time
 * limit, and the run's timeout unless the solver keeps its own time under limits (an agent in a sandbox: its task
 * may set the limit later, and its steps then tell the time left).
 */
const startedEvent = (config: EvalRunConfig, limits: LimitSettings, ownClock: boolean) => {
  const deadlines = [
    limits.agentTimeoutS === null ? null : limits.agentTimeoutS * 1000,
    ownClock ? null : config.timeout_s * 1000,
  ].filter((ms): ms is number => ms !== null)
  const timeoutMs = deadlines.length === 0 ? null : Math.min(...deadlines)
  return (key: RolloutKey, retry: number): RunEvent =>
    timeoutMs === null ? { _tag: "RolloutStarted", key, retry } : { _tag: "RolloutStarted", key, retry, timeoutMs }
}

const publishTo = (events: PubSub.PubSub<RunEvent> | undefined) => (event: RunEvent) =>
  events === undefined ? Effect.void : PubSub.publish(events, event)

/**
 * One rollout as the runner runs it: the per-rollout deadline, retries with backoff for system errors only, and its
 * `RolloutStarted`/`RolloutRetried` events. Resolves to the finished result, or null when a stop arrived while
 * waiting to retry. Exported for runners that take rollouts one at a time from elsewhere (the server's workers).
 */
export const rolloutWithRetries = (options: RolloutTryOptions) => {
  const { runId, config, solver, control, backoff, events } = options
  const solve = withDeadline(solver, config.timeout_s)
  const publish = publishTo(events)
  const limitSettings = limitSettingsOf(config)
  const withLimits = solver.usesLimits === true || hasLimits(limitSettings)
  const recordSteps = options.recordSteps ?? (() => Effect.void)
  const emitStep = (step: RolloutStep, agentTimeLeftMs: number | null) =>
    Effect.zipRight(
      recordSteps([step]),
      publish(
        agentTimeLeftMs === null ? { _tag: "RolloutStep", step } : { _tag: "RolloutStep", step, agentTimeLeftMs },
      ),
    )
  const started = startedEvent(config, limitSettings, solver.enforcesTimeout && withLimits)
  return (key: RolloutKey): Effect.Effect<EvalResult | null> => {
    const rolloutId = makeRolloutId(config, key.seed)
    const task = { runId, key, rolloutId, config }
    const startedAt = new Date().toISOString()
    // Created at the first retry: most rollouts never retry and carry no log.
    let retryLog: Array<RetryLogEntry> | undefined
    const logRetry = (entry: RetryLogEntry) => {
      retryLog ??= []
      if (retryLog.length === MAX_RETRY_LOG_ENTRIES) retryLog.shift()
      retryLog.push(entry)
    }
    const tryOnce = (retries: number): Effect.Effect<EvalResult | null> => {
      const t0 = performance.now()
      const attempt = (): Attempt => ({ key, rolloutId, startedAt, retries, latencyMs: elapsedSince(t0), retryLog })
      const solveTry = (limits: LimitsHelper | undefined) => {
        const emit = (step: RolloutStep) => emitStep(step, limits?.agentTimeLeftMs() ?? null)
        const recordStep = stepRecorder({ rolloutId, key, retry: retries, limits, emit })
        const recorders =
          options.recordAgentEvents === undefined
            ? { recordStep }
            : {
                recordStep,
                recordAgentEvent: agentEventRecorder({
                  rolloutId,
                  key,
                  retry: retries,
                  emit: options.recordAgentEvents,
                }),
              }
        const tried = solve(limits === undefined ? { ...task, ...recorders } : { ...task, limits, ...recorders })
        return limits === undefined ? tried : Effect.raceFirst(tried, limits.enforce)
      }
      const limited = withLimits ? LimitsHelper.make(limitSettings) : Effect.succeed(undefined)
      const solved = Effect.flatMap(limited, (limits) =>
        Effect.matchEffect(solveTry(limits), {
          onSuccess: (settled) => {
            const a = attempt()
            const final = withStopReason(settled, limits)
            return Effect.succeed(isResult(final) ? okResult(a, final) : errorResult(a, noScore(solver.name)))
          },
          onFailure: (error) => {
            // An agent that failed after reaching a limit (its model client threw on the refused call) reached the
            // limit: a graded result, never an error. A system error (its sandbox died) is one all the same.
            const reached = limits?.reached() ?? null
            if (reached !== null && !isRetryable(error)) {
              const final = withStopReason(stoppedAtLimit(reached, error.message), limits)
              return Effect.succeed(okResult(attempt(), final))
            }
            return failed(error)
          },
        }),
      )
      const failed = (error: RolloutFailure): Effect.Effect<EvalResult | null> => {
        if (!isRetryable(error) || retries >= config.max_retries) return Effect.succeed(errorResult(attempt(), error))
        // A retry would have fixed it, but the run is stopping: leave the key missing for resume.
        if (control.isStopRequested()) return Effect.succeed(null)
        return retryDelay(backoff, retries + 1, error.retryAfterMs).pipe(
          Effect.tap((delay) => {
            const delayMs = Duration.toMillis(delay)
            logRetry({
              kind: error.kind,
              error: error.message.slice(0, MAX_RETRY_ERROR_CHARS),
              delay_ms: delayMs,
              at: new Date().toISOString(),
            })
            return publish({
              _tag: "RolloutRetried",
              key,
              retry: retries + 1,
              errorKind: error.kind,
              error: error.message,
              delayMs,
            })
          }),
          Effect.flatMap((delay) =>
            Effect.raceFirst(Effect.as(Effect.sleep(delay), false), Effect.as(control.stopped, true)),
          ),
          Effect.flatMap((stopped) => (stopped ? Effect.succeed(null) : tryOnce(retries + 1))),
        )
      }
      // Who watches in-flight work (eval --view, the job server) learns of each try as it starts.
      return events === undefined ? solved : Effect.zipRight(publish(started(key, retries)), solved)
    }
    return tryOnce(0)
  }
}

/** The stored results but the errored ones, which `skipped` is told of: a retry runs those keys again. */
function* withoutErrors(stored: Iterable<EvalResult>, skipped: () => void): Iterable<EvalResult> {
  for (const result of stored) {
    if (result.status === "error") skipped()
    else yield result
  }
}

/**
 * Runs every rollout of a run that the store does not already hold: bounded concurrency, retries with
 * backoff for system errors only, each result stored before it is counted. A stop request ends the
 * taking of new work; rollouts in flight finish (the caller may interrupt them after a grace period, and
 * they are then simply missing, to be run again on resume).
 */
export const runRollouts = Effect.fn("Runner.runRollouts")(function* (options: RunnerOptions) {
  const { config, runId } = options
  const solver = yield* Solver
  const store = yield* ResultStore
  const control = options.control ?? makeRunControl()
  const backoff = options.backoff ?? defaultBackoff
  const events = options.events
  const budget = options.budget === undefined ? RunBudget.of(config, "results") : options.budget

  const summary = new SummaryAccumulator({
    attempts: config.attempts,
    passThreshold: config.pass_threshold,
    clusterBy: config.cluster_by,
  })
  const plan = new RolloutPlan(config.seeds, config.attempts)
  // Counters are the whole run's, earlier sessions included, so that "done" and "ok" add up after a resume.
  const counters = { done: 0, ok: 0, errored: 0, retries: 0, inFlight: 0, scoreSum: 0, scored: 0, correct: 0, wrong: 0 }
  // Few, as a rule: the keys whose result is an error, to say what their model calls spent.
  const erroredKeys = new Set<string>()
  const count = (result: EvalResult) => {
    if (result.status === "error") erroredKeys.add(rolloutKeyId(result))
    else erroredKeys.delete(rolloutKeyId(result))
    counters.done++
    counters.retries += result.retries
    if (result.status === "ok") counters.ok++
    else counters.errored++
    if (result.score !== null) {
      counters.scoreSum += result.score
      counters.scored++
      if (result.status === "ok") {
        if (result.score >= config.pass_threshold) counters.correct++
        else counters.wrong++
      }
    }
  }
  let retriedErrors = 0
  const stored = yield* store.completed
  const kept = options.retryErrors === true ? withoutErrors(stored, () => retriedErrors++) : stored
  const judged = options.judgeObservations
  plan.markStored(kept, (result) => {
    summary.addFromEarlierSession(result)
    judged?.add(result)
    count(result)
  })
  const planned = plan.size
  const alreadyDone = plan.completed
  const startedAt = Date.now()
  const progress = (): RunProgress => ({ planned, ...counters, elapsedMs: Date.now() - startedAt, alreadyDone })
  const publish = publishTo(events)

  yield* publish({ _tag: "RunStarted", runId, runDir: store.location, planned, alreadyDone })
  yield* Effect.fork(
    Effect.zipRight(
      control.stopped,
      Effect.suspend(() => publish({ _tag: "StopRequested", inFlight: counters.inFlight })),
    ),
  )

  // Uninterruptible so a cancelled run never holds a stored result that its summary did not count.
  const record = (key: PlannedKey, result: EvalResult) =>
    Effect.uninterruptible(
      Effect.flatMap(store.append(result), () => {
        plan.markDone(key.index)
        summary.add(result)
        judged?.add(result)
        count(result)
        return publish({ _tag: "RolloutFinished", result, progress: progress() })
      }),
    )

  // A store that cannot write is fatal for the run, as it is for results: nothing is silently lost.
  const recordSteps = (steps: ReadonlyArray<RolloutStep>) => Effect.orDie(store.appendSteps(steps))
  const { appendAgentEvents } = store
  const recordAgentEvents =
    appendAgentEvents === undefined
      ? undefined
      : (agentEvents: ReadonlyArray<AgentTrajectoryEvent>) => Effect.orDie(appendAgentEvents(agentEvents))
  const attemptRollout = rolloutWithRetries({
    runId,
    config,
    solver,
    control,
    backoff,
    events,
    recordSteps,
    recordAgentEvents,
  })

  const work = (): Effect.Effect<void, StoreError> =>
    Effect.suspend(() => {
      const stopTaking = control.isStopRequested() || (budget !== null && !budget.admits(counters.inFlight))
      const key = stopTaking ? undefined : plan.next()
      if (key === undefined) return Effect.void
      counters.inFlight++
      return Effect.flatMap(attemptRollout(key), (result) => {
        counters.inFlight--
        budget?.rolloutFinished(result)
        if (result === null) return work()
        const taskId = options.taskIdOf?.(key.seed)
        return Effect.flatMap(record(key, taskId === undefined ? result : { ...result, task_id: taskId }), work)
      })
    })

  const workers = Math.max(1, Math.min(config.concurrency, planned - alreadyDone))
  const pool = yield* Effect.fork(
    Effect.all(Array.from({ length: workers }, work), { concurrency: "unbounded", discard: true }),
  )
  yield* Effect.raceFirst(Fiber.join(pool), Effect.zipRight(control.cancelled, Fiber.interrupt(pool)))

  const missingKeys = plan.missing()
  // A budget that stopped nothing (the plan was done when it was reached) is not why the run stopped.
  const budgetStop = missingKeys.length > 0 ? (budget?.stopped() ?? null) : null
  const callSpending =
    store.callSpending === undefined
      ? undefined
      : yield* store.callSpending((key) => erroredKeys.has(rolloutKeyId(key)))
  const result: RunSummary = summary.summarize({
    callSpending,
    runId,
    plannedKeys: planned,
    missingKeys,
    durationMs: Date.now() - startedAt,
    retriedErrors,
    budgetStop,
    judgeTrust: judged?.trust(),
    priceTable: options.priceTable,
  })
  yield* store.saveSummary(result)
  const interrupted = missingKeys.length > 0 && (control.isStopRequested() || budgetStop !== null)
  yield* publish({ _tag: "RunFinished", summary: result, interrupted })
  return { runId, location: store.location, summary: result, interrupted } satisfies RunOutcome
})
