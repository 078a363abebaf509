import type { RolloutStep } from "@proctor/core"
import { useEffect, useMemo, useRef, useState } from "preact/hooks"
import type { RolloutDetail, RolloutRow } from "../apiShapes.js"
import { AgentOutput } from "./AgentOutput.js"
import { costOrUnpriced, duration, fixed, integer, MISSING, outcomeOf, prettyJson, rolloutName } from "./format.js"
import type { ViewerSource } from "./source.js"
import { Timeline } from "./Timeline.js"
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

/**
 * A rollout's detail, asked for again whenever `again` changes (a rollout without its result yet, in a live run);
 * what was read stays on the page until the new answer is in.
 */
export const useRollout = (source: ViewerSource, run: number, seed: number, attempt: number, again = 0): Loaded => {
  const key = `${run}/${seed}/${attempt}`
  // Asked for as the view renders, not in an effect after it has painted: the request leaves a frame sooner.
  const request = useMemo(() => settle(source.rollout(run, seed, attempt)), [source, key, again])
  const [settled, setSettled] = useState<{ readonly key: string; readonly loaded: Loaded } | null>(null)
  useEffect(() => {
    let current = true
    void request.then((loaded) => current && setSettled({ key, loaded }))
    return () => {
      current = false
    }
  }, [request])
  return settled !== null && settled.key === key ? settled.loaded : { state: "loading" }
}

/**
 * A rollout's timeline, asked for again on each of its run's updates while `following` (the rollout may still be
 * acting), and once more when it stops: a step stored is on the page at the next update.
 */
export const useSteps = (
  source: ViewerSource,
  run: number,
  seed: number,
  attempt: number,
  updates: number,
  following: boolean,
): ReadonlyArray<RolloutStep> => {
  const [steps, setSteps] = useState<{ readonly key: string; readonly steps: ReadonlyArray<RolloutStep> } | null>(null)
  const key = `${run}/${seed}/${attempt}`
  useEffect(() => {
    let current = true
    source.steps(run, seed, attempt).then(
      (read) => current && setSteps({ key, steps: read }),
      () => {},
    )
    return () => {
      current = false
    }
  }, [source, key, following ? updates : -1])
  return steps?.key === key ? steps.steps : []
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

export interface RolloutPaneProps {
  readonly detail: RolloutDetail
  /** The run's: a score at or above it passes. */
  readonly passThreshold: number
  readonly steps: ReadonlyArray<RolloutStep>
}

/** One rollout in full: outcome, error and retries, its timeline and transcript, and what the task app said about it. */
export const RolloutPane = ({ detail, passThreshold, steps }: RolloutPaneProps) => {
  const { result, calls } = detail
  const turns = useMemo(() => (calls.length > 0 ? transcriptOfCalls(calls) : transcriptOfTrace(result.trace)), [detail])
  const retries = result.retry_log ?? []
  const outcome = outcomeOf(result, passThreshold)
  return (
    <div class="rollout-pane" data-testid="rollout-pane">
      <dl class="facts">
        <div>
          <dt>outcome</dt>
          <dd class={outcome === "error" || outcome === "wrong" ? "bad" : undefined} data-testid="rollout-status">
            {outcome}
            {result.error_kind === null ? "" : ` (${result.error_kind})`}
          </dd>
        </div>
        <div>
          <dt>score</dt>
          <dd data-testid="rollout-score">
            {fixed(result.score, 4)}
            {result.status === "ok" && result.score !== null ? <small> (passes at ≥ {passThreshold})</small> : null}
          </dd>
        </div>
        {result.stop_reason === undefined ? null : (
          <div>
            <dt>stopped by</dt>
            <dd data-testid="rollout-stop-reason">{result.stop_reason.replace(/_/g, " ")}</dd>
          </div>
        )}
        {result.turns === undefined ? null : (
          <div>
            <dt>turns</dt>
            <dd data-testid="rollout-turns">{integer(result.turns)}</dd>
          </div>
        )}
        {result.messages === undefined ? null : (
          <div>
            <dt>messages</dt>
            <dd data-testid="rollout-messages">{integer(result.messages)}</dd>
          </div>
        )}
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
          <dd>{costOrUnpriced(result.cost_usd)}</dd>
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
            <dd data-testid="rollout-task">{String(result.task_id)}</dd>
          </div>
        )}
        <div>
          <dt>seed</dt>
          <dd>{result.seed}</dd>
        </div>
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
      {steps.length === 0 ? null : (
        <section aria-label="timeline">
          <h3>Timeline</h3>
          <Timeline steps={steps} calls={calls} />
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
    From the table:{" "}
    {row.status === "error" ? "error" : row.passed === true ? "passed" : row.passed === false ? "wrong" : "ok"}
    {row.error_kind === null ? "" : ` (${row.error_kind})`}, score {fixed(row.score, 4)}, {row.calls} model calls
    {row.error === null ? "" : ` — ${row.error}`}
  </p>
)

/** Where previous/next lead: the neighbours in the table's current order and filters. */
export interface RolloutNeighbours {
  readonly previous: string | null
  readonly next: string | null
  /** 1-based place in the table's order, and how many rows it has; null when this rollout is not among them. */
  readonly position: number | null
  readonly of: number
}

export interface RolloutViewProps {
  readonly source: ViewerSource
  readonly run: number
  readonly seed: number
  readonly attempt: number
  readonly row: RolloutRow | undefined
  readonly backHref: string
  readonly passThreshold: number
  /** Changes on each `update` event of this run. */
  readonly updates: number
  readonly neighbours: RolloutNeighbours
}

/** Typing in a field is not a request to move: the keys go to the field. */
const typing = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))

