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
  /** `budget max_run_cost reached at $4.9712 (limit $5)`. */
  readonly message: string
}

/**
 * Where a budget's spending is read: the interceptor's model calls (every call made, failed tries included,
 * cached answers free), or, when the run's calls are not intercepted, what each rollout's result reports.
 */
export type BudgetMeter = "calls" | "results"

const usd = (value: number) => `$${roundUsd(value)}`

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
    const committed = inFlight + 1
    const perRollout = this.finished === 0 ? 0 : 1 / this.finished
    const expectedUsd = this.spentUsd + committed * this.spentUsd * perRollout
    const expectedTokens = this.spentTokens + committed * this.spentTokens * perRollout
    if (this.maxCost !== null && (this.spentUsd >= this.maxCost || expectedUsd > this.maxCost)) {
      this.stopAt("max_run_cost", `${usd(this.spentUsd)} (limit ${usd(this.maxCost)})`)
    } else if (this.maxTokens !== null && (this.spentTokens >= this.maxTokens || expectedTokens > this.maxTokens)) {
      this.stopAt("max_run_tokens", `${this.spentTokens} tokens (limit ${this.maxTokens})`)
    }
    return this.stop === null
  }

  /** Why the session stopped taking rollouts; null while it takes them. */
  stopped(): BudgetStop | null {
    return this.stop
  }

  private stopAt(limit: RunBudgetLimit, at: string): void {
    this.stop = {
      limit,
      spent_usd: roundUsd(this.spentUsd),
      spent_tokens: this.spentTokens,
      message: `budget ${limit} reached at ${at}`,
    }
  }
}
