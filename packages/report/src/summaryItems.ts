import type { BootstrapEstimate, GraderTrust, JudgesAgreement, RunSummary, ScoreMetrics } from "@proctor/core"
import {
  formatInteger,
  formatMeanInterval,
  formatMs,
  formatNumber,
  formatSignificant,
  formatUsd,
  plural,
} from "./format.js"

/** What the error bar treats as independent, in words. */
const errorBarBasis = (m: ScoreMetrics): string => {
  if (m.estimator === "clt") return "rollouts independent"
  const by = m.estimator === "clustered_by_seed" ? "seed" : m.estimator.slice("clustered_by:".length)
  const fallbacks = m.seed_fallbacks > 0 ? `, ${m.seed_fallbacks} without a ${by} counted by seed` : ""
  return `clustered by ${by}: ${plural(m.n_clusters, "cluster")}${fallbacks}`
}

/** `n`: rollouts, and the seeds behind them when a seed ran more than once. */
const sampleSize = (m: ScoreMetrics): string =>
  m.n_seeds === m.count ? `n=${m.count}` : `n=${m.count} rollouts over ${plural(m.n_seeds, "seed")}`

/** Mean ± 95% half-width to the precision the interval supports, the sample behind it, and the estimator. */
const score = (m: ScoreMetrics): string => {
  if (m.mean_score === null) return "- (no scored rollouts)"
  if (m.ci95 === null) return `${formatNumber(m.mean_score)} (${sampleSize(m)}; too few to bound)`
  const e = formatMeanInterval(m.mean_score, m.ci95, m.interval)
  return `${e.mean} (95% CI ${e.low} – ${e.high}; ${sampleSize(m)}; ${errorBarBasis(m)})`
}

/** Per-seed mean scores: how much seeds differ, and how much of the variance more attempts could remove. */
const seeds = (m: ScoreMetrics): string | null => {
  if (m.n_seeds === m.count || m.seed_mean === null) return null
  const spread = m.seed_mean_sd === null ? "" : ` · sd ${formatSignificant(m.seed_mean_sd)} across seeds`
  const within =
    m.within_seed_share === null ? "" : ` · ${Math.round(m.within_seed_share * 100)}% of the variance within seeds`
  return `per-seed mean ${formatSignificant(m.seed_mean)}${spread}${within}`
}

const rollouts = (s: RunSummary): string => {
  const kinds = Object.entries(s.errors_by_kind)
    .sort(([, a], [, b]) => b - a)
    .map(([kind, count]) => `${kind} ${count}`)
  const errors = kinds.length > 0 ? `${s.errored} errored (${kinds.join(", ")})` : `${s.errored} errored`
  return `${s.completed} of ${s.planned} completed · ${s.ok} ok · ${errors} · ${s.missing} missing`
}

const latency = (l: RunSummary["latency_ms"]): string =>
  l === null
    ? "-"
    : `p50 ${formatMs(l.p50)} · p90 ${formatMs(l.p90)} · p99 ${formatMs(l.p99)} · max ${formatMs(l.max)} · mean ${formatMs(l.mean)}`

/** What errored rollouts' model calls spent, when they spent anything: said apart, never left out. */
const onErrors = (spent: number | null, format: (n: number) => string) =>
  spent === null || spent === 0 ? "" : ` · ${format(spent)} spent on errors`

const tokens = (t: RunSummary["tokens"]): string =>
  t.total === null
    ? "unreported"
    : `${formatInteger(t.total)} total${
        t.mean_per_rollout === null
          ? ""
          : ` · ${formatInteger(t.mean_per_rollout)} per rollout (${t.rollouts_with_tokens} rollouts)`
      }${onErrors(t.spent_on_errors, formatInteger)}`

const pricedFrom = (table: string | undefined): string => (table === undefined ? "" : ` · prices: ${table}`)

const cost = (c: RunSummary["cost_usd"]): string =>
  c.total === null
    ? `unpriced${pricedFrom(c.price_table)}`
    : `${formatUsd(c.total)} total${c.mean_per_rollout === null ? "" : ` · ${formatUsd(c.mean_per_rollout)} per rollout`}${
        c.per_correct === null ? "" : ` · ${formatUsd(c.per_correct)} per correct answer`
      }${onErrors(c.spent_on_errors, formatUsd)} (${c.rollouts_priced} priced)${pricedFrom(c.price_table)}`

