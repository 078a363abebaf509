import { Schema } from "effect"
import { roundUsd } from "../internal/roundUsd.js"
import { activePriceTable, priceTableLine } from "../pricing/PriceTable.js"
import { errorKindDocs } from "../result/ErrorKindDoc.js"
import type { ErrorKind, EvalResult, RolloutKey } from "../result/EvalResult.js"
import type { BudgetStop } from "../runner/RunBudget.js"
import type { CallSpending, JudgeCallSpending } from "../store/ResultStore.js"
import { ActiveTime } from "./internal/ActiveTime.js"
import { type Clustering, clusteringOf, ScoreStats } from "./internal/ScoreStats.js"
import { JudgeTrust } from "./JudgeTrust.js"

const NullableNumber = Schema.NullOr(Schema.Number)

/**
 * How `stderr` was computed: `clt` (s / √n, one rollout per seed), `clustered_by_seed` (a seed's attempts
 * are one cluster), or `clustered_by:KEY` (rollouts sharing the task field KEY are one cluster).
 */
export const StderrEstimator = Schema.Union(
  Schema.Literal("clt", "clustered_by_seed"),
  Schema.TemplateLiteral("clustered_by:", Schema.String),
)
export type StderrEstimator = typeof StderrEstimator.Type

/**
 * Score statistics over a set of rollouts. Every number but the counts is null when `count` is 0.
 *
 * Attempts of one seed are correlated (so are tasks sharing a passage or topic), so treating every rollout
 * as independent understates the error by up to √attempts. With attempts > 1, or `cluster_by`, the error is
 * the clustered standard error of Miller (2024), "Adding Error Bars to Evals".
 */
/** Which 95% interval a mean carries: Student's t around it, or Wilson's score interval (pass/fail scores). */
export const IntervalKind = Schema.Literal("student_t", "wilson")
export type IntervalKind = typeof IntervalKind.Type

export const ScoreMetrics = Schema.Struct({
  /** Scored rollouts (n_rollouts). */
  count: Schema.Number,
  mean_score: NullableNumber,
  /** The standard error of `mean_score` by `estimator`; null below two clusters (two scores for the CLT). */
  stderr: NullableNumber,
  /** The 95% interval of the mean, of the kind `interval` names; null below two clusters. */
  ci95: Schema.NullOr(Schema.Tuple(Schema.Number, Schema.Number)),
  /**
   * `student_t`: the mean ± t(df) · stderr. `wilson`, when every score is 0 or 1: Wilson's score interval, inside
   * [0, 1] and not of zero width when all passed or all failed; over the rollouts with z when they are independent,
   * else over the effective sample size p(1 − p) / stderr² with t(df). Summaries written before this field are t.
   */
  interval: Schema.optionalWith(IntervalKind, { default: () => "student_t" }),
  /** Share of rollouts with `score >= pass_threshold`. */
  pass_rate: NullableNumber,
  min: NullableNumber,
  max: NullableNumber,
  estimator: StderrEstimator,
  /** Seeds with at least one scored rollout. */
  n_seeds: Schema.Number,
  /** Independent units behind `stderr`: rollouts for the CLT, else clusters. */
  n_clusters: Schema.Number,
  /** Degrees of freedom of the interval: n − 1 for the CLT, clusters − 1 when clustered. */
  df: NullableNumber,
  /** The mean of the per-seed mean scores (each seed's attempts averaged first). */
  seed_mean: NullableNumber,
  /** The sample standard deviation of the per-seed mean scores: how much seeds differ. */
  seed_mean_sd: NullableNumber,
  /**
   * The share of the score variance that lies within seeds (between a seed's attempts); only this part
   * shrinks with more attempts. Null without a seed scored twice, or when every score is equal.
   */
  within_seed_share: NullableNumber,
  /** With `cluster_by`: scored rollouts whose task gave no value for the key, each counted in its seed's cluster. */
  seed_fallbacks: Schema.Number,
})
export type ScoreMetrics = typeof ScoreMetrics.Type

/**
 * nanoeval's length statistics of agent runs, over completions: the results that did not end in a system error
 * (those are retried and never scored; an error of the task or agent, such as `verifier`, is a completion and
 * incorrect). `frac_correct` = correct / completions; `frac_max_time`, `frac_max_turns` (nanoeval's frac_max_steps),
 * `frac_max_tokens`, `frac_max_cost` = incorrect results with that stop reason / completions; `frac_model_ended` =
 * incorrect results that reached no limit / completions (so the six add up to 1); `convo_len_percentiles`: the
 * 25/50/75th percentiles (numpy's linear interpolation) of the completions' `messages`. `stop_reasons` counts every
 * result's stop reason.
 */
