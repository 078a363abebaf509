import type { GridView } from "../apiShapes.js"
import { fixed, MISSING, testName } from "./format.js"

/** A difference with its sign, as `proctor compare` writes it. */
const signed = (value: number | null): string =>
  value === null ? MISSING : `${value >= 0 ? "+" : "−"}${fixed(Math.abs(value))}`

const interval = (ci: readonly [number, number] | null, write: (value: number) => string = fixed): string =>
  ci === null ? MISSING : `${write(ci[0])} – ${write(ci[1])}`

const pValue = (p: number | null): string => (p === null ? MISSING : fixed(p, 4))

export interface GridRankingProps {
  readonly grid: GridView
  /** Where picking the pair `a`, `b` (run indexes) for the matrix's flips goes. */
  readonly flipsHref: (a: number, b: number) => string
}

/** The ranking and every pairwise comparison, as `proctor compare GRID` prints them (the same computation). */
export const GridRanking = ({ grid, flipsHref }: GridRankingProps) => {
  const { comparison, variants } = grid
  const runOf = new Map(variants.map((variant) => [variant.name, variant.run]))
  const tests = new Set(comparison.pairs.map((pair) => testName(pair.test)))
  return (
    <>
      <p class="muted" data-testid="grid-tasks">
        Over the {comparison.tasks} tasks scored in every variant
        {comparison.excluded_tasks === 0 ? "" : ` (${comparison.excluded_tasks} scored in only some are left out)`}.
      </p>
      <table class="runs ranking" data-testid="grid-ranking">
        <thead>
          <tr>
            <th>rank</th>
            <th>variant</th>
            <th>model</th>
            <th>prompt</th>
            <th>mean</th>
            <th>95% CI</th>
            <th>rollouts</th>
            <th>errored</th>
          </tr>
        </thead>
        <tbody>
          {comparison.variants.map((standing, position) => {
            const variant = variants[position]!
            return (
              <tr key={standing.label} data-testid="grid-rank-row" data-variant={standing.label}>
                <td data-testid="grid-rank">{standing.rank}</td>
                <td>
                  <span data-testid="grid-variant">{standing.label}</span>
                  {standing.top_group ? (
                    <span class="top-group" data-testid="grid-top-group" title="no variant is significantly better">
                      {" "}
                      *
                    </span>
                  ) : null}
                </td>
                <td>{variant.model ?? MISSING}</td>
                <td class="prompt" title={variant.prompt}>
                  {variant.prompt ?? MISSING}
                </td>
                <td data-testid="grid-mean">{fixed(standing.mean)}</td>
                <td>{interval(standing.ci95)}</td>
                <td>{standing.rollouts}</td>
                <td class={standing.errored > 0 ? "bad" : undefined}>{standing.errored}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {comparison.pairs.length === 0 ? null : (
        <>
          <h3>Every pair</h3>
          <table class="runs pairs" data-testid="grid-pairs">
            <thead>
              <tr>
                <th>a − b</th>
                <th>difference</th>
                <th>CI</th>
                <th>CI level</th>
                <th>p</th>
                <th>p Holm</th>
                <th>significant</th>
                <th>passed a only</th>
                <th>passed b only</th>
                <th>
                  <span class="visually-hidden">flips</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {comparison.pairs.map((pair) => (
                <tr
                  key={`${pair.a}\n${pair.b}`}
                  data-testid="grid-pair-row"
                  data-a={pair.a}
                  data-b={pair.b}
                  class={pair.significant ? "significant" : undefined}
                >
                  <td>
                    {pair.a} − {pair.b}
                  </td>
                  <td data-testid="grid-pair-diff">{signed(pair.diff)}</td>
                  <td>{interval(pair.ci, signed)}</td>
                  <td>{(pair.ci_level * 100).toFixed(1)}%</td>
                  <td>{pValue(pair.p_value)}</td>
                  <td data-testid="grid-pair-holm">{pValue(pair.p_holm)}</td>
                  <td data-testid="grid-pair-significant">{pair.significant ? "yes" : "no"}</td>
                  <td>{pair.flips.a_only.length}</td>
                  <td>{pair.flips.b_only.length}</td>
                  <td>
                    <a href={flipsHref(runOf.get(pair.a)!, runOf.get(pair.b)!)} data-testid="grid-pair-flips">
                      flips in the matrix
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted">
            {comparison.pairs.length} pairs: {[...tests].join(", ")} on the per-task differences, Holm-corrected
            (family-wise α = {comparison.alpha}); each CI is at the level Holm tests its pair at. * = no variant is
            significantly better. A task passes at a mean score ≥ {comparison.pass_threshold}.
          </p>
        </>
      )}
    </>
  )
}
