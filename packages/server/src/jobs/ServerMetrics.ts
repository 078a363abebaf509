import type { EvalResult, ModelCall } from "@proctor/core"
import { Context, Layer } from "effect"
import { escapeLabel, metricHeader } from "../ops/prometheusText.js"
import { jobStatuses } from "./JobStatus.js"

/** Upper bounds (seconds) of the rollout latency histogram: task-app rollouts run from milliseconds to minutes. */
export const LATENCY_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600] as const

export interface ServerMetricsService {
  readonly rolloutFinished: (result: EvalResult) => void
  readonly rolloutRetried: () => void
  readonly modelCalls: (calls: ReadonlyArray<ModelCall>) => void
  /** Prometheus text exposition; job counts come from the database at scrape time, so they survive restarts. */
  readonly render: (jobsByStatus: ReadonlyMap<string, number>) => string
}

/**
 * Plain counters updated on the hot path with no allocation: a rollout costs a few additions. Counters are per
 * process (Prometheus handles resets); job gauges are read from the store.
 */
export const makeServerMetrics = (): ServerMetricsService => {
  const rollouts = { ok: 0, error: 0 }
  const errorsByKind = new Map<string, number>()
  let retries = 0
  let calls = 0
  let callErrors = 0
  let tokens = 0
  let costUsd = 0
  const buckets = new Float64Array(LATENCY_BUCKETS_S.length)
  let latencyCount = 0
  let latencySum = 0

  const observeLatency = (seconds: number) => {
    latencyCount++
    latencySum += seconds
    for (let i = 0; i < LATENCY_BUCKETS_S.length; i++) if (seconds <= LATENCY_BUCKETS_S[i]!) buckets[i]!++
  }

  return {
    rolloutFinished: (result) => {
      if (result.status === "ok") rollouts.ok++
      else {
        rollouts.error++
        const kind = result.error_kind ?? "unknown"
        errorsByKind.set(kind, (errorsByKind.get(kind) ?? 0) + 1)
      }
      if (result.tokens !== null && Number.isFinite(result.tokens)) tokens += result.tokens
      if (result.cost_usd !== null && Number.isFinite(result.cost_usd)) costUsd += result.cost_usd
      if (result.latency_ms !== null && Number.isFinite(result.latency_ms)) observeLatency(result.latency_ms / 1000)
    },
    rolloutRetried: () => {
      retries++
    },
    modelCalls: (recorded) => {
      for (const call of recorded) {
        calls++
        if (call.outcome !== "ok") callErrors++
      }
    },
    render: (jobsByStatus) => {
      const lines: Array<string> = []
      const metric = (name: string, type: "counter" | "gauge" | "histogram", help: string) =>
        lines.push(...metricHeader(name, type, help))
      metric("proctor_jobs", "gauge", "Eval jobs by status.")
      for (const status of jobStatuses) lines.push(`proctor_jobs{status="${status}"} ${jobsByStatus.get(status) ?? 0}`)
      metric("proctor_rollouts_total", "counter", "Rollouts finished by this process, by status.")
      lines.push(
        `proctor_rollouts_total{status="ok"} ${rollouts.ok}`,
        `proctor_rollouts_total{status="error"} ${rollouts.error}`,
      )
      metric("proctor_rollout_errors_total", "counter", "Errored rollouts by error kind.")
      for (const [kind, n] of errorsByKind) lines.push(`proctor_rollout_errors_total{kind="${escapeLabel(kind)}"} ${n}`)
      metric("proctor_rollout_retries_total", "counter", "Rollout retries after system errors.")
      lines.push(`proctor_rollout_retries_total ${retries}`)
      metric("proctor_model_calls_total", "counter", "Model calls seen by the inference interceptor.")
      lines.push(`proctor_model_calls_total ${calls}`)
      metric("proctor_model_call_errors_total", "counter", "Model calls that failed or were cancelled.")
      lines.push(`proctor_model_call_errors_total ${callErrors}`)
      metric("proctor_tokens_total", "counter", "Tokens reported by finished rollouts.")
      lines.push(`proctor_tokens_total ${tokens}`)
      metric("proctor_cost_usd_total", "counter", "Cost in USD reported by finished rollouts.")
      lines.push(`proctor_cost_usd_total ${costUsd}`)
      metric("proctor_rollout_latency_seconds", "histogram", "Latency of finished rollouts.")
      LATENCY_BUCKETS_S.forEach((le, i) => {
        lines.push(`proctor_rollout_latency_seconds_bucket{le="${le}"} ${buckets[i]}`)
      })
      lines.push(
        `proctor_rollout_latency_seconds_bucket{le="+Inf"} ${latencyCount}`,
        `proctor_rollout_latency_seconds_sum ${latencySum}`,
        `proctor_rollout_latency_seconds_count ${latencyCount}`,
      )
      return `${lines.join("\n")}\n`
    },
  }
}

export class ServerMetrics extends Context.Tag("@proctor/server/ServerMetrics")<ServerMetrics, ServerMetricsService>() {
  static readonly make = makeServerMetrics
  static readonly layer: Layer.Layer<ServerMetrics> = Layer.sync(ServerMetrics, makeServerMetrics)
}