export const LengthStats = Schema.Struct({
  completions: Schema.Number,
  frac_correct: NullableNumber,
  frac_max_time: NullableNumber,
  frac_max_turns: NullableNumber,
  frac_max_tokens: NullableNumber,
  frac_max_cost: NullableNumber,
  frac_model_ended: NullableNumber,
  convo_len_percentiles: Schema.NullOr(Schema.Struct({ p25: Schema.Number, p50: Schema.Number, p75: Schema.Number })),
  stop_reasons: Schema.Record({ key: Schema.String, value: Schema.Number }),
})
export type LengthStats = typeof LengthStats.Type

/**
 * What the judge of model graders spent, apart from the policy (whose calls alone `tokens` and `cost_usd` count):
 * its calls, tokens and USD in total and per rollout judged. Null totals: no call reported tokens, or none was priced.
 */
export const JudgeSpending = Schema.Struct({
  calls: Schema.Number,
  rollouts_judged: Schema.Number,
  tokens: NullableNumber,
  tokens_per_rollout: NullableNumber,
  cost_usd: NullableNumber,
  cost_per_rollout: NullableNumber,
})
export type JudgeSpending = typeof JudgeSpending.Type

const judgeSpending = (judge: JudgeCallSpending): JudgeSpending => {
  const per = (total: number) => (judge.rollouts > 0 ? total / judge.rollouts : null)
  return {
    calls: judge.calls,
    rollouts_judged: judge.rollouts,
    tokens: judge.metered > 0 ? judge.tokens : null,
    tokens_per_rollout: judge.metered > 0 ? per(judge.tokens) : null,
    cost_usd: judge.priced > 0 ? judge.costUsd : null,
    cost_per_rollout: judge.priced > 0 ? roundUsd(per(judge.costUsd) ?? 0) : null,
  }
}

/**
 * The error-aware summary of a run (nanoeval style), JSON-friendly.
 *
 * - `metrics` covers ok rollouts that have a score; `metrics_including_errors` adds every errored rollout as
 *   a failing score of 0, a pessimistic lower bound that system errors can drag down.
 * - `is_valid` holds when something completed, nothing is missing, at most 5% of completed rollouts
 *   errored and no task app answer was unreadable as a result (`no_score`, `too_large`); `invalid_reasons`
 *   says which of these failed. nanoeval requires that no instance be lost to
 *   errors at all; proctor tolerates a few because, for scores in [0, 1], excluding a share e of rollouts
 *   moves the mean by at most e.
 * - `pass_at_k` (attempts > 1) is the unbiased estimator of Chen et al. (2021), averaged over the seeds
 *   that have at least k completed attempts. An errored attempt counts as an incorrect sample: dropping it
 *   would leave seeds with fewer than k samples.
 * - `latency_ms` percentiles interpolate linearly between the closest ranks (numpy's default), over every
 *   completed rollout that reported a latency, errored ones included.
 * - token and cost totals are null, not 0, when no rollout reported them: an unpriced run must not look free.
 *   Costs are rounded to 1e-10 USD so that sums carry no float noise. When the run's model calls were
 *   recorded, the totals are theirs, call by call: every call made is spent, those of failed tries and of
 *   rollouts that errored included (the latter also apart, `spent_on_errors`). They are the policy's: a model
 *   grader's judge calls are counted apart, in `judge`.
 * - `duration_s` and `throughput_per_s` are this session's (a resumed run's earlier rollouts are not counted
 *   in its rate); `run_duration_s` and `run_throughput_per_s` cover the whole run: earlier sessions' active
 *   time (the union of their rollouts' [started_at, finished_at]) plus this session's duration.
 */
