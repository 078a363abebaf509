import type { ModelCall, RolloutStep } from "@proctor/core"

/** One entry of a rollout's timeline: a step it stored, or a model call the interceptor saw. */
export type TimelineEntry =
  | { readonly type: "step"; readonly step: RolloutStep }
  | {
      readonly type: "call"
      readonly call: ModelCall
      readonly number: number
      /** Since the start of the try it was made in, where the steps tell when that was. */
      readonly elapsed_ms: number | null
    }

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
  // When each try started: a step's time less its time since the try's start.
  const tryStarts = ordered
    .filter((step, i) => i === 0 || ordered[i - 1]!.retry !== step.retry)
    .map((step) => timeOf(step.at) - step.elapsed_ms)
  const callEntry = ({ call, number, at }: (typeof pending)[number]): TimelineEntry => {
    const start = tryStarts.filter((ms) => ms <= at).pop()
    return { type: "call", call, number, elapsed_ms: start === undefined ? null : at - start }
  }
  const entries: Array<TimelineEntry> = []
  let next = 0
  for (const step of ordered) {
    const at = timeOf(step.at)
    while (next < pending.length && pending[next]!.at <= at) entries.push(callEntry(pending[next++]!))
    entries.push({ type: "step", step })
  }
  for (const call of pending.slice(next)) entries.push(callEntry(call))
  return entries
}
