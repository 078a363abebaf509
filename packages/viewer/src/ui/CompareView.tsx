import { useEffect, useState } from "preact/hooks"
import type { ComparisonView, RunHead } from "../apiShapes.js"
import { costOrUnpriced, duration, fixed, integer, MISSING, rolloutName, testName } from "./format.js"
import { RolloutPane, useRollout, useSteps } from "./RolloutView.js"
import type { ViewerSource } from "./source.js"

const Side = ({
  source,
  run,
  seed,
  attempt,
  passThreshold,
}: {
  source: ViewerSource
  run: RunHead
  seed: number
  attempt: number
  passThreshold: number
}) => {
  const loaded = useRollout(source, run.index, seed, attempt)
  const steps = useSteps(source, run.index, seed, attempt, 0, false)
  return (
    <div class="side" data-testid={`compare-side-${run.index}`}>
      <h3>
        {run.name}{" "}
        <small>
          {rolloutName(loaded.state === "ready" ? loaded.detail.result : { seed })} · attempt {attempt}
        </small>
      </h3>
      {loaded.state === "loading" ? <p class="muted">Loading…</p> : null}
      {loaded.state === "failed" ? <p class="bad">{loaded.message}</p> : null}
      {loaded.state === "absent" ? (
        <p class="notice">
          Not in this run{source.mode === "embedded" ? ", or its transcript was left out of this file" : ""}.
        </p>
      ) : null}
      {loaded.state === "ready" ? (
        <RolloutPane detail={loaded.detail} passThreshold={passThreshold} steps={steps} />
      ) : null}
    </div>
  )
}

const SeedList = ({
  label,
  seeds,
  testId,
  seedHref,
  taskIds,
}: {
  label: string
  seeds: ReadonlyArray<number>
  testId: string
  seedHref: (seed: number) => string
  taskIds: ReadonlyMap<number, string | number>
}) => (
  <div class="flips" data-testid={testId}>
    <h3>
      {label} <small>({seeds.length})</small>
    </h3>
    {seeds.length === 0 ? (
      <p class="muted">none</p>
    ) : (
      <ul>
        {seeds.map((seed) => (
          <li key={seed}>
            <a href={seedHref(seed)} data-testid="flip-seed" data-seed={seed}>
              {taskIds.get(seed) ?? seed}
            </a>
          </li>
        ))}
      </ul>
    )}
  </div>
)

export interface CompareViewProps {
  readonly source: ViewerSource
  readonly runs: ReadonlyArray<RunHead>
  readonly a: number
  readonly b: number
  readonly seed: number | null
  readonly attempt: number
  readonly compareHref: (params: Record<string, number>) => string
  readonly passThresholdOf: (run: number) => number
  /** The runs' task ids by seed (a library run's): flips are named by them. */
  readonly taskIds: ReadonlyMap<number, string | number>
}