export const RunSummary = Schema.Struct({
  run_id: Schema.String,
  planned: Schema.Number,
  completed: Schema.Number,
  ok: Schema.Number,
  errored: Schema.Number,
  missing: Schema.Number,
  /** The first 100 missing keys. */
  missing_keys: Schema.Array(Schema.Struct({ seed: Schema.Number, attempt: Schema.Number })),
  is_valid: Schema.Boolean,
  invalid_reasons: Schema.Array(Schema.String),
  pass_threshold: Schema.Number,
  metrics: ScoreMetrics,
  metrics_including_errors: ScoreMetrics,
  errors_by_kind: Schema.Record({ key: Schema.String, value: Schema.Number }),
  pass_at_k: Schema.NullOr(Schema.Record({ key: Schema.String, value: NullableNumber })),
  latency_ms: Schema.NullOr(
    Schema.Struct({
      mean: Schema.Number,
      p50: Schema.Number,
      p90: Schema.Number,
      p99: Schema.Number,
      max: Schema.Number,
    }),
  ),
  tokens: Schema.Struct({
    total: NullableNumber,
    mean_per_rollout: NullableNumber,
    rollouts_with_tokens: Schema.Number,
    /** The part of `total` spent by the model calls of rollouts that errored (null: no calls recorded). */
    spent_on_errors: Schema.optionalWith(NullableNumber, { default: () => null }),
  }),
  cost_usd: Schema.Struct({
    total: NullableNumber,
    mean_per_rollout: NullableNumber,
    /** Total cost over correct rollouts (score ≥ pass_threshold): what one right answer costs. */
    per_correct: NullableNumber,
    rollouts_priced: Schema.Number,
    /** The part of `total` spent by the model calls of rollouts that errored (null: no priced calls recorded). */
    spent_on_errors: Schema.optionalWith(NullableNumber, { default: () => null }),
    /**
     * The prices the calls were priced from: the maintained table and its date, e.g. `@pydantic/genai-prices 0.1.8
     * (bundled), 2026-09-23`, after the given prices when the run had any (`proctor eval --pricing`, `evaluate()`'s
     * `pricing`, `proctor serve --pricing`): `2 given prices first, then …`. A cluster's summaries, written by an API
     * replica while its workers price the calls, name the table alone, `worker --pricing` or not.
     */
    price_table: Schema.optional(Schema.String),
  }),
  retries: Schema.Number,
  /** Errored rollouts of earlier sessions this session ran again (`--retry-errors`); their new results count. */
  retried_errors: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  duration_s: Schema.Number,
  throughput_per_s: NullableNumber,
  /** Rollouts completed in this session; `completed` minus those a resumed run already had. */
  session_completed: Schema.Number,
  run_duration_s: Schema.Number,
  run_throughput_per_s: NullableNumber,
  /** Agent runs (some result has a `stop_reason`): nanoeval's length statistics, see `LengthStats`. */
  length_stats: Schema.optional(LengthStats),
  /** Runs with model graders: what their judge spent, apart from `tokens` and `cost_usd` (the policy's). */
  judge: Schema.optional(JudgeSpending),
  /** Runs with model graders: how far their judges can be trusted (human agreement, self-consistency, bias). */
  judge_trust: Schema.optional(JudgeTrust),
  /**
   * Runs with graders: each grader's metric over the rollouts it graded (its scores and its own `passed` for
   * `pass_rate`), clustered as the run's score is.
   */
  graders: Schema.optional(Schema.Record({ key: Schema.String, value: ScoreMetrics })),
  /**
   * Runs with the response cache on: the calls it answered (their tokens are in `tokens.total`, their cost is 0 in
   * `cost_usd.total`) and `avoided_usd`, what those of them with a price would have cost upstream (null: none had).
   */
  cache: Schema.optional(Schema.Struct({ calls: Schema.Number, avoided_usd: NullableNumber })),
  /** Why the run stopped taking rollouts before its plan was done, when a budget did it (`max_run_cost`, …). */
  stopped: Schema.optional(
    Schema.Struct({
      reason: Schema.Literal("budget"),
      limit: Schema.Literal("max_run_cost", "max_run_tokens"),
      spent_usd: Schema.Number,
      spent_tokens: Schema.Number,
      message: Schema.String,
    }),
  ),
})
export type RunSummary = typeof RunSummary.Type

const MAX_VALID_ERROR_RATE = 0.05
const MAX_LISTED_MISSING_KEYS = 100
const UNREADABLE_ANSWERS = [
  ["no_score", "without a score"],
  ["too_large", "more than max_response_bytes"],
] as const

/**
 * Unbiased pass@k for one seed with `n` samples of which `c` are correct: 1 − C(n−c, k) / C(n, k), as the
 * product 1 − ∏_{i=n−c+1}^{n} (1 − k/i) so that no binomial coefficient overflows. Requires k ≤ n.
 */
