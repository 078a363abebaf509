import type { RunHead } from "../apiShapes.js"
import { fixed, integer, MISSING, percent, usd } from "./format.js"

type Summary = NonNullable<RunHead["summary"]>
type Trust = NonNullable<Summary["judge_trust"]>
type Estimate = { readonly value: number | null; readonly ci95: readonly [number, number] | null }

const withCi = (estimate: Estimate | null | undefined): string =>
  estimate === null || estimate === undefined || estimate.value === null
    ? MISSING
    : `${fixed(estimate.value)}${estimate.ci95 === null ? "" : ` (95% CI ${fixed(estimate.ci95[0])}–${fixed(estimate.ci95[1])})`}`

/** What one judge grader's trust statistics say, a phrase each; empty when it has none to report. */
const trustPhrases = (grader: Trust["graders"][number]): ReadonlyArray<string> => [
  ...(grader.human === null || grader.human.items === 0
    ? []
    : [
        `vs human labels (n=${integer(grader.human.items)}): ${grader.human.kappa === null ? "" : `kappa ${withCi(grader.human.kappa)} · `}alpha (${grader.human.alpha_level}) ${withCi(grader.human.alpha)}`,
      ]),
  ...(grader.self_consistency === null
    ? []
    : [
        `self-consistency over ${grader.self_consistency.samples} samples: within-item variance ${fixed(grader.self_consistency.within_item_variance, 4)} · ${percent(grader.self_consistency.share_of_stderr2)} of the score's SE²`,
      ]),
  ...(grader.position_bias === null
    ? []
    : [
        `position bias: flips on swap ${withCi(grader.position_bias.flip_rate)} · first shown wins ${percent(grader.position_bias.first_shown_wins)}`,
      ]),
  ...(grader.win_rate === null
    ? []
    : [
        `win rate ${fixed(grader.win_rate.value)}${grader.win_rate.ci95 === null ? "" : ` (95% CI ${fixed(grader.win_rate.ci95[0])}–${fixed(grader.win_rate.ci95[1])}, paired by task)`}`,
      ]),
]

/**
 * A run's graders next to its score: each grader's metric and pass rate, what the judges spent apart from the
 * policy, and how far each judge can be trusted (agreement with people and with each other, its own variance, its
 * position bias), with intervals.
 */
export const GradersView = ({ summary }: { readonly summary: Summary }) => {
  const graders = Object.entries(summary.graders ?? {})
  if (graders.length === 0 && summary.judge === undefined && summary.judge_trust === undefined) return null
  return (
    <section class="graders" aria-label="graders" data-testid="graders">
      <h3>Graders</h3>
      <table class="kinds">
        <tbody>
          {graders.map(([name, metrics]) => (
            <tr key={name} data-testid={`grader-${name}`}>
              <th scope="row">{name}</th>
              <td>
                {fixed(metrics.mean_score)}
                {metrics.ci95 === null ? "" : ` (95% CI ${fixed(metrics.ci95[0])}–${fixed(metrics.ci95[1])})`} ·{" "}
                {percent(metrics.pass_rate)} passed
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {summary.judge === undefined ? null : (
        <p data-testid="judge-spend">
          judge: {integer(summary.judge.calls)} calls for {integer(summary.judge.rollouts_judged)} rollouts ·{" "}
          {integer(summary.judge.tokens)} tokens ·{" "}
          {summary.judge.cost_usd === null ? "unpriced" : usd(summary.judge.cost_usd)} (apart from the policy's tokens
          and cost)
        </p>
      )}
      {summary.judge_trust === undefined ? null : (
        <ul class="trust" data-testid="judge-trust">
          {summary.judge_trust.graders.flatMap((grader) =>
            trustPhrases(grader).map((phrase) => (
              <li key={`${grader.grader}:${phrase}`}>
                judge <b>{grader.grader}</b> {phrase}
              </li>
            )),
          )}
          {summary.judge_trust.agreement.map((pair) => (
            <li key={pair.graders.join("+")}>
              judges <b>{pair.graders[0]}</b> and <b>{pair.graders[1]}</b> agree (n={integer(pair.items)}):{" "}
              {pair.kappa === null ? "" : `kappa ${withCi(pair.kappa)} · `}alpha ({pair.alpha_level}){" "}
              {withCi(pair.alpha)}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
