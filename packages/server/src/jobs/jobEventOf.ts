import { type EvalResult, type RolloutStep, type RunEvent, stepSummary } from "@proctor/core"
import type { JobEvent } from "./JobEvent.js"

/** Without a trace: rows on the event stream stay small (traces are downloaded as a zip). */
export const withoutTrace = (result: EvalResult) => {
  const { trace: _trace, ...row } = result
  return row
}

/** What a job's subscribers hear when this process stops running it before it ended. */
export const interruptedEvent = (jobId: string): JobEvent => ({
  type: "job.interrupted",
  job_id: jobId,
  message: "the server is shutting down; the job resumes when it starts again",
  data: { status: "running" },
})

/**
 * An agent rollout's step as the event stream tells it: which rollout, try and step, its kind and one line (the
 * live view's `last_step`), the agent's time left; its commands' output stays in the stored timeline.
 */
export const stepEventOf = (jobId: string, step: RolloutStep, agentTimeLeftMs: number | undefined): JobEvent => {
  const summary = stepSummary(step)
  const data = {
    seed: step.seed,
    attempt: step.attempt,
    retry: step.retry,
    index: step.index,
    at: step.at,
    elapsed_ms: step.elapsed_ms,
    kind: step.kind,
    summary,
    ...(step.tokens === undefined ? {} : { tokens: step.tokens }),
  }
  return {
    type: "rollout.step",
    job_id: jobId,
    message: `seed ${step.seed} attempt ${step.attempt}: ${summary}`,
    data: agentTimeLeftMs === undefined ? data : { ...data, agent_time_left_ms: agentTimeLeftMs },
  }
}

/** A run event of core's runner in the vocabulary of synth-ai's stream client; null for those it does not hear. */
export const jobEventOf = (jobId: string, event: RunEvent): JobEvent | null => {
  switch (event._tag) {
    case "RunStarted":
      return {
        type: "job.started",
        job_id: jobId,
        message: `running ${event.planned - event.alreadyDone} of ${event.planned} rollouts`,
        data: { total: event.planned, already_done: event.alreadyDone, completed: event.alreadyDone },
      }
    case "RolloutFinished": {
      const p = event.progress
      return {
        type: "seed.completed",
        job_id: jobId,
        message: `seed ${event.result.seed} ${event.result.status}`,
        data: {
          result: withoutTrace(event.result),
          completed: p.done,
          total: p.planned,
          ok: p.ok,
          errored: p.errored,
          in_flight: p.inFlight,
          mean_score: p.scored > 0 ? p.scoreSum / p.scored : null,
        },
      }
    }
    case "RolloutRetried":
      return {
        type: "seed.retried",
        job_id: jobId,
        message: `seed ${event.key.seed} retry ${event.retry}: ${event.error}`,
        data: {
          seed: event.key.seed,
          attempt: event.key.attempt,
          retry: event.retry,
          error_kind: event.errorKind,
          error: event.error,
          delay_ms: event.delayMs,
        },
      }
    case "StopRequested":
      return {
        type: "job.stopping",
        job_id: jobId,
        message: `stopping; ${event.inFlight} rollouts in flight`,
        data: { in_flight: event.inFlight },
      }
    case "RolloutStep":
      return stepEventOf(jobId, event.step, event.agentTimeLeftMs)
    case "RolloutStarted":
    case "ModelCallFinished":
    case "RolloutLeft":
    case "RunFinished":
      return null
  }
}