export const passAtK = (n: number, c: number, k: number): number => {
  if (n - c < k) return 1
  let allWrong = 1
  for (let i = n - c + 1; i <= n; i++) allWrong *= 1 - k / i
  return 1 - allWrong
}

/** Kinds the runner retries: a result that ended in one is no completion (nanoeval's system errors). */
const isSystemError = (kind: string | null): boolean =>
  kind !== null && Object.hasOwn(errorKindDocs, kind) && errorKindDocs[kind as ErrorKind].retried === "yes"

const LIMIT_REASONS = ["max_time", "max_turns", "max_tokens", "max_cost"] as const

/** Linear interpolation between the closest ranks of an ascending array. */
const percentile = (sorted: Float64Array, q: number): number => {
  const position = (sorted.length - 1) * q
  const below = Math.floor(position)
  const lower = sorted[below]!
  const upper = sorted[Math.ceil(position)]!
  return lower + (upper - lower) * (position - below)
}

/**
 * A seed's samples and correct samples packed into one number, n·2²⁶ + c, so that tracking pass@k for
 * 100k seeds allocates no objects.
 */
const SAMPLE = 2 ** 26

/**
 * Folds finished rollouts into compact numeric state (counters, a growable array of latencies, one number
 * per seed for pass@k) and never keeps the results, so a run of 100k+ rollouts summarizes in a few MB.
 * The caller de-duplicates: each rollout key is added once, with its last retry.
 */
export class SummaryAccumulator {
  private readonly attempts: number
  private readonly passThreshold: number
  private readonly clusterBy: string | null
  private ok = 0
  private errored = 0
  private retries = 0
  private readonly scores: ScoreStats
  private readonly scoresWithErrors: ScoreStats
  private readonly errorsByKind = new Map<string, number>()
  private readonly seeds = new Map<number, number>()
  private latencies = new Float64Array(1024)
  private latencyCount = 0
  private latencySum = 0
  private tokens = 0
  private withTokens = 0
  private cost = 0
  private priced = 0
  private correct = 0
  private earlier = 0
  private readonly earlierActiveTime = new ActiveTime()
  /** Agent runs: stop reasons of every result, completions, incorrect ones by stop reason, conversation lengths. */
  private readonly stopReasons = new Map<string, number>()
  private completions = 0
  private correctCompletions = 0
  private readonly incorrectBy = new Map<string, number>()
  private readonly messageCounts: Array<number> = []
  /** Per grader name, in the order graders were first seen. */
  private readonly graderScores = new Map<string, ScoreStats>()
  private readonly clustering: Clustering

  constructor(options: {
    readonly attempts: number
    readonly passThreshold: number
    /** A task field whose equal values make one cluster of the standard error (`cluster_by`). */
    readonly clusterBy?: string | null | undefined
  }) {
    this.attempts = options.attempts
    this.passThreshold = options.passThreshold
    this.clusterBy = options.clusterBy ?? null
    const clustering = clusteringOf(options.attempts, options.clusterBy)
    this.clustering = clustering
    this.scores = new ScoreStats(clustering, options.attempts)
    this.scoresWithErrors = new ScoreStats(clustering, options.attempts)
  }

  /** A result an earlier session of the run stored: counted in the whole run, not in this session's rate. */
  addFromEarlierSession(result: EvalResult): void {
    this.earlier++
    this.earlierActiveTime.add(result.started_at, result.finished_at)
    this.add(result)
  }

  add(result: EvalResult): void {
    const cluster = this.clusterBy === null ? undefined : result.cluster
    this.retries += result.retries
    let correct = false
    if (result.status === "ok") {
      this.ok++
      const score = result.score
      if (score !== null && Number.isFinite(score)) {
        correct = score >= this.passThreshold
        if (correct) this.correct++
        this.scores.add(score, correct, result.seed, cluster)
        this.scoresWithErrors.add(score, correct, result.seed, cluster)
      }
      if (result.grades !== undefined) this.addGrades(result, cluster)
    } else {
      this.errored++
      // Even with a threshold ≤ 0 an error never passes.
      this.scoresWithErrors.add(0, false, result.seed, cluster)
      const kind = result.error_kind ?? "unknown"
      this.errorsByKind.set(kind, (this.errorsByKind.get(kind) ?? 0) + 1)
    }
    if (this.attempts > 1) this.seeds.set(result.seed, (this.seeds.get(result.seed) ?? 0) + SAMPLE + (correct ? 1 : 0))
    this.addLength(result, correct)
    if (result.latency_ms !== null && Number.isFinite(result.latency_ms)) this.addLatency(result.latency_ms)
    if (result.tokens !== null && Number.isFinite(result.tokens)) {
      this.tokens += result.tokens
      this.withTokens++
    }
    if (result.cost_usd !== null && Number.isFinite(result.cost_usd)) {
      this.cost += result.cost_usd
      this.priced++
    }
  }

