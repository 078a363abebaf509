import { useMemo } from "preact/hooks"
import type { RolloutRow, RunHead } from "../apiShapes.js"
import { costOrUnpriced, duration, estimatorName, fixed, grouped, integer, MISSING, percent, usd } from "./format.js"
import { GradersView } from "./GradersView.js"
import { Histogram } from "./Histogram.js"

type Metrics = NonNullable<RunHead["summary"]>["metrics"]

const scoreLine = (metrics: Metrics) =>
  metrics.mean_score === null
    ? MISSING
    : `${fixed(metrics.mean_score)}${metrics.ci95 === null ? "" : ` (95% CI ${fixed(metrics.ci95[0])}–${fixed(metrics.ci95[1])})`}`

const Stat = ({
  label,
  value,
  testId,
  note,
}: {
  label: string
  value: string
  testId?: string
  note?: string | undefined
}) => (
  <div class="stat" data-testid={testId}>
    <dt>{label}</dt>
    <dd>
      {value}
      {note === undefined ? null : <small> {note}</small>}
    </dd>
  </div>
)

/** Numbers the distributions need, gathered in one pass over the rows. */
const distributions = (rows: ReadonlyArray<RolloutRow>) => {
  const score: Array<number> = []
  const latency: Array<number> = []
  const cost: Array<number> = []
  const turns: Array<number> = []
  let wrong = 0
  for (const row of rows) {
    if (row.status === "ok" && row.score !== null) score.push(row.score)
    if (row.latency_ms !== null) latency.push(row.latency_ms)
    if (row.cost_usd !== null) cost.push(row.cost_usd)
    if (row.turns !== null) turns.push(row.turns)
    if (row.passed === false) wrong++
  }
  return { score, latency, cost, turns, wrong }
}

export interface SummaryViewProps {
  readonly run: RunHead
  readonly rows: ReadonlyArray<RolloutRow>
  readonly version: number
  readonly errorsHref: string
}

/** The run at a glance: score with its CI, pass@k, errors kept apart from wrong answers, validity, tokens and cost. */
export const SummaryView = ({ run, rows, version, errorsHref }: SummaryViewProps) => {
  const dist = useMemo(() => distributions(rows), [rows, version])
  const summary = run.summary
  const config = run.config
  return (
    <section class="summary" aria-label="summary">
      <h2>
        {run.name} <small>{run.run_id}</small>
      </h2>
      {config === null ? null : (
        <p class="config" data-testid="run-config">
          app <b>{config.app_id ?? config.env_name ?? MISSING}</b> · model <b>{config.model ?? MISSING}</b> ·{" "}
          {grouped(config.seeds.length)} seeds × {config.attempts} attempt
          {config.attempts === 1 ? "" : "s"}
        </p>
      )}
      {summary === null ? (
        <p class="empty">No summary yet.</p>
      ) : (
        <>
          <p class={summary.is_valid ? "validity valid" : "validity invalid"} data-testid="validity">
            {summary.is_valid ? "✓ valid run" : `✗ not valid: ${summary.invalid_reasons.join("; ")}`}
          </p>
          <dl class="stats">
            <Stat
              label="score"
              testId="score"
              value={scoreLine(summary.metrics)}
              note={`n=${summary.metrics.count} · ${estimatorName(summary.metrics.estimator)}${summary.metrics.stderr === null ? "" : ` ${fixed(summary.metrics.stderr, 4)}`}`}
            />
            <Stat label="score, errors as 0" value={scoreLine(summary.metrics_including_errors)} />
            <Stat
              label="pass rate"
              value={percent(summary.metrics.pass_rate)}
              note={`score ≥ ${summary.pass_threshold}`}
            />
            {summary.pass_at_k === null
              ? null
              : Object.entries(summary.pass_at_k).map(([k, value]) => (
                  <Stat key={k} label={`pass@${k}`} testId={`pass-at-${k}`} value={percent(value)} />
                ))}
            <Stat
              label="rollouts"
              testId="summary-rollouts"
              value={`${integer(summary.completed)} of ${integer(summary.planned)}`}
              note={summary.missing > 0 ? `${integer(summary.missing)} missing` : undefined}
            />
            <Stat
              label="wrong answers"
              testId="wrong-answers"
              value={integer(dist.wrong)}
              note="ran, scored below the threshold"
            />
            <Stat
              label="errors"
              testId="errors"
              value={integer(summary.errored)}
              note="no answer: infrastructure, task app or model failure"
            />
            <Stat label="retries" value={integer(summary.retries)} />
            <Stat
              label="tokens"
              value={integer(summary.tokens.total)}
              note={
                summary.tokens.mean_per_rollout === null
                  ? undefined
                  : `${integer(summary.tokens.mean_per_rollout)} per rollout`
              }
            />
            <Stat
              label="cost"
              testId="cost"
              value={costOrUnpriced(summary.cost_usd.total)}
              note={
                summary.cost_usd.mean_per_rollout === null
                  ? undefined
                  : `${usd(summary.cost_usd.mean_per_rollout)} per rollout`
              }
            />
            <Stat label="cost per correct answer" testId="cost-per-correct" value={usd(summary.cost_usd.per_correct)} />
            <Stat
              label="latency p50 / p90 / p99"
              value={
                summary.latency_ms === null
                  ? MISSING
                  : `${duration(summary.latency_ms.p50)} / ${duration(summary.latency_ms.p90)} / ${duration(summary.latency_ms.p99)}`
              }
            />
          </dl>
          <GradersView summary={summary} />
          <h3>Errors by kind</h3>
          {Object.keys(summary.errors_by_kind).length === 0 ? (
            <p class="empty">No errors.</p>
          ) : (
            <table class="kinds" data-testid="errors-by-kind">
              <tbody>
                {Object.entries(summary.errors_by_kind)
                  .sort((a, b) => b[1] - a[1])
                  .map(([kind, count]) => (
                    <tr key={kind}>
                      <th scope="row">
                        <a href={`${errorsHref}&kind=${encodeURIComponent(kind)}`}>{kind}</a>
                      </th>
                      <td>{integer(count)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <h3>Distributions</h3>
      <div class="charts">
        <Histogram title="score" unit="score" values={dist.score} testId="dist-score" />
        <Histogram title="latency" unit="ms" values={dist.latency} testId="dist-latency" />
        <Histogram title="cost" unit="USD" values={dist.cost} testId="dist-cost" />
        <Histogram title="turns" unit="turns" values={dist.turns} testId="dist-turns" />
      </div>
    </section>
  )
}
