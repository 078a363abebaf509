import type { EvalRunConfig } from "../config/EvalRunConfig.js"
import { roundUsd } from "../internal/roundUsd.js"
import type { EvalResult } from "../result/EvalResult.js"
import type { ModelCall } from "../result/ModelCall.js"

export type RunBudgetLimit = "max_run_cost" | "max_run_tokens"

/** Why a run stopped taking rollouts before its plan was done, as its summary records it. */
export interface BudgetStop {
  readonly limit: RunBudgetLimit
  /** What the session had spent when it stopped taking rollouts (the rollouts in flight then spent more). */
  readonly spent_usd: number
  readonly spent_tokens: number
  /** `budget max_run_cost reached: $4.75 spent, the next rollout (≈ $0.25) would pass the limit $5`. */
  readonly message: string
}

/**
 * Where a budget's spending is read: the interceptor's model calls (every call made, failed tries included,
 * cached answers free), or, when the run's calls are not intercepted, what each rollout's result reports.
 */
export type BudgetMeter = "calls" | "results"

/** For the message: to a hundredth of a cent (the summary keeps the exact sums). */
const usd = (value: number) => `$${Math.round(value * 10_000) / 10_000}`

/**
 * A session's budget of USD and tokens across all its rollouts (`max_run_cost`, `max_run_tokens`). A rollout
 * starts only while what is spent, plus what the rollouts in flight and the new one are expected to spend (the
 * mean of the finished rollouts), stays within the limit; so a run with rollouts of about equal cost stops within
 * one rollout's cost below it. Until one rollout has finished nothing is known of their cost, and the first
 * `concurrency` rollouts start regardless. Counts this session only: a resume starts with a fresh budget.
 */
export class RunBudget {
  private spentUsd = 0
  private spentTokens = 0
  private finished = 0
  private stop: BudgetStop | null = null

  constructor(
    private readonly maxCost: number | null,
    private readonly maxTokens: number | null,
    readonly meter: BudgetMeter,
  ) {}

  /** The run's budget, or null when its config sets none. */
  static of(config: Pick<EvalRunConfig, "max_run_cost" | "max_run_tokens">, meter: BudgetMeter): RunBudget | null {
    const maxCost = config.max_run_cost ?? null
    const maxTokens = config.max_run_tokens ?? null
    return maxCost === null && maxTokens === null ? null : new RunBudget(maxCost, maxTokens, meter)
  }

  /** Counts the model calls a rollout made (metered by calls): what went upstream, never what the cache answered. */
  spendCalls(calls: ReadonlyArray<ModelCall>): void {
    if (this.meter !== "calls") return
    for (const call of calls) {
      if (call.cached === true) continue
      this.spentTokens += call.usage?.total_tokens ?? 0
      this.spentUsd += call.cost_usd ?? 0
    }
  }

  /** Counts a finished rollout (one run to its end, or one that stopped for good before its result). */
  rolloutFinished(result: EvalResult | null): void {
    this.finished++
    if (this.meter !== "results" || result === null) return
    this.spentTokens += result.tokens ?? 0
    this.spentUsd += result.cost_usd ?? 0
  }

  /** Whether a rollout may start now, with `inFlight` others running; once not, never again this session. */
  admits(inFlight: number): boolean {
    if (this.stop !== null) return false
    const cost = this.overrun(this.maxCost, this.spentUsd, inFlight)
    if (cost !== null) this.stopAt("max_run_cost", cost, usd)
    else {
      const tokens = this.overrun(this.maxTokens, this.spentTokens, inFlight)
      if (tokens !== null) this.stopAt("max_run_tokens", tokens, (n) => `${Math.round(n)} tokens`)
    }
    return this.stop === null
  }

  /** Whether `spent` and what `inFlight` rollouts and one more are expected to spend pass `limit`; null if not. */
  private overrun(limit: number | null, spent: number, inFlight: number) {
    if (limit === null) return null
    const perRollout = this.finished === 0 ? 0 : spent / this.finished
    if (spent < limit && spent + (inFlight + 1) * perRollout <= limit) return null
    return { limit, spent, inFlight, perRollout }
  }

  /** Why the session stopped taking rollouts; null while it takes them. */
  stopped(): BudgetStop | null {
    return this.stop
  }

  private stopAt(
    limit: RunBudgetLimit,
    at: { readonly limit: number; readonly spent: number; readonly inFlight: number; readonly perRollout: number },
    show: (amount: number) => string,
  ): void {
    const spent = `${show(at.spent)} spent`
    const why =
      at.spent >= at.limit
        ? `${spent} (limit ${show(at.limit)})`
        : at.inFlight === 0
          ? `${spent}, the next rollout (≈ ${show(at.perRollout)}) would pass the limit ${show(at.limit)}`
          : `${spent}, ${at.inFlight} rollouts in flight (≈ ${show(at.perRollout)} each) and the next would pass the limit ${show(at.limit)}`
    this.stop = {
      limit,
      spent_usd: roundUsd(this.spentUsd),
      spent_tokens: this.spentTokens,
      message: `budget ${limit} reached: ${why}`,
    }
  }
}