  summarize(info: {
    readonly runId: string
    readonly plannedKeys: number
    readonly missingKeys: ReadonlyArray<RolloutKey>
    readonly durationMs: number
    readonly retriedErrors?: number | undefined
    /** The run's recorded model calls: when present, the token and cost totals are theirs. */
    readonly callSpending?: CallSpending | undefined
    /** The judges' trust statistics, from the run's model-grader verdicts (`judgeTrust`). */
    readonly judgeTrust?: JudgeTrust | null | undefined
    /** The budget that stopped the run taking rollouts, if one did. */
    readonly budgetStop?: BudgetStop | null | undefined
    /** The prices its model calls were priced from (`PricingService.table`); default: the maintained table in force. */
    readonly priceTable?: string | undefined
  }): RunSummary {
    const calls = info.callSpending !== undefined && info.callSpending.calls > 0 ? info.callSpending : null
    const completed = this.ok + this.errored
    const missing = info.missingKeys.length
    const durationS = info.durationMs / 1000
    const sessionCompleted = completed - this.earlier
    const runDurationS = ((this.earlier > 0 ? (this.earlierActiveTime.totalMs() ?? 0) : 0) + info.durationMs) / 1000
    const invalidReasons: Array<string> = []
    if (completed === 0) invalidReasons.push("no rollout completed")
    if (missing > 0) invalidReasons.push(`${missing} of ${info.plannedKeys} rollouts missing`)
    if (completed > 0 && this.errored / completed > MAX_VALID_ERROR_RATE) {
      const rate = Math.round((this.errored / completed) * 1000) / 10
      invalidReasons.push(`${rate}% of rollouts errored (more than ${MAX_VALID_ERROR_RATE * 100}%)`)
    }
    // Answers that are not results are never tolerated: the means would leave them out without a trace.
    for (const [kind, what] of UNREADABLE_ANSWERS) {
      const count = this.errorsByKind.get(kind) ?? 0
      if (count > 0) invalidReasons.push(`${count} of ${completed} rollouts answered ${what} (${kind})`)
    }
    return {
      run_id: info.runId,
      planned: info.plannedKeys,
      completed,
      ok: this.ok,
      errored: this.errored,
      missing,
      missing_keys: info.missingKeys
        .slice(0, MAX_LISTED_MISSING_KEYS)
        .map((key) => ({ seed: key.seed, attempt: key.attempt })),
      is_valid: invalidReasons.length === 0,
      invalid_reasons: invalidReasons,
      pass_threshold: this.passThreshold,
      metrics: this.scores.summarize(),
      metrics_including_errors: this.scoresWithErrors.summarize(),
      errors_by_kind: Object.fromEntries(this.errorsByKind),
      pass_at_k: this.attempts > 1 ? this.passAtKs() : null,
      latency_ms: this.latencySummary(),
      tokens: {
        total: calls !== null && calls.metered > 0 ? calls.tokens : this.withTokens > 0 ? this.tokens : null,
        mean_per_rollout: this.withTokens > 0 ? this.tokens / this.withTokens : null,
        rollouts_with_tokens: this.withTokens,
        spent_on_errors: calls !== null && calls.metered > 0 ? calls.errorTokens : null,
      },
      cost_usd: {
        spent_on_errors: calls !== null && calls.priced > 0 ? calls.errorCostUsd : null,
        total: calls !== null && calls.priced > 0 ? calls.costUsd : this.priced > 0 ? roundUsd(this.cost) : null,
        mean_per_rollout: this.priced > 0 ? roundUsd(this.cost / this.priced) : null,
        per_correct: this.priced > 0 && this.correct > 0 ? roundUsd(this.cost / this.correct) : null,
        rollouts_priced: this.priced,
        price_table: info.priceTable ?? priceTableLine(activePriceTable()),
      },
      retries: this.retries,
      retried_errors: info.retriedErrors ?? 0,
      duration_s: durationS,
      throughput_per_s: durationS > 0 ? sessionCompleted / durationS : null,
      session_completed: sessionCompleted,
      run_duration_s: runDurationS,
      run_throughput_per_s: runDurationS > 0 ? completed / runDurationS : null,
      ...(this.stopReasons.size === 0 ? {} : { length_stats: this.lengthStats() }),
      ...(info.callSpending?.judge === undefined ? {} : { judge: judgeSpending(info.callSpending.judge) }),
      ...(info.judgeTrust === undefined || info.judgeTrust === null ? {} : { judge_trust: info.judgeTrust }),
      ...(this.graderScores.size === 0
        ? {}
        : { graders: Object.fromEntries([...this.graderScores].map(([name, stats]) => [name, stats.summarize()])) }),
      ...(calls?.cachedCalls
        ? { cache: { calls: calls.cachedCalls, avoided_usd: calls.avoidedPriced ? (calls.avoidedCostUsd ?? 0) : null } }
        : {}),
      ...(info.budgetStop ? { stopped: { reason: "budget" as const, ...info.budgetStop } } : {}),
    }
  }

