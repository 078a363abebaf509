import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { clusterOf, outcomeOf, reportOf } from "../src/taskApp/RolloutOutcome.js"
import { decodeRolloutResponse } from "../src/taskApp/TaskAppWire.js"

const decode = (json: unknown) => {
  const decoded = decodeRolloutResponse(json)
  if (Either.isLeft(decoded)) throw new Error(String(decoded.left))
  return decoded.right
}

describe("rollout responses of every generation", () => {
  it("legacy: metrics with mean_return and outcome_score", () => {
    const r = decode({
      run_id: "r",
      trajectories: [{ env_id: "e", policy_id: "p", steps: [{ obs: {}, tool_calls: [], reward: 1, done: true }] }],
      metrics: { episode_returns: [1], mean_return: 1, num_steps: 1, num_episodes: 1, outcome_score: 0.5 },
      aborted: false,
    })
    // reward_mean was not sent: reported as such, not filled in from mean_return.
    expect(outcomeOf(r)).toMatchObject({ score: 0.5, reward_mean: null, outcome_score: 0.5 })
  })

  it("reports outcome_score, reward_mean and events_score as sent: null stays null", () => {
    const r = decode({ metrics: { outcome_reward: 0.7, outcome_score: null, reward_mean: null, mean_return: 0.7 } })
    expect(outcomeOf(r)).toMatchObject({ score: 0.7, outcome_score: null, reward_mean: null, events_score: null })
    const sent = decode({ metrics: { outcome_reward: 0.7, outcome_score: 0.2, reward_mean: 0.3, events_score: 0.4 } })
    expect(outcomeOf(sent)).toMatchObject({ score: 0.7, outcome_score: 0.2, reward_mean: 0.3, events_score: 0.4 })
  })

  it("keeps what the task app said: details, the last final, the last step's info", () => {
    const r = decode({
      metrics: { outcome_reward: 0, details: { expected: 4, got: 5 } },
      trajectories: [
        { final: { answer: 1 }, steps: [{ info: { turn: 0 } }] },
        { final: { answer: 5 }, steps: [{ info: { turn: 0 } }, { info: { turn: 1, finish_reason: "stop" } }, {}] },
      ],
    })
    expect(reportOf(r)).toEqual({
      details: { expected: 4, got: 5 },
      final: { answer: 5 },
      info: { turn: 1, finish_reason: "stop" },
    })
    expect(reportOf(decode({ reward_info: { details: { why: "alias" } } })).details).toEqual({ why: "alias" })
    expect(reportOf(decode({ metrics: { outcome_reward: 1 } }))).toEqual({
      details: undefined,
      final: undefined,
      info: undefined,
    })
  })

  it("new: reward_info alias with outcome_objectives.reward first in precedence", () => {
    const r = decode({
      run_id: "r",
      trace_correlation_id: "r",
      reward_info: { outcome_reward: 0.2, outcome_objectives: { reward: 0.9 }, reward_mean: 0.1, event_rewards: [] },
    })
    expect(outcomeOf(r).score).toBe(0.9)
  })

  it("precedence falls through outcome_reward, outcome_score, reward_mean, mean_return", () => {
    expect(outcomeOf(decode({ metrics: { outcome_reward: 0.3, outcome_score: 0.4 } })).score).toBe(0.3)
    expect(outcomeOf(decode({ metrics: { outcome_score: 0.4, reward_mean: 0.6 } })).score).toBe(0.4)
    expect(outcomeOf(decode({ metrics: { reward_mean: 0.6, mean_return: 0.7 } })).score).toBe(0.6)
    expect(outcomeOf(decode({ metrics: { mean_return: 0.7 } })).score).toBe(0.7)
    expect(outcomeOf(decode({ metrics: {} })).score).toBeNull()
    expect(outcomeOf(decode({})).score).toBeNull()
  })

  it("reads verifier_score, tokens and cost_usd from metrics.details", () => {
    const r = decode({ metrics: { outcome_score: 1, details: { verifier_score: 0.8, tokens: 120, cost_usd: 0.002 } } })
    expect(outcomeOf(r)).toMatchObject({ verifier_score: 0.8, tokens: 120, cost_usd: 0.002 })
  })

  it("sums tokens from trace.usage, then the event history, then trajectory steps", () => {
    expect(outcomeOf(decode({ trace: { usage: { total_tokens: 42 } } })).tokens).toBe(42)
    const events = decode({
      trace: { event_history: [{ usage: { total_tokens: 10 } }, { response: { usage: { total_tokens: 5 } } }, {}] },
    })
    expect(outcomeOf(events).tokens).toBe(15)
    const steps = decode({
      trajectories: [{ steps: [{ info: { tokens: 7 } }, { info: { usage: { total_tokens: 3 } } }, { info: {} }] }],
    })
    expect(outcomeOf(steps).tokens).toBe(10)
    expect(outcomeOf(decode({ metrics: { outcome_score: 1 } })).tokens).toBeNull()
  })

  it("keeps unknown keys and tolerates nulls", () => {
    const r = decode({ run_id: "r", metrics: null, reward_info: { reward_mean: 1 }, extra: { x: 1 }, trace: null })
    expect((r as Record<string, unknown>).extra).toEqual({ x: 1 })
    expect(outcomeOf(r).score).toBe(1)
  })

  it("rejects valid JSON of the wrong shape", () => {
    expect(Either.isLeft(decodeRolloutResponse({ metrics: { outcome_score: "high" } }))).toBe(true)
    expect(Either.isLeft(decodeRolloutResponse([1, 2]))).toBe(true)
  })
})

describe("clusterOf", () => {
  it("reads the cluster_by key from metrics.details, numbers as strings; nothing without a key or a value", () => {
    const r = decode({
      run_id: "r",
      metrics: { outcome_reward: 1, details: { passage: "p-17", topic_id: 4, empty: "", nested: { a: 1 } } },
    })
    expect(clusterOf(r, "passage")).toBe("p-17")
    expect(clusterOf(r, "topic_id")).toBe("4")
    expect([clusterOf(r, "empty"), clusterOf(r, "nested"), clusterOf(r, "absent"), clusterOf(r, undefined)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    expect(clusterOf(decode({ run_id: "r", reward_info: { details: { passage: "q" } } }), "passage")).toBe("q")
  })
})
