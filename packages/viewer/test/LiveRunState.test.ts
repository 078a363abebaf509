import { describe, expect, it } from "@effect/vitest"
import type { RunProgress } from "@proctor/core"
import { testResult as result } from "@proctor/test-kit"
import { LiveRunState } from "../src/backend/LiveRunState.js"

const progress = (done: number): RunProgress => ({
  planned: 4,
  done,
  ok: done,
  errored: 0,
  retries: 1,
  inFlight: 9,
  scoreSum: done,
  scored: done,
  elapsedMs: 1,
  alreadyDone: 0,
})

describe("a running eval's live state", () => {
  it("tracks each rollout in flight: running for how long, waiting to retry (why, how long more), gone when done", () => {
    let now = 1_000
    const live = new LiveRunState(() => now)
    let changes = 0
    live.watch(() => changes++)
    live.onEvent({ _tag: "RunStarted", runId: "r", runDir: "runs/r", planned: 4, alreadyDone: 0 })
    live.onEvent({ _tag: "RolloutStarted", key: { seed: 0, attempt: 0 }, retry: 0 })
    live.onEvent({ _tag: "RolloutStarted", key: { seed: 1, attempt: 0 }, retry: 0 })
    now += 400
    live.onEvent({
      _tag: "RolloutRetried",
      key: { seed: 1, attempt: 0 },
      retry: 1,
      errorKind: "rate_limited",
      error: "429 from the task app",
      delayMs: 2_000,
    })
    now += 500
    expect(live.view().inflight).toEqual([
      { seed: 0, attempt: 0, state: "running", since_ms: 900 },
      {
        seed: 1,
        attempt: 0,
        state: "waiting_retry",
        since_ms: 500,
        retry: 1,
        reason: "rate_limited: 429 from the task app",
        retry_in_ms: 1_500,
      },
    ])
    expect(live.progress()).toMatchObject({ planned: 4, done: 0, inFlight: 2, elapsedMs: 900 })

    now += 1_500
    live.onEvent({ _tag: "RolloutStarted", key: { seed: 1, attempt: 0 }, retry: 1 })
    live.onEvent({
      _tag: "RolloutFinished",
      result: result({ seed: 0, score: 1, tokens: 40, cost_usd: 0.002 }),
      progress: progress(1),
    })
    now += 100
    const view = live.view()
    expect(view.inflight).toEqual([{ seed: 1, attempt: 0, state: "running", since_ms: 100, retry: 1 }])
    expect(view).toMatchObject({ tokens: 40, cost_usd: 0.002 })
    // The counters are the last finish's; in flight and elapsed time are as of now.
    expect(view.progress).toMatchObject({ done: 1, ok: 1, inFlight: 1, elapsedMs: 2_500 })
    expect(changes).toBe(6)
  })

  it("drops the waits a stop abandons, and everything in flight once the run has finished", () => {
    const live = new LiveRunState(() => 0)
    live.onEvent({ _tag: "RunStarted", runId: "r", runDir: null, planned: 4, alreadyDone: 2 })
    live.onEvent({ _tag: "RolloutStarted", key: { seed: 2, attempt: 0 }, retry: 0 })
    live.onEvent({ _tag: "RolloutStarted", key: { seed: 3, attempt: 0 }, retry: 0 })
    live.onEvent({
      _tag: "RolloutRetried",
      key: { seed: 3, attempt: 0 },
      retry: 1,
      errorKind: "http_5xx",
      error: "502",
      delayMs: 1_000,
    })
    expect(live.progress()).toMatchObject({ planned: 4, done: 2, alreadyDone: 2 })
    live.onEvent({ _tag: "StopRequested", inFlight: 2 })
    expect(live.view().inflight.map((f) => f.seed)).toEqual([2])
    expect(live.finished).toBe(false)
    live.onEvent({ _tag: "RunFinished", summary: {} as never, interrupted: true })
    expect(live.view().inflight).toEqual([])
    expect(live.finished).toBe(true)
  })
})