/** j / → to the next rollout, k / ← to the previous one. */
const useMoveKeys = (neighbours: RolloutNeighbours) => {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return
      const to =
        event.key === "j" || event.key === "ArrowRight"
          ? neighbours.next
          : event.key === "k" || event.key === "ArrowLeft"
            ? neighbours.previous
            : null
      if (to === null) return
      event.preventDefault()
      location.hash = to
    }
    addEventListener("keydown", onKey)
    return () => removeEventListener("keydown", onKey)
  }, [neighbours.previous, neighbours.next])
}

const Neighbours = ({ neighbours }: { neighbours: RolloutNeighbours }) => (
  <nav class="neighbours" aria-label="previous and next rollout">
    {neighbours.previous === null ? (
      <span class="muted">← previous</span>
    ) : (
      <a href={neighbours.previous} data-testid="rollout-prev" title="previous (k or ←)">
        ← previous
      </a>
    )}
    <span class="muted" data-testid="rollout-position">
      {neighbours.position === null ? "" : `${neighbours.position} of ${neighbours.of}`}
    </span>
    {neighbours.next === null ? (
      <span class="muted">next →</span>
    ) : (
      <a href={neighbours.next} data-testid="rollout-next" title="next (j or →)">
        next →
      </a>
    )}
  </nav>
)

export const RolloutView = (props: RolloutViewProps) => {
  const { source, run, seed, attempt, row, backHref, passThreshold, neighbours } = props
  // A rollout without its result may be acting now (in a run being written): it is asked for again, with its steps,
  // on each of its run's updates until its result is in; a finished rollout's steps are all written.
  const waiting = useRef(false)
  const loaded = useRollout(source, run, seed, attempt, waiting.current ? props.updates : 0)
  waiting.current = loaded.state === "absent"
  const steps = useSteps(source, run, seed, attempt, props.updates, loaded.state !== "ready")
  useMoveKeys(neighbours)
  const named = loaded.state === "ready" ? loaded.detail.result : (row ?? { seed, task_id: null })
  return (
    <section
      class="rollout"
      aria-label="rollout"
      data-testid="rollout-view"
      data-seed={loaded.state === "ready" ? seed : undefined}
      data-attempt={loaded.state === "ready" ? attempt : undefined}
    >
      <div class="rollout-nav">
        <a href={backHref}>← all rollouts</a>
        <Neighbours neighbours={neighbours} />
      </div>
      <h2 data-testid="rollout-title">
        {rolloutName(named)} · attempt {attempt}
      </h2>
      {loaded.state === "loading" ? <p class="muted">Loading…</p> : null}
      {loaded.state === "failed" ? <p class="bad">Could not load this rollout: {loaded.message}</p> : null}
      {loaded.state === "absent" ? (
        <div data-testid="rollout-absent">
          <p class="notice">
            {source.mode === "embedded"
              ? "This rollout's transcript is not in this report file (it was left out to keep the file small; failures were kept first)."
              : steps.length > 0
                ? "This rollout has no result yet: its timeline so far."
                : "No such rollout in this run."}
          </p>
          {row === undefined ? null : <RowFacts row={row} />}
          {steps.length === 0 ? null : (
            <section aria-label="timeline">
              <h3>Timeline</h3>
              <Timeline steps={steps} calls={[]} />
            </section>
          )}
        </div>
      ) : null}
      {loaded.state === "ready" ? (
        <RolloutPane detail={loaded.detail} passThreshold={passThreshold} steps={steps} />
      ) : null}
      {steps.length === 0 ? null : (
        <AgentOutput
          source={source}
          run={run}
          seed={seed}
          attempt={attempt}
          updates={props.updates}
          following={loaded.state !== "ready"}
        />
      )}
    </section>
  )
}
