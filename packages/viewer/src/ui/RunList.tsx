import { useState } from "preact/hooks"
import type { RunHead } from "../apiShapes.js"
import { costOrUnpriced, fixed, integer, MISSING } from "./format.js"

/** Newest first; runs whose start is unknown keep their order, after the dated ones. */
const byStartDescending = (runs: ReadonlyArray<RunHead>): Array<RunHead> =>
  runs.slice().sort((a, b) => {
    const x = a.started_at ? Date.parse(a.started_at) : Number.NEGATIVE_INFINITY
    const y = b.started_at ? Date.parse(b.started_at) : Number.NEGATIVE_INFINITY
    return x === y ? a.index - b.index : y > x ? 1 : -1
  })

/** Mean ± half the 95% CI, as the summary's numbers allow; Wilson's interval (pass/fail scores) is not symmetric, so it is given whole. */
const scoreWithCi = (run: RunHead): string => {
  const metrics = run.summary?.metrics
  if (metrics === undefined || metrics.mean_score === null) return MISSING
  if (metrics.ci95 === null) return fixed(metrics.mean_score)
  if (metrics.interval === "wilson")
    return `${fixed(metrics.mean_score)} (${fixed(metrics.ci95[0])}–${fixed(metrics.ci95[1])})`
  return `${fixed(metrics.mean_score)} ± ${fixed((metrics.ci95[1] - metrics.ci95[0]) / 2)}`
}

/** A start time as the reader's clock shows it, to the minute. */
const startedText = (at: string | null | undefined): string => {
  if (!at) return MISSING
  const date = new Date(at)
  if (Number.isNaN(date.getTime())) return at
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`
}

export interface RunListProps {
  readonly runs: ReadonlyArray<RunHead>
  readonly runHref: (index: number) => string
  readonly compareHref: (a: number, b: number) => string
}

/** Every run the viewer was given (a folder of runs), newest first: open one, or pick two to compare. */
export const RunList = ({ runs, runHref, compareHref }: RunListProps) => {
  const [picked, setPicked] = useState<ReadonlyArray<number>>([])
  const toggle = (index: number) =>
    setPicked((now) => (now.includes(index) ? now.filter((i) => i !== index) : [...now, index].slice(-2)))
  const ordered = byStartDescending(runs)
  // The older of the two is the baseline (A), the newer the candidate (B).
  const pair = ordered.filter((run) => picked.includes(run.index)).reverse()
  return (
    <section class="run-list" aria-label="runs">
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <h2>Runs</h2>
        <output class="muted" data-testid="run-count">
          {runs.length} runs · pick two to compare
        </output>
        <button
          type="button"
          data-testid="compare-picked"
          disabled={pair.length !== 2}
          onClick={() => {
            if (pair.length === 2) location.hash = compareHref(pair[0]!.index, pair[1]!.index)
          }}
        >
          Compare {pair.length === 2 ? `${pair[0]!.name} → ${pair[1]!.name}` : "two runs"}
        </button>
      </form>
      <table class="runs" data-testid="runs">
        <thead>
          <tr>
            <th>
              <span class="visually-hidden">pick</span>
            </th>
            <th>run</th>
            <th>started</th>
            <th>app</th>
            <th>model</th>
            <th>score, 95% CI</th>
            <th>rollouts</th>
            <th>errors</th>
            <th>cost</th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((run) => {
            const summary = run.summary
            return (
              <tr key={run.index} data-testid="run-row" data-run={run.index} data-name={run.name}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`pick ${run.name}`}
                    data-testid="run-pick"
                    checked={picked.includes(run.index)}
                    onChange={() => toggle(run.index)}
                  />
                </td>
                <td>
                  <a href={runHref(run.index)} data-testid="run-link">
                    {run.name}
                  </a>
                  {run.live ? <small class="live-badge"> live</small> : null}
                </td>
                <td>{startedText(run.started_at)}</td>
                <td>{run.config?.app_id ?? run.config?.env_name ?? MISSING}</td>
                <td>{run.config?.model ?? MISSING}</td>
                <td data-testid="run-score">{scoreWithCi(run)}</td>
                <td>{summary === null ? MISSING : `${integer(summary.completed)} of ${integer(summary.planned)}`}</td>
                <td class={summary !== null && summary.errored > 0 ? "bad" : undefined} data-testid="run-errors">
                  {summary === null ? MISSING : integer(summary.errored)}
                </td>
                <td data-testid="run-cost">{summary === null ? MISSING : costOrUnpriced(summary.cost_usd.total)}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}
