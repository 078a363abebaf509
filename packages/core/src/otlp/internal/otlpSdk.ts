import { type SpanContext, SpanKind, SpanStatusCode, TraceFlags } from "@opentelemetry/api"
import { ExportResultCode, hrTimeDuration, millisToHrTime } from "@opentelemetry/core"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto"
import { detectResources, envDetector, type Resource, resourceFromAttributes } from "@opentelemetry/resources"
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace"
import type { OtlpSettings } from "../OtlpExport.js"
import type { RunSpan, SpanIds } from "./runSpans.js"

const SCOPE = { name: "@proctor/core" }

const sampled = (ids: SpanIds): SpanContext => ({ ...ids, traceFlags: TraceFlags.SAMPLED })

const readable = (resource: Resource, span: RunSpan): ReadableSpan => {
  const startTime = millisToHrTime(span.startMs)
  const endTime = millisToHrTime(Math.max(span.startMs, span.endMs))
  const context = sampled(span.ids)
  return {
    name: span.name,
    kind: span.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => context,
    ...(span.parent === undefined ? {} : { parentSpanContext: sampled(span.parent) }),
    startTime,
    endTime,
    duration: hrTimeDuration(startTime, endTime),
    status: span.error === null ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, message: span.error },
    attributes: span.attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  }
}

export interface SdkExport {
  readonly submit: (span: RunSpan) => void
  readonly forceFlush: () => Promise<void>
  readonly shutdown: () => Promise<void>
}

/**
 * The OpenTelemetry SDK's batch processor (a bounded queue of 2,048 spans, exported every 5 s; spans past it are
 * dropped, never waited for) in front of its OTLP/HTTP protobuf exporter. Loaded only once the collector took a
 * connection. Each export asks `reachable` first: one handed to the SDK's exporter while the collector is down
 * would retry for the whole export timeout, on timers that keep the process alive.
 */
export const startSdkExport = (
  settings: OtlpSettings,
  reachable: () => Promise<boolean>,
  outcome: { readonly sent: (count: number) => void; readonly failed: (message: string) => void },
): SdkExport => {
  const exporter = new OTLPTraceExporter(settings.url === undefined ? {} : { url: settings.url })
  const gated: SpanExporter = {
    export: (spans, done) => {
      reachable().then((up) => {
        if (!up) {
          const message = `cannot connect to ${new URL(settings.describe).host}`
          outcome.failed(message)
          return done({ code: ExportResultCode.FAILED, error: new Error(message) })
        }
        exporter.export(spans, (result) => {
          if (result.code === ExportResultCode.SUCCESS) outcome.sent(spans.length)
          else outcome.failed(result.error?.message ?? "export failed")
          done(result)
        })
      })
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  }
  const processor = new BatchSpanProcessor({ exporter: gated })
  const resource = resourceFromAttributes({ "service.name": "proctor" }).merge(
    detectResources({ detectors: [envDetector] }),
  )
  return {
    submit: (span) => processor.onEnd(readable(resource, span)),
    forceFlush: () => processor.forceFlush(),
    shutdown: () => processor.shutdown(),
  }
}
