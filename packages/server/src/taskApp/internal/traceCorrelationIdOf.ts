import { correlationIdOf, type ReceivedRolloutRequest } from "@proctor/core"

const nonEmpty = (u: unknown): string | undefined => (typeof u === "string" && u.trim() !== "" ? u.trim() : undefined)

/**
 * The id to echo, looked up where synth-ai's callers of each generation put it: the request's own field,
 * then `policy.config.trace_correlation_id` (or its legacy name `trace`), then the inference URL; proctor
 * always sends the first, and `run_id` is the last resort so the response never lacks one.
 */
export const traceCorrelationIdOf = (request: ReceivedRolloutRequest): string => {
  const config = request.policy.config ?? {}
  const inferenceUrl = nonEmpty(config.inference_url)
  return (
    nonEmpty(request.trace_correlation_id) ??
    nonEmpty(config.trace_correlation_id) ??
    nonEmpty(config.trace) ??
    (inferenceUrl === undefined ? undefined : (correlationIdOf(inferenceUrl) ?? undefined)) ??
    request.run_id
  )
}
