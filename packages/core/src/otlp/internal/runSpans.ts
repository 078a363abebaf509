import type { EvalResult } from "../../result/EvalResult.js"
import type { ModelCall } from "../../result/ModelCall.js"
import type { RolloutStep } from "../../result/RolloutStep.js"

/**
 * Spans built from a run's records after the fact (a model call once recorded, a rollout once finished), so the
 * hot path holds no span objects and the export can never hold it up. Attribute names follow the OpenTelemetry
 * GenAI semantic conventions where one exists; proctor's own carry the `proctor.` prefix.
 */

const COMMAND_TEXT_LIMIT = 1024

/** `gen_ai.provider.name`'s well-known values for the labels proctor records; others pass as written. */
const GEN_AI_PROVIDERS: Readonly<Record<string, string>> = {
  openai: "openai",
  azure: "azure.ai.openai",
  azure_openai: "azure.ai.openai",
  anthropic: "anthropic",
  google: "gcp.gemini",
  gemini: "gcp.gemini",
  groq: "groq",
  bedrock: "aws.bedrock",
  mistral: "mistral_ai",
  deepseek: "deepseek",
  xai: "x_ai",
}

const at = (iso: string): number => {
  const ms = Date.parse(iso)
  return Number.isFinite(ms) ? ms : Date.now()
}

type AttributeValue = string | number | boolean | Array<string>

const defined = (attributes: Record<string, AttributeValue | null | undefined>) =>
  Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== null && v !== undefined)) as Record<
    string,
    AttributeValue
  >

/** Where a span sits in its trace: ids in lower-case hex, as OpenTelemetry writes them. */
export interface SpanIds {
  readonly traceId: string
  readonly spanId: string
}

/** A span as plain data, turned into the SDK's span only once there is a collector to send it to. */
export interface RunSpan {
  readonly name: string
  readonly kind: "internal" | "client"
  readonly ids: SpanIds
  readonly parent: SpanIds | undefined
  readonly startMs: number
  readonly endMs: number
  readonly attributes: Readonly<Record<string, AttributeValue>>
  /** The error status's message; null for a span that did not fail. */
  readonly error: string | null
}

const failure = (message: string | null): string | null =>
  message === null ? null : message.slice(0, COMMAND_TEXT_LIMIT)

const temperatureOf = (request: unknown): number | undefined => {
  if (typeof request !== "object" || request === null) return undefined
  const value = (request as { readonly temperature?: unknown }).temperature
  return typeof value === "number" ? value : undefined
}

/**
 * A model call as a GenAI client span: `chat {model}`, tokens as `gen_ai.usage.*`, cost as `proctor.cost_usd`. A
 * judge's call (a model grader's) says so, `proctor.role = "judge"` and its grader, under the rollout it graded.
 */
export const modelCallSpan = (call: ModelCall, ids: SpanIds, parent: SpanIds): RunSpan => {
  const provider = call.provider === null ? undefined : (GEN_AI_PROVIDERS[call.provider] ?? call.provider)
  return {
    name: call.model === null ? "chat" : `chat ${call.model}`,
    kind: "client",
    ids,
    parent,
    startMs: at(call.started_at),
    endMs: at(call.completed_at),
    error: call.outcome === "ok" ? null : failure(call.error ?? call.outcome),
    attributes: defined({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": provider,
      "gen_ai.request.model": call.model,
      "gen_ai.request.temperature": temperatureOf(call.request),
      "gen_ai.usage.input_tokens": call.usage?.prompt_tokens,
      "gen_ai.usage.output_tokens": call.usage?.completion_tokens,
      "gen_ai.usage.cache_read.input_tokens": call.usage?.cached_tokens,
      "gen_ai.response.finish_reasons": call.finish_reason === null ? undefined : [call.finish_reason],
      "http.response.status_code": call.status,
      "error.type": call.outcome === "ok" ? undefined : call.status === null ? call.outcome : String(call.status),
      "proctor.cost_usd": call.cost_usd,
      "proctor.call_id": call.call_id,
      "proctor.api": call.api,
      "proctor.stream": call.stream,
      "proctor.ttft_ms": call.ttft_ms,
      "proctor.role": call.role,
      "proctor.grader": call.grader,
    }),
  }
}

/** A finished rollout (all its tries) as the root span of its trace. */
export const rolloutSpan = (runId: string, result: EvalResult, ids: SpanIds): RunSpan => ({
  name: "rollout",
  kind: "internal",
  ids,
  parent: undefined,
  startMs: at(result.started_at),
  endMs: at(result.finished_at),
  error: result.status === "ok" ? null : failure(result.error ?? result.status),
  attributes: defined({
    "proctor.run_id": runId,
    "proctor.rollout_id": result.run_id,
    "proctor.seed": result.seed,
    "proctor.attempt": result.attempt,
    "proctor.status": result.status,
    "proctor.score": result.score,
    "proctor.error_kind": result.error_kind,
    "proctor.retries": result.retries,
    "proctor.tokens": result.tokens,
    "proctor.cost_usd": result.cost_usd,
  }),
})

/** A sandbox command or a tool call of an agent's rollout; model turns are the model-call spans already. */
export const stepSpan = (step: RolloutStep, ids: SpanIds, parent: SpanIds): RunSpan | null => {
  if (step.kind !== "command" && step.kind !== "tool") return null
  const startMs = at(step.at)
  const endMs = startMs + (step.duration_ms ?? 0)
  const common = { "proctor.step_index": step.index, "proctor.retry": step.retry }
  if (step.kind === "tool") {
    return {
      name: step.text === undefined ? "execute_tool" : `execute_tool ${step.text}`,
      kind: "internal",
      ids,
      parent,
      startMs,
      endMs,
      error: null,
      attributes: defined({
        ...common,
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": step.text,
        "gen_ai.tool.call.id": step.tool_call_id,
      }),
    }
  }
  const exitCode = step.exit_code ?? null
  return {
    name: "sandbox command",
    kind: "internal",
    ids,
    parent,
    startMs,
    endMs,
    error: exitCode === null || exitCode === 0 ? null : `exit code ${exitCode}`,
    attributes: defined({
      ...common,
      "proctor.command": step.command?.slice(0, COMMAND_TEXT_LIMIT),
      "process.exit.code": exitCode,
    }),
  }
}
