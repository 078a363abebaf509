import type { LiveRunView } from "@proctor/core"
import { useEffect, useState } from "preact/hooks"
import type { RunHead } from "../apiShapes.js"
import { duration, integer, usd } from "./format.js"
import type { ViewerSource } from "./source.js"

const useClock = (everyMs: number): number => {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}

export interface LivePanelProps {
  readonly source: ViewerSource
  readonly run: RunHead
  /** Changes on each `update` event of this run. */
  readonly updates: number
  /** Where a rollout in flight opens: its timeline so far, for an agent's. */
  readonly rolloutHref: (seed: number, attempt: number) => string
}

/**
 * A run still being written: progress, tokens and cost so far, and every rollout in flight — running (its turns, last
 * step, spend and time left, linked to its timeline so far) or waiting to retry (why, and for how long more).
 */
export const LivePanel = ({ source, run, updates, rolloutHref }: LivePanelProps) => {
  const [live, setLive] = useState<{ readonly state: LiveRunView; readonly at: number } | null>(null)
  const now = useClock(1000)
  useEffect(() => {
    let current = true
    source.live(run.index).then(
      (state) => current && setLive(state === null ? null : { state, at: Date.now() }),
      () => {},
    )
    return () => {
      current = false
    }
  }, [source, run.index, updates])
  if (live === null) return null
  const { progress, inflight, tokens, cost_usd } = live.state
  const aged = now - live.at
  const share = progress.planned > 0 ? progress.done / progress.planned : 0
  return (
    <section class="live" aria-label="live run" data-testid="live-panel">
      <h3>
        Live <small>{duration(progress.elapsedMs + aged)} elapsed</small>
      </h3>
      <progress max={progress.planned} value={progress.done} aria-label="rollouts done" />
      <p data-testid="run-progress" data-done={progress.done} data-planned={progress.planned}>
        {integer(progress.done)} of {integer(progress.planned)} rollouts ({(share * 100).toFixed(0)}%) ·{" "}
        {integer(progress.ok)} ok · {integer(progress.errored)} errors · {integer(progress.retries)} retries ·{" "}
        {integer(inflight.length)} in flight
      </p>
      <p>
        tokens <span data-testid="live-tokens">{integer(tokens)}</span> · cost{" "}
        <span data-testid="live-cost">{usd(cost_usd)}</span>
      </p>
      {inflight.length === 0 ? null : (
        <table class="inflight" data-testid="inflight">
          <thead>
            <tr>
              <th>seed</th>
              <th>attempt</th>
              <th>state</th>
              <th>for</th>
              <th>turns</th>
              <th>last step</th>
              <th>tokens</th>
              <th>cost</th>
              <th>time left</th>
              <th>retry</th>
              <th>reason</th>
              <th>retry in</th>
            </tr>
          </thead>
          <tbody>
            {inflight.map((item) => (
              <tr
                key={`${item.seed}/${item.attempt}`}
                data-testid="inflight-row"
                data-seed={item.seed}
                data-attempt={item.attempt}
                data-state={item.state}
              >
                <td>
                  <a href={rolloutHref(item.seed, item.attempt)}>{item.seed}</a>
                </td>
                <td>{item.attempt}</td>
                <td>{item.state === "running" ? "running" : "waiting to retry"}</td>
                <td>{duration(item.since_ms + aged)}</td>
                <td data-testid="inflight-turns">{item.turns}</td>
                <td class="last-step" data-testid="inflight-last-step" data-kind={item.last_step?.kind}>
                  {item.last_step?.summary ?? ""}
                </td>
                <td>{integer(item.tokens)}</td>
                <td>{usd(item.cost_usd)}</td>
                <td>{item.time_left_ms === undefined ? "" : duration(Math.max(0, item.time_left_ms - aged))}</td>
                <td>{item.retry ?? ""}</td>
                <td>{item.reason ?? ""}</td>
                <td>{item.retry_in_ms === undefined ? "" : duration(Math.max(0, item.retry_in_ms - aged))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