/** The judge's spending, apart from the policy's tokens and cost above. */
const judgeSpend = (j: NonNullable<RunSummary["judge"]>): string => {
  const tokens =
    j.tokens === null
      ? "tokens unreported"
      : `${formatInteger(j.tokens)} tokens${j.tokens_per_rollout === null ? "" : ` (${formatInteger(j.tokens_per_rollout)} per rollout)`}`
  const cost =
    j.cost_usd === null
      ? "unpriced"
      : `${formatUsd(j.cost_usd)}${j.cost_per_rollout === null ? "" : ` (${formatUsd(j.cost_per_rollout)} per rollout)`}`
  return `${tokens} · ${cost} · ${plural(j.calls, "call")} for ${plural(j.rollouts_judged, "rollout")}`
}

/** A statistic with its bootstrap interval: `0.62 (95% CI 0.50 – 0.73)`. */
const estimate = (e: BootstrapEstimate): string =>
  e.value === null
    ? "undefined (no variation)"
    : `${formatNumber(e.value)}${e.ci95 === null ? "" : ` (95% CI ${formatNumber(e.ci95[0])} – ${formatNumber(e.ci95[1])})`}`

const percent = (share: number) => `${Math.round(share * 100)}%`

const agreement = (a: {
  readonly items: number
  readonly kappa: BootstrapEstimate | null
  readonly alpha: BootstrapEstimate
  readonly alpha_level: string
}): string =>
  `${a.kappa === null ? "" : `kappa ${estimate(a.kappa)} · `}alpha (${a.alpha_level}) ${estimate(a.alpha)} · n=${a.items}`

/** One judge grader's trust statistics, a line each. */
const graderTrustItems = (g: GraderTrust): Array<readonly [string, string]> => {
  const items: Array<readonly [string, string]> = []
  const label = `judge ${g.grader}`
  if (g.human !== null) {
    const matrix = g.human.confusion
    const confusion =
      matrix === null
        ? ""
        : ` · confusion (rows human, columns judge; ${matrix.labels.join(", ")}): ${matrix.counts
            .map((row) => `[${row.join(" ")}]`)
            .join(" ")}`
    items.push([label, `vs human labels: ${agreement(g.human)}${confusion}`])
  }
  const self = g.self_consistency
  if (self !== null) {
    const share = self.share_of_stderr2 === null ? "" : ` · ${percent(self.share_of_stderr2)} of the score's SE²`
    items.push([
      label,
      `self-consistency over ${self.samples} samples: within-item variance ${formatSignificant(self.within_item_variance)}${share}`,
    ])
  }
  const bias = g.position_bias
  if (bias !== null) {
    const first = bias.first_shown_wins === null ? "" : ` · first shown wins ${percent(bias.first_shown_wins)}`
    items.push([
      label,
      `position bias: verdict flips on swap ${estimate(bias.flip_rate)} of ${bias.items} items${first}`,
    ])
  }
  const win = g.win_rate
  if (win !== null && win.value !== null) {
    const ci =
      win.ci95 === null ? "" : ` (95% CI ${formatNumber(win.ci95[0])} – ${formatNumber(win.ci95[1])}, paired by task)`
    items.push([label, `win rate ${formatNumber(win.value)}${ci} · ${plural(win.tasks, "task")}`])
  }
  return items
}

const judgesAgreementItem = (a: JudgesAgreement): readonly [string, string] => [
  "judges agree",
  `${a.graders[0]} vs ${a.graders[1]}: ${agreement(a)}`,
]

const rate = (perS: number | null): string => (perS === null ? "" : ` · ${perS.toFixed(1)} rollouts/s`)

/** One session: its time and rate. Resumed: this session's and the whole run's, each labelled. */
const duration = (s: RunSummary): string => {
  const session = `${s.duration_s.toFixed(1)} s${rate(s.throughput_per_s)}`
  if (s.session_completed === s.completed) return session
  return (
    `this session ${plural(s.session_completed, "rollout")} in ${session}; ` +
    `whole run ${plural(s.completed, "rollout")} in ${s.run_duration_s.toFixed(1)} s${rate(s.run_throughput_per_s)}`
  )
}