  private addGrades(result: EvalResult, cluster: string | undefined): void {
    for (const [name, verdict] of Object.entries(result.grades ?? {})) {
      let stats = this.graderScores.get(name)
      if (stats === undefined) {
        stats = new ScoreStats(this.clustering, this.attempts)
        this.graderScores.set(name, stats)
      }
      if (Number.isFinite(verdict.score)) stats.add(verdict.score, verdict.passed, result.seed, cluster)
    }
  }

  private addLength(result: EvalResult, correct: boolean): void {
    if (result.stop_reason !== undefined) {
      this.stopReasons.set(result.stop_reason, (this.stopReasons.get(result.stop_reason) ?? 0) + 1)
    }
    if (result.status === "error" && isSystemError(result.error_kind)) return
    this.completions++
    if (correct) this.correctCompletions++
    else {
      const reason = result.stop_reason ?? "model_ended"
      this.incorrectBy.set(reason, (this.incorrectBy.get(reason) ?? 0) + 1)
    }
    if (result.messages !== undefined && Number.isFinite(result.messages)) this.messageCounts.push(result.messages)
  }

  private lengthStats(): LengthStats {
    const n = this.completions
    const fraction = (count: number) => (n === 0 ? null : count / n)
    const limited = (reason: string) => fraction(this.incorrectBy.get(reason) ?? 0)
    const sorted = Float64Array.from(this.messageCounts).sort()
    return {
      completions: n,
      frac_correct: fraction(this.correctCompletions),
      frac_max_time: limited("max_time"),
      frac_max_turns: limited("max_turns"),
      frac_max_tokens: limited("max_tokens"),
      frac_max_cost: limited("max_cost"),
      frac_model_ended: fraction(
        n - this.correctCompletions - LIMIT_REASONS.reduce((sum, r) => sum + (this.incorrectBy.get(r) ?? 0), 0),
      ),
      convo_len_percentiles:
        sorted.length === 0
          ? null
          : { p25: percentile(sorted, 0.25), p50: percentile(sorted, 0.5), p75: percentile(sorted, 0.75) },
      stop_reasons: Object.fromEntries(this.stopReasons),
    }
  }

  private addLatency(ms: number): void {
    if (this.latencyCount === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2)
      grown.set(this.latencies)
      this.latencies = grown
    }
    this.latencies[this.latencyCount++] = ms
    this.latencySum += ms
  }

  private latencySummary(): RunSummary["latency_ms"] {
    const n = this.latencyCount
    if (n === 0) return null
    // Sorting in place is safe: the accumulator never depends on the order it saw latencies in.
    const sorted = this.latencies.subarray(0, n).sort()
    return {
      mean: this.latencySum / n,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
      max: sorted[n - 1]!,
    }
  }

  /** Seeds sharing (n, c) share their estimate, so the work is per distinct pair, not per seed. */
  private passAtKs(): Record<string, number | null> {
    const seedsPerPair = new Map<number, number>()
    for (const packed of this.seeds.values()) seedsPerPair.set(packed, (seedsPerPair.get(packed) ?? 0) + 1)
    const out: Record<string, number | null> = {}
    for (let k = 1; k <= this.attempts; k++) {
      let sum = 0
      let seeds = 0
      for (const [packed, count] of seedsPerPair) {
        const n = Math.floor(packed / SAMPLE)
        if (n < k) continue
        sum += count * passAtK(n, packed % SAMPLE, k)
        seeds += count
      }
      out[String(k)] = seeds > 0 ? sum / seeds : null
    }
    return out
  }
}
