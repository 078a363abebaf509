import type { ModelCall, RolloutStep } from "@proctor/core"

/** One entry of a rollout's timeline: a step it stored, or a model call the interceptor saw. */
export type TimelineEntry =
  | { readonly type: "step"; readonly step: RolloutStep }
  | { readonly type: "call"; readonly call: ModelCall; readonly number: number }

const timeOf = (at: string): number => {
  const ms = Date.parse(at)
  return Number.isFinite(ms) ? ms : Number.POSITIVE_INFINITY
}

/**
 * A rollout's steps and model calls in one order: tries in order, each try's steps in their own order, every call
 * placed before the first step stored after it started (a model step is written once its call has answered).
 * Calls are numbered as the transcript numbers them.
 */
export const timelineOf = (
  steps: ReadonlyArray<RolloutStep>,
  calls: ReadonlyArray<ModelCall>,
): Array<TimelineEntry> => {
  const ordered = steps.slice().sort((a, b) => a.retry - b.retry || a.index - b.index)
  const pending = calls.map((call, index) => ({ call, number: index + 1, at: timeOf(call.started_at) }))
  pending.sort((a, b) => a.at - b.at || a.number - b.number)
  const entries: Array<TimelineEntry> = []
  let next = 0
  for (const step of ordered) {
    const at = timeOf(step.at)
    while (next < pending.length && pending[next]!.at <= at) {
      const { call, number } = pending[next++]!
      entries.push({ type: "call", call, number })
    }
    entries.push({ type: "step", step })
  }
  for (const { call, number } of pending.slice(next)) entries.push({ type: "call", call, number })
  return entries
}