/** Agent runs: nanoeval's length statistics, as fractions of the completions, and the stop reasons' counts. */
const lengthItems = (l: NonNullable<RunSummary["length_stats"]>): Array<readonly [string, string]> => {
  const reasons = Object.entries(l.stop_reasons)
    .sort(([, a], [, b]) => b - a)
    .map(([reason, count]) => `${reason} ${count}`)
  // nanoeval's fractions: the limits' and model_ended count incorrect completions only (a correct rollout that hit a
  // limit is correct), so they are listed as what the wrong ones ended by.
  const wrong = [
    ["max_time", l.frac_max_time],
    ["max_turns", l.frac_max_turns],
    ["max_tokens", l.frac_max_tokens],
    ["max_cost", l.frac_max_cost],
    ["model ended", l.frac_model_ended],
  ] as const
  const shares = `correct ${formatNumber(l.frac_correct)} · wrong, by ${wrong
    .map(([name, value]) => `${name} ${formatNumber(value)}`)
    .join(" · ")}`
  const convo = l.convo_len_percentiles
  const lengths =
    convo === null
      ? ""
      : ` · messages p25 ${formatNumber(convo.p25)} · p50 ${formatNumber(convo.p50)} · p75 ${formatNumber(convo.p75)}`
  return [
    ["stop reasons", reasons.join(" · ")],
    ["of completions", `${shares} (${plural(l.completions, "completion")})${lengths}`],
  ]
}

const withErrorsScore = (m: ScoreMetrics): string => {
  if (m.mean_score === null) return "-"
  if (m.ci95 === null) return `${formatNumber(m.mean_score)} (n=${m.count})`
  const e = formatMeanInterval(m.mean_score, m.ci95, m.interval)
  return m.interval === "wilson" ? `${e.mean} (95% CI ${e.low} – ${e.high}; n=${m.count})` : `${e.mean} (n=${m.count})`
}

/** The summary as labelled lines, shared by the terminal block and the markdown table. */
export const summaryItems = (s: RunSummary): ReadonlyArray<readonly [label: string, value: string]> => {
  const withErrors = s.metrics_including_errors
  const items: Array<readonly [string, string]> = [
    ["score", score(s.metrics)],
    ["pass rate", `${formatNumber(s.metrics.pass_rate)} (score ≥ ${formatNumber(s.pass_threshold)})`],
    ["with errors as 0", `${withErrorsScore(withErrors)} · ${formatNumber(withErrors.pass_rate)} pass rate`],
  ]
  const perSeed = seeds(s.metrics)
  if (perSeed !== null) items.splice(1, 0, ["seeds", perSeed])
  // Each grader is a metric of its own, shown under the score it makes.
  const graders = Object.entries(s.graders ?? {}).map(
    ([name, metrics]) => [`  ${name}`, `${score(metrics)} · ${formatNumber(metrics.pass_rate)} passed`] as const,
  )
  items.splice(1, 0, ...graders)
  if (s.pass_at_k !== null) {
    const estimates = Object.entries(s.pass_at_k).map(([k, p]) => `@${k} ${formatNumber(p)}`)
    items.push(["pass@k", estimates.join(" · ")])
  }
  items.push(
    ["rollouts", rollouts(s)],
    ...(s.stopped === undefined ? [] : [["stopped", s.stopped.message] as const]),
    ...(s.length_stats === undefined ? [] : lengthItems(s.length_stats)),
    ["valid", s.is_valid ? "yes" : `no — ${s.invalid_reasons.join("; ")}`],
    ["latency ms", latency(s.latency_ms)],
    ["tokens", tokens(s.tokens)],
    ["cost", cost(s.cost_usd)],
    ...(s.judge === undefined ? [] : [["judge", judgeSpend(s.judge)] as const]),
    ...(s.judge_trust === undefined
      ? []
      : [...s.judge_trust.graders.flatMap(graderTrustItems), ...s.judge_trust.agreement.map(judgesAgreementItem)]),
    ...(s.cache === undefined
      ? []
      : [
          [
            "cache",
            `${plural(s.cache.calls, "call")} answered from the response cache · ${
              s.cache.avoided_usd === null ? "unpriced" : `${formatUsd(s.cache.avoided_usd)} avoided`
            }`,
          ] as const,
        ]),
    [
      "retries",
      s.retried_errors > 0 ? `${s.retries} · ${s.retried_errors} errored rollouts run again` : String(s.retries),
    ],
    ["duration", duration(s)],
  )
  return items
}
