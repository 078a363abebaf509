import { useEffect, useMemo, useState } from "preact/hooks"
import type { RolloutDetail, RolloutRow } from "../ViewerApi.js"
import { duration, fixed, integer, MISSING, prettyJson, usd } from "./format.js"
import type { ViewerSource } from "./source.js"
import { Transcript } from "./Transcript.js"
import { transcriptOfCalls, transcriptOfTrace } from "./transcript.js"

type Loaded =
  | { readonly state: "loading" }
  | { readonly state: "absent" }
  | { readonly state: "failed"; readonly message: string }
  | { readonly state: "ready"; readonly detail: RolloutDetail }

const settle = (request: Promise<RolloutDetail | null>): Promise<Loaded> =>
  request.then(
    (detail): Loaded => (detail === null ? { state: "absent" } : { state: "ready", detail }),
    (error: unknown): Loaded => ({ state: "failed", message: error instanceof Error ? error.message : String(error) }),
  )

export const useRollout = (source: ViewerSource, run: number, seed: number, attempt: number): Loaded => {
  // Asked for as the view renders, not in an effect after it has painted: the request leaves a frame sooner.
  const request = useMemo(() => settle(source.rollout(run, seed, attempt)), [source, run, seed, attempt])
  const [settled, setSettled] = useState<{ readonly request: Promise<Loaded>; readonly loaded: Loaded } | null>(null)
  useEffect(() => {
    let current = true
    void request.then((loaded) => current && setSettled({ request, loaded }))
    return () => {
      current = false
    }
  }, [request])
  return settled !== null && settled.request === request ? settled.loaded : { state: "loading" }
}

const Json = ({ label, value, open = false }: { label: string; value: unknown; open?: boolean }) => {
  const text = prettyJson(value)
  return text === null ? null : (
    <details open={open} class="json" data-testid={`json-${label}`}>
      <summary>{label}</summary>
      <pre>{text}</pre>
    </details>
  )
}

/** A task app's steps, where its trace has trajectories (`trajectories[].steps[]`: reward, done, info). */
const stepsOf = (trace: unknown): Array<Record<string, unknown>> => {
  if (typeof trace !== "object" || trace === null) return []
  const trajectories = (trace as { trajectories?: unknown }).trajectories
  if (!Array.isArray(trajectories)) return []
  return trajectories.flatMap((t) =>
    typeof t === "object" && t !== null && Array.isArray((t as { steps?: unknown }).steps)
      ? (t as { steps: Array<Record<string, unknown>> }).steps
      : [],
  )
}

const Steps = ({ trace }: { trace: unknown }) => {
  const steps = stepsOf(trace)
  if (steps.length === 0) return null
  return (
    <table class="steps" data-testid="steps">
      <thead>
        <tr>
          <th>step</th>
          <th>reward</th>
          <th>done</th>
          <th>info</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((step, index) => (
          <tr key={index}>
            <td>{index}</td>
            <td>{typeof step.reward === "number" ? fixed(step.reward, 4) : MISSING}</td>
            <td>{String(step.done ?? MISSING)}</td>
            <td>
              <code>{JSON.stringify(step.info ?? null).slice(0, 300)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** One rollout in full: outcome, error and retries, the transcript, and what the task app said about it. */
export const RolloutPane = ({ detail }: { detail: RolloutDetail }) => {
  const { result, calls } = detail
  const turns = useMemo(() => (calls.length > 0 ? transcriptOfCalls(calls) : transcriptOfTrace(result.trace)), [detail])
  const retries = result.retry_log ?? []
  return (
    <div class="rollout-pane" data-testid="rollout-pane">
      <dl class="facts">
        <div>
          <dt>status</dt>
          <dd class={result.status === "error" ? "bad" : undefined} data-testid="rollout-status">
            {result.status}
            {result.error_kind === null ? "" : ` (${result.error_kind})`}
          </dd>
        </div>
        <div>
          <dt>score</dt>
          <dd data-testid="rollout-score">{fixed(result.score, 4)}</dd>
        </div>
        <div>
          <dt>latency</dt>
          <dd>{duration(result.latency_ms)}</dd>
        </div>
        <div>
          <dt>tokens</dt>
          <dd>{integer(result.tokens)}</dd>
        </div>
        <div>
          <dt>cost</dt>
          <dd>{result.cost_usd === null ? "unpriced" : usd(result.cost_usd)}</dd>
        </div>
        <div>
          <dt>model calls</dt>
          <dd>{calls.length}</dd>
        </div>
        <div>
          <dt>retries</dt>
          <dd>{result.retries}</dd>
        </div>
        {result.task_id === undefined ? null : (
          <div>
            <dt>task</dt>
            <dd>{String(result.task_id)}</dd>
          </div>
        )}
      </dl>
      {result.error === null ? null : (
        <div class="error-box" role="alert" data-testid="rollout-error">
          <b>{result.error_kind ?? "error"}</b>: {result.error}
        </div>
      )}
      {retries.length === 0 ? null : (
        <section aria-label="retries">
          <h3>Retries</h3>
          <ol class="retries" data-testid="retry-log">
            {retries.map((entry, index) => (
              <li key={index} data-testid="retry-entry">
                try {index + 1} failed at {entry.at}: <b>{entry.kind}</b> {entry.error} — retried after{" "}
                {duration(entry.delay_ms)}
              </li>
            ))}
          </ol>
        </section>
      )}
      <section aria-label="transcript">
        <h3>Transcript</h3>
        <Transcript turns={turns} />
      </section>
      <section aria-label="task app">
        <h3>Task app</h3>
        <Steps trace={result.trace} />
        <Json label="details" value={result.details} open />
        <Json label="final" value={result.final} open />
        <Json label="info" value={result.info} />
        <Json label="trace" value={result.trace} />
      </section>
    </div>
  )
}

const RowFacts = ({ row }: { row: RolloutRow }) => (
  <p class="muted">
    From the table: {row.status}
    {row.error_kind === null ? "" : ` (${row.error_kind})`}, score {fixed(row.score, 4)}, {row.calls} model calls
    {row.error === null ? "" : ` — ${row.error}`}
  </p>
)

export interface RolloutViewProps {
  readonly source: ViewerSource
  readonly run: number
  readonly seed: number
  readonly attempt: number
  readonly row: RolloutRow | undefined
  readonly backHref: string
}

export const RolloutView = ({ source, run, seed, attempt, row, backHref }: RolloutViewProps) => {
  const loaded = useRollout(source, run, seed, attempt)
  return (
    <section
      class="rollout"
      aria-label="rollout"
      data-testid="rollout-view"
      data-seed={loaded.state === "ready" ? seed : undefined}
      data-attempt={loaded.state === "ready" ? attempt : undefined}
    >
      <p>
        <a href={backHref}>← all rollouts</a>
      </p>
      <h2 data-testid="rollout-title">
        seed {seed} · attempt {attempt}
      </h2>
      {loaded.state === "loading" ? <p class="muted">Loading…</p> : null}
      {loaded.state === "failed" ? <p class="bad">Could not load this rollout: {loaded.message}</p> : null}
      {loaded.state === "absent" ? (
        <div data-testid="rollout-absent">
          <p class="notice">
            {source.mode === "embedded"
              ? "This rollout's transcript is not in this report file (it was left out to keep the file small; failures were kept first)."
              : "No such rollout in this run."}
          </p>
          {row === undefined ? null : <RowFacts row={row} />}
        </div>
      ) : null}
      {loaded.state === "ready" ? <RolloutPane detail={loaded.detail} /> : null}
    </section>
  )
}
