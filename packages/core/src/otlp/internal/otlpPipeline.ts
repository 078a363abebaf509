import { connect } from "node:net"
import type { SpanContext } from "@opentelemetry/api"
import { ExportResultCode } from "@opentelemetry/core"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto"
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources"
import { BatchSpanProcessor, RandomIdGenerator, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace"
import type { RunEvent } from "../../events/RunEvents.js"
import type { ModelCall } from "../../result/ModelCall.js"
import type { OtlpExportReport, OtlpSettings } from "../OtlpExport.js"
import { modelCallSpan, rolloutSpan, sampledContext, stepSpan } from "./runSpans.js"

const PROBE_TIMEOUT_MS = 1000
/** How long a probe's answer stands before the next export asks again. */
const PROBE_VALID_MS = 5000

/**
 * Whether the collector takes connections: a TCP connect to its host and port, the socket and timer unref'd so
 * a probe never keeps the process alive. Refused answers in milliseconds.
 */
const probe = (target: URL): Promise<boolean> =>
  new Promise((resolve) => {
    const port = Number(target.port || (target.protocol === "https:" ? 443 : 80))
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ""), port })
    const settle = (reachable: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(reachable)
    }
    const timer = setTimeout(() => settle(false), PROBE_TIMEOUT_MS).unref()
    socket.unref()
    socket.once("connect", () => settle(true))
    socket.once("error", () => settle(false))
  })

export interface OtlpPipeline {
  readonly onModelCall: (call: ModelCall) => void
  readonly onEvent: (event: RunEvent) => void
  readonly finish: (graceMs: number) => Promise<OtlpExportReport>
}

/**
 * The OpenTelemetry SDK's batch processor (a bounded queue of 2,048 spans, exported every 5 s; spans past it are
 * dropped, never waited for) in front of its OTLP/HTTP protobuf exporter. Loaded only when export is on.
 */
export const startOtlpPipeline = (settings: OtlpSettings): OtlpPipeline => {
  // Whether the collector takes connections, asked before an export is handed to the SDK's exporter: an export
  // to a collector that is down would retry for the whole export timeout on timers that keep the process alive.
  let reach: "unknown" | "reachable" | "unreachable" = "unknown"
  let probedAt = 0
  let onReachChange: (() => void) | undefined
  const setReach = (next: typeof reach) => {
    reach = next
    onReachChange?.()
  }
  const target = new URL(settings.describe)
  const reachable = async (): Promise<boolean> => {
    if (reach === "unknown" || Date.now() - probedAt > PROBE_VALID_MS) {
      probedAt = Date.now()
      setReach((await probe(target)) ? "reachable" : "unreachable")
    }
    return reach === "reachable"
  }
  const exporter = new OTLPTraceExporter(settings.url === undefined ? {} : { url: settings.url })
  let submitted = 0
  let sent = 0
  let lastError: string | null = null
  // Counts what reached the collector: everything else submitted was dropped (queue full, collector down).
  const counting: SpanExporter = {
    export: (spans, done) => {
      reachable().then((up) => {
        if (!up) {
          lastError = `cannot connect to ${target.host}`
          return done({ code: ExportResultCode.FAILED, error: new Error(lastError) })
        }
        exporter.export(spans, (result) => {
          if (result.code === ExportResultCode.SUCCESS) sent += spans.length
          else {
            lastError = result.error?.message ?? "export failed"
            probedAt = 0
          }
          done(result)
        })
      })
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  }
  const processor = new BatchSpanProcessor({ exporter: counting })
  const resource = resourceFromAttributes({ "service.name": "proctor" }).merge(
    detectResources({ detectors: [envDetector] }),
  )
  const ids = new RandomIdGenerator()
  const newContext = (traceId: string) => sampledContext(traceId, ids.generateSpanId())
  // Each rollout is a trace of its own, its span the root; calls and steps may end before it and find it here.
  const rollouts = new Map<string, SpanContext>()
  const rolloutContext = (rolloutId: string): SpanContext => {
    const known = rollouts.get(rolloutId)
    if (known !== undefined) return known
    const context = newContext(ids.generateTraceId())
    rollouts.set(rolloutId, context)
    return context
  }
  const submit = (span: ReadableSpan | null) => {
    if (span === null) return
    submitted++
    processor.onEnd(span)
  }
  let runId = ""

  /**
   * Waits for the queued spans to reach the collector: as long as the export timeout while the collector takes
   * connections, `graceMs` while that is not known yet, not at all once it refused.
   */
  const flushWithin = async (graceMs: number): Promise<OtlpExportReport> => {
    const flushed = processor.forceFlush().then(
      () => true,
      () => false,
    )
    const started = Date.now()
    let done = false
    for (;;) {
      const budget = reach === "reachable" ? settings.exportTimeoutMs : reach === "unreachable" ? 0 : graceMs
      const left = budget - (Date.now() - started)
      if (left <= 0) break
      let timer: NodeJS.Timeout | undefined
      const outcome = await Promise.race([
        flushed,
        new Promise<"late" | "changed">((resolve) => {
          timer = setTimeout(() => resolve("late"), left)
          onReachChange = () => resolve("changed")
        }),
      ])
      clearTimeout(timer)
      onReachChange = undefined
      if (outcome === "late") break
      if (outcome !== "changed") {
        done = outcome
        break
      }
    }
    // Not awaited: an export still retrying against a dead collector must not hold the run's end.
    processor.shutdown().catch(() => undefined)
    return {
      endpoint: settings.describe,
      submitted,
      sent,
      dropped: submitted - sent,
      error:
        done && submitted === sent
          ? null
          : (lastError ?? (reach === "unreachable" ? "the collector refused the connection" : null)),
    }
  }
  let finished: Promise<OtlpExportReport> | undefined

  return {
    onModelCall: (call) => {
      const parent = rolloutContext(call.rollout_id)
      submit(modelCallSpan(resource, call, newContext(parent.traceId), parent))
    },
    onEvent: (event) => {
      switch (event._tag) {
        case "RunStarted":
          runId = event.runId
          return
        case "RolloutStep": {
          const parent = rolloutContext(event.step.rollout_id)
          return submit(stepSpan(resource, event.step, newContext(parent.traceId), parent))
        }
        case "RolloutFinished": {
          const rolloutId = event.result.run_id ?? `${runId}:${event.result.seed}:${event.result.attempt}`
          submit(rolloutSpan(resource, runId, event.result, rolloutContext(rolloutId)))
          rollouts.delete(rolloutId)
          return
        }
        default:
          return
      }
    },
    finish: (graceMs) => {
      finished ??= flushWithin(graceMs)
      return finished
    },
  }
}
