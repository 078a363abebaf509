import { LiveRunState, type LiveRunView, type RunReader, type RunSummary } from "@proctor/core"
import { progressOfSummary } from "@proctor/report"
import { Effect } from "effect"

/** Rollouts of a followed directory replayed per request: a run's concurrency, as a rule; a killed run's many, cut. */
const MAX_REPLAYED = 500

/**
 * What a run directory another process is writing has in flight, from its files alone: every rollout with steps and
 * no result yet, its steps replayed through the live fold on their own clock (so "for" and "last step … ago" are
 * true), progress and spend from the running summary. No time left: the deadline is the running process's. Its model calls are written when a try ends, so a rollout's
 * tokens so far are its model turns'.
 */
export const inFlightOfDirectory = (reader: RunReader, summary: RunSummary) =>
  Effect.gen(function* () {
    const now = Date.now()
    let clock = now
    const fold = new LiveRunState(() => clock)
    for (const key of reader.unfinishedKeys().slice(0, MAX_REPLAYED)) {
      let retry = -1
      for (const step of yield* reader.steps(key.seed, key.attempt)) {
        const parsed = Date.parse(step.at)
        const at = Number.isFinite(parsed) ? Math.min(parsed, now) : now
        // Each try began its first step's time since the try's start before it.
        if (step.retry !== retry) {
          retry = step.retry
          clock = at - step.elapsed_ms
          fold.onEvent({ _tag: "RolloutStarted", key, retry })
        }
        clock = at
        fold.onEvent({ _tag: "RolloutStep", step })
      }
    }
    clock = now
    const progress = progressOfSummary(summary)
    const { inflight } = fold.view()
    return {
      progress: { ...progress, inFlight: inflight.length },
      tokens: summary.tokens.total ?? 0,
      cost_usd: summary.cost_usd.total ?? 0,
      inflight,
    } satisfies LiveRunView
  })
