import { Effect } from "effect"
import type { EvalRunConfig } from "../../config/EvalRunConfig.js"
import type { StopReason } from "../../result/RolloutStep.js"
import { LIMIT_GRACE_MS, type LimitSettings, NO_LIMITS, type RolloutLimits } from "../../solver/RolloutLimits.js"
import { type FinalResult, finalOfScore, SolverError } from "../../solver/Solver.js"
import { PausableTimer } from "../PausableTimer.js"

type LimitReason = Exclude<StopReason, "model_ended">

export const limitSettingsOf = (config: EvalRunConfig): LimitSettings => ({
  maxTurns: config.max_turns ?? null,
  maxTokens: config.max_tokens ?? null,
  maxCost: config.max_cost ?? null,
  agentTimeoutS: config.agent_timeout_s ?? null,
  verifierTimeoutS: config.verifier_timeout_s ?? null,
})

export const hasLimits = (settings: LimitSettings): boolean => Object.values(settings).some((value) => value !== null)

/** A one-shot latch waited on from Effect, opened by a plain call. */
const latch = () => {
  let open = false
  const waiters = new Set<() => void>()
  return {
    open: () => {
      if (open) return
      open = true
      for (const waiter of waiters) waiter()
      waiters.clear()
    },
    isOpen: () => open,
    await: Effect.async<void>((resume) => {
      if (open) return resume(Effect.void)
      const waiter = () => resume(Effect.void)
      waiters.add(waiter)
      return Effect.sync(() => void waiters.delete(waiter))
    }),
  }
}

/** The score of an agent stopped at a limit without a result of its own: it did not finish the task. */
export const stoppedAtLimit = (reason: LimitReason, why: string): FinalResult =>
  finalOfScore(0, { stop_reason: reason, details: { stopped: why } })

/** One try's limits, and the runner's side of them (`enforce`). */
export class LimitsHelper implements RolloutLimits {
  private current: LimitSettings
  private turnCount = 0
  private turnsAreCalls = false
  private reason: LimitReason | null = null
  private readonly controller = new AbortController()
  private readonly reachedLatch = latch()
  private readonly gradingLatch = latch()
  readonly signal: AbortSignal = this.controller.signal

  private constructor(
    settings: LimitSettings,
    private readonly timer: PausableTimer,
  ) {
    this.current = settings
  }

  static readonly make = (settings: LimitSettings = NO_LIMITS) =>
    Effect.map(PausableTimer.make(), (timer) => new LimitsHelper(settings, timer))

  readonly settings = () => this.current
  readonly override = (settings: Partial<LimitSettings>) => {
    this.current = { ...this.current, ...settings }
    this.timer.changed()
  }
  readonly turns = () => this.turnCount
  readonly turnsLeft = () =>
    this.current.maxTurns === null ? null : Math.max(0, this.current.maxTurns - this.turnCount)
  readonly recordTurn = () => (this.turnsAreCalls ? true : this.countTurn())
  readonly countTurnsAsCalls = () => {
    this.turnsAreCalls = true
  }
  readonly recordCall = () => (this.turnsAreCalls ? this.countTurn() : true)
  private countTurn(): boolean {
    if (this.current.maxTurns !== null && this.turnCount >= this.current.maxTurns) {
      this.reach("max_turns")
      return false
    }
    this.turnCount++
    return true
  }
  readonly reach = (reason: LimitReason) => {
    if (this.reason !== null) return
    this.reason = reason
    this.controller.abort(new DOMException(`limit reached: ${reason}`, "AbortError"))
    this.reachedLatch.open()
  }
  readonly reached = () => this.reason
  readonly agentElapsedMs = () => this.timer.elapsedMs()
  readonly agentTimeLeftMs = () => {
    const limit = this.agentLimitMs()
    return limit === null ? null : Math.max(0, limit - this.timer.elapsedMs())
  }
  readonly pause = () => this.timer.pause()
  readonly resume = () => {
    if (!this.gradingLatch.isOpen()) this.timer.resume()
  }
  readonly startGrading = () => {
    this.timer.pause()
    this.gradingLatch.open()
  }

  private agentLimitMs(): number | null {
    return this.current.agentTimeoutS === null ? null : this.current.agentTimeoutS * 1000
  }

  /**
   * Never succeeds while the solver keeps within its limits; raced against the solver, it ends the try when it does
   * not: a limit reached and no result or grading within the grace is a result of 0 with the limit's stop reason;
   * grading past its timeout is a `verifier` error (not retried).
   */
  readonly enforce: Effect.Effect<FinalResult, SolverError> = Effect.suspend(() => {
    const outOfTime = Effect.zipRight(
      this.timer.reaches(() => this.agentLimitMs()),
      Effect.sync(() => this.reach("max_time")),
    )
    const limitPath = Effect.zipRight(
      Effect.raceFirst(outOfTime, this.reachedLatch.await),
      Effect.raceFirst(
        Effect.as(Effect.sleep(LIMIT_GRACE_MS), "cut" as const),
        Effect.as(this.gradingLatch.await, "grading" as const),
      ),
    ).pipe(
      Effect.flatMap((next) =>
        next === "cut"
          ? Effect.succeed(
              stoppedAtLimit(
                this.reason!,
                `the agent reached ${this.reason} and did not return a result within ${LIMIT_GRACE_MS / 1000} s`,
              ),
            )
          : Effect.never,
      ),
    )
    const gradingPath = Effect.zipRight(
      this.gradingLatch.await,
      Effect.suspend(() => {
        const seconds = this.current.verifierTimeoutS
        return seconds === null
          ? Effect.never
          : Effect.zipRight(
              Effect.sleep(seconds * 1000),
              Effect.fail(
                new SolverError({
                  reason: "Verifier",
                  retryable: false,
                  message: `grading took longer than verifier_timeout (${seconds} s)`,
                }),
              ),
            )
      }),
    )
    return Effect.raceFirst(limitPath, gradingPath)
  })
}