/** Two runs seed by seed: the paired difference, the seeds that flipped each way, and one seed's transcripts side by side. */
export const CompareView = (props: CompareViewProps) => {
  const { source, runs, a, b, seed, attempt, compareHref, taskIds } = props
  const [comparison, setComparison] = useState<ComparisonView | null | "loading">("loading")
  useEffect(() => {
    setComparison("loading")
    source.compare(a, b).then(setComparison, () => setComparison(null))
  }, [source, a, b])
  const runA = runs[a]
  const runB = runs[b]
  if (runs.length < 2 || runA === undefined || runB === undefined) return <p class="empty">Comparing needs two runs.</p>
  const pick = (which: "a" | "b", value: number) => {
    location.hash = compareHref({ a: which === "a" ? value : a, b: which === "b" ? value : b })
  }
  const seedHref = (s: number) => compareHref({ a, b, seed: s })
  return (
    <section class="compare" aria-label="compare">
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        {(["a", "b"] as const).map((which) => (
          <label key={which}>
            Run {which.toUpperCase()}
            <select value={which === "a" ? a : b} onChange={(event) => pick(which, Number(event.currentTarget.value))}>
              {runs.map((run) => (
                <option key={run.index} value={run.index}>
                  {run.name}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label>
          Seed
          <input
            type="number"
            data-testid="compare-seed"
            value={seed ?? ""}
            onChange={(event) => {
              const value = event.currentTarget.value
              if (/^-?\d+$/.test(value)) location.hash = compareHref({ a, b, seed: Number(value), attempt })
            }}
          />
        </label>
      </form>
      {comparison === "loading" ? <p class="muted">Comparing…</p> : null}
      {comparison === null ? <p class="notice">No comparison available for these runs.</p> : null}
      {comparison !== null && comparison !== "loading" ? (
        <>
          <dl class="stats" data-testid="comparison">
            <div class="stat">
              <dt>mean A / B</dt>
              <dd>
                {fixed(comparison.mean_a)} / {fixed(comparison.mean_b)}
              </dd>
            </div>
            <div class="stat">
              <dt>difference B − A</dt>
              <dd>
                {fixed(comparison.diff)}
                {comparison.ci95 === null ? "" : ` (95% CI ${fixed(comparison.ci95[0])}–${fixed(comparison.ci95[1])})`}
              </dd>
            </div>
            <div class="stat">
              <dt>p-value</dt>
              <dd>
                {comparison.p_value === null ? MISSING : fixed(comparison.p_value, 4)}
                {comparison.test === undefined ? null : <small> {testName(comparison.test)}</small>}
              </dd>
            </div>
            {comparison.verdict === undefined ? null : (
              <div class="stat">
                <dt>verdict</dt>
                <dd data-testid="verdict">
                  {comparison.verdict.replace(/_/g, " ")}
                  <small>
                    correlation {fixed(comparison.correlation)} · detectable at 80% power: {fixed(comparison.mde80)}
                  </small>
                </dd>
              </div>
            )}
            {comparison.deltas === undefined ? null : (
              <div class="stat">
                <dt>per rollout, A → B</dt>
                <dd>
                  <small>
                    tokens {integer(comparison.deltas.tokens.a)} → {integer(comparison.deltas.tokens.b)} ·{" "}
                    <span data-testid="compare-cost">
                      {comparison.deltas.cost_usd.a === null && comparison.deltas.cost_usd.b === null
                        ? "cost unpriced"
                        : `cost ${costOrUnpriced(comparison.deltas.cost_usd.a)} → ${costOrUnpriced(comparison.deltas.cost_usd.b)}`}
                    </span>{" "}
                    · latency {duration(comparison.deltas.latency_ms.a)} → {duration(comparison.deltas.latency_ms.b)}
                  </small>
                </dd>
              </div>
            )}
            <div class="stat">
              <dt>paired seeds</dt>
              <dd>
                {comparison.pairs}
                {comparison.excluded === undefined ? null : (
                  <small>
                    {" "}
                    ({comparison.excluded.errored} errored, {comparison.excluded.unmatched} unmatched left out)
                  </small>
                )}
              </dd>
            </div>
          </dl>
          <div class="flip-lists">
            <SeedList
              label={`passed in A only (${runA.name})`}
              seeds={comparison.flips.a_only}
              testId="flips-a-only"
              seedHref={seedHref}
              taskIds={taskIds}
            />
            <SeedList
              label={`passed in B only (${runB.name})`}
              seeds={comparison.flips.b_only}
              testId="flips-b-only"
              seedHref={seedHref}
              taskIds={taskIds}
            />
          </div>
        </>
      ) : null}
      {seed === null ? (
        <p class="muted">Pick a seed to see its two transcripts side by side.</p>
      ) : (
        <div class="side-by-side" data-testid="side-by-side">
          <Side source={source} run={runA} seed={seed} attempt={attempt} passThreshold={props.passThresholdOf(a)} />
          <Side source={source} run={runB} seed={seed} attempt={attempt} passThreshold={props.passThresholdOf(b)} />
        </div>
      )}
    </section>
  )
}
