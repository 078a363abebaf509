import { describe, expect, it } from "@effect/vitest"
import type { RunProgress } from "@proctor/core"
import { testResult as result, testStep } from "@proctor/test-kit"
import { LiveRunState } from "../src/events/LiveRunState.js"
import { stepSummary, summarisedStep } from "../src/events/stepSummary.js"

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
      { seed: 0, attempt: 0, state: "running", since_ms: 900, turns: 0, tokens: null, cost_usd: null },
      {
        seed: 1,
        attempt: 0,
        state: "waiting_retry",
        since_ms: 500,
        retry: 1,
        reason: "rate_limited: 429 from the task app",
        retry_in_ms: 1_500,
        turns: 0,
        tokens: null,
        cost_usd: null,
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
    expect(view.inflight).toEqual([
      { seed: 1, attempt: 0, state: "running", since_ms: 100, retry: 1, turns: 0, tokens: null, cost_usd: null },
    ])
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

  it("follows an agent's rollout: turns, last step, spend from its model calls, time left; a retry starts afresh", () => {
    let now = 0
    const live = new LiveRunState(() => now)
    const key = { seed: 3, attempt: 0 }
    live.onEvent({ _tag: "RunStarted", runId: "r", runDir: null, planned: 1, alreadyDone: 0 })
    live.onEvent({ _tag: "RolloutStarted", key, retry: 0, timeoutMs: 60_000 })
    const call = { seed: 3, tool_calls: [{ id: "c1", name: "run_command", arguments: '{"command":"ls"}' }] }
    now = 2_000
    live.onEvent({ _tag: "RolloutStep", step: testStep(3, 0, "model", { ...call, tokens: 90 }) })
    live.onEvent({ _tag: "ModelCallFinished", key, tokens: 100, costUsd: 0.001 })
    now = 3_000
    live.onEvent({ _tag: "RolloutStep", step: testStep(3, 1, "command", { command: "ls", exit_code: 0 }) })
    live.onEvent({ _tag: "RolloutStep", step: testStep(3, 2, "model", { text: "I will read it\nnext" }) })
    live.onEvent({ _tag: "ModelCallFinished", key, tokens: 50, costUsd: 0.0005 })
    // A step with the agent's own clock: its time left wins over the run's timeout.
    live.onEvent({
      _tag: "RolloutStep",
      step: testStep(3, 3, "command", { command: "cat a" }),
      agentTimeLeftMs: 20_000,
    })
    now = 4_000
    const [running] = live.view().inflight
    expect(running).toEqual({
      seed: 3,
      attempt: 0,
      state: "running",
      since_ms: 4_000,
      turns: 2,
      last_step: { kind: "command", summary: "$ cat a", ago_ms: 1_000 },
      tokens: 150,
      cost_usd: 0.0015,
      time_left_ms: 19_000,
    })
    expect(live.view()).toMatchObject({ tokens: 150, cost_usd: 0.0015 })

    // A call with usage but no price: the cost so far is unknown, not lower.
    live.onEvent({ _tag: "ModelCallFinished", key, tokens: 10, costUsd: null })
    expect(live.view().inflight[0]).toMatchObject({ tokens: 160, cost_usd: null })

    live.onEvent({
      _tag: "RolloutRetried",
      key,
      retry: 1,
      errorKind: "sandbox",
      error: "the container died",
      delayMs: 500,
    })
    expect(live.view().inflight[0]).not.toHaveProperty("time_left_ms")
    now = 4_500
    live.onEvent({ _tag: "RolloutStarted", key, retry: 1, timeoutMs: 60_000 })
    // The new try has no turns nor steps yet; what the failed try spent still counts.
    expect(live.view().inflight[0]).toEqual({
      seed: 3,
      attempt: 0,
      state: "running",
      since_ms: 0,
      retry: 1,
      turns: 0,
      tokens: 160,
      cost_usd: null,
      time_left_ms: 60_000,
    })
    // A late step of the failed try changes nothing.
    live.onEvent({ _tag: "RolloutStep", step: testStep(3, 4, "note", { text: "late" }) })
    expect(live.view().inflight[0]).not.toHaveProperty("last_step")
  })

  it("counts model steps' tokens where no call is forwarded (a job server's run), and ignores calls after the finish", () => {
    const live = new LiveRunState(() => 0)
    const key = { seed: 1, attempt: 0 }
    live.onEvent({ _tag: "RunStarted", runId: "r", runDir: null, planned: 2, alreadyDone: 0 })
    // No RolloutStarted seen (a view that began following mid-run): the step itself says the rollout is in flight.
    live.onEvent({ _tag: "RolloutStep", step: testStep(1, 0, "model", { text: "hi", tokens: 30 }) })
    live.onEvent({ _tag: "RolloutStep", step: testStep(1, 1, "tool", { text: "read_file", output: "abc\ndef" }) })
    expect(live.view().inflight).toEqual([
      {
        seed: 1,
        attempt: 0,
        state: "running",
        since_ms: 0,
        turns: 1,
        last_step: { kind: "tool", summary: "read_file: abc", ago_ms: 0 },
        tokens: 30,
        cost_usd: null,
      },
    ])
    live.onEvent({
      _tag: "RolloutFinished",
      result: result({ seed: 1, score: 1, tokens: 30, cost_usd: 0.01 }),
      progress: progress(1),
    })
    live.onEvent({ _tag: "ModelCallFinished", key, tokens: 30, costUsd: 0.01 })
    expect(live.view()).toMatchObject({ inflight: [], tokens: 30, cost_usd: 0.01 })
  })

  it("drops a rollout that left without a result, and everything once the run is known to have ended", () => {
    const live = new LiveRunState(() => 0)
    let changes = 0
    live.watch(() => changes++)
    live.onEvent({ _tag: "RolloutStarted", key: { seed: 1, attempt: 0 }, retry: 0 })
    live.onEvent({ _tag: "RolloutStarted", key: { seed: 2, attempt: 0 }, retry: 0 })
    live.onEvent({ _tag: "RolloutLeft", key: { seed: 1, attempt: 0 } })
    expect(live.view().inflight.map((f) => f.seed)).toEqual([2])
    live.end()
    expect(live.view().inflight).toEqual([])
    expect(live.finished).toBe(true)
    expect(changes).toBe(4)
  })

  it("summarises a step for another process in under 2 KB, with the same one-line summary", () => {
    const long = "x".repeat(10_000)
    const steps = [
      testStep(1, 0, "model", {
        text: `${long}\nmore`,
        tool_calls: Array.from({ length: 500 }, (_, i) => ({ id: `c${i}`, name: "run", arguments: `${long}\n{}` })),
      }),
      testStep(1, 1, "model", {
        tool_calls: Array.from({ length: 500 }, (_, i) => ({ id: `call_${i}`, name: "ls", arguments: "{}" })),
      }),
      testStep(1, 1, "command", { command: `make ${long}`, exit_code: 2, stdout: long, stderr: long }),
      testStep(1, 2, "tool", { text: "read_file", output: `${long}\nsecond` }),
      testStep(1, 3, "note", { text: "set up\nthe sandbox" }),
    ]
    for (const step of steps) {
      const summarised = summarisedStep(step)
      expect(stepSummary(summarised)).toBe(stepSummary(step))
      expect(JSON.stringify(summarised).length).toBeLessThan(2_000)
      expect(summarised).toMatchObject({ seed: 1, kind: step.kind, index: step.index })
    }
    expect(summarisedStep(steps[2]!)).not.toHaveProperty("stdout")
  })
})
