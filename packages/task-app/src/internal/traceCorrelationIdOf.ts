import { randomBytes } from "node:crypto"
import { correlationIdOf, type RolloutRequestSchema } from "@proctor/core"

const nonEmpty = (u: unknown): string | undefined => (typeof u === "string" && u.trim() !== "" ? u.trim() : undefined)

/**
 * The id to echo, looked up where synth-ai's callers of each generation put it: the request's own field,
 * then `policy.config.trace_correlation_id` (or its legacy name `trace`), then the inference URL, then
 * `run_id`; proctor always sends the first. A caller that sent none of them (synth-ai's pydantic models send
 * `"run_id": null`) gets a fresh id, so the response never lacks one.
 */
export const traceCorrelationIdOf = (request: typeof RolloutRequestSchema.Type): string => {
  const config = request.policy.config ?? {}
  const inferenceUrl = nonEmpty(config.inference_url)
  return (
    nonEmpty(request.trace_correlation_id) ??
    nonEmpty(config.trace_correlation_id) ??
    nonEmpty(config.trace) ??
    (inferenceUrl === undefined ? undefined : (correlationIdOf(inferenceUrl) ?? undefined)) ??
    nonEmpty(request.run_id) ??
    `rollout-${randomBytes(4).toString("hex")}`
  )
}
