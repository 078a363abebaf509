import { Context, Effect, Either, type Scope } from "effect"
import { ConfigError } from "../config/ConfigError.js"
import type { RunEvent } from "../events/RunEvents.js"
import type { ModelCall } from "../result/ModelCall.js"

/** Where spans go. `url` undefined: the exporter reads the standard `OTEL_EXPORTER_OTLP_*` variables itself. */
export interface OtlpSettings {
  readonly url: string | undefined
  /** The traces endpoint as a person reads it, for the closing line. */
  readonly describe: string
  /** The exporter's own deadline per export (OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT, 10 s by default). */
  readonly exportTimeoutMs: number
}

export interface OtlpExportReport {
  readonly endpoint: string
  readonly submitted: number
  readonly sent: number
  /** Spans that never reached the collector: the queue was full, the collector down or slower than the grace. */
  readonly dropped: number
  /** The last export failure, when spans were dropped. */
  readonly error: string | null
}

export interface OtlpExportService {
  /** A recorded model call becomes a span under its rollout's (the interceptor's `onCall`). */
  readonly onModelCall: (call: ModelCall) => void
  /** Rollouts (when finished) and agent steps become spans; other events are ignored. */
  readonly onEvent: (event: RunEvent) => void
  /**
   * Flushes what is queued, waiting at most 2% of the run's time (at least 100 ms, at most the export timeout),
   * then lets go: a collector that is down costs the run that much and no more, and its spans count as dropped.
   */
  readonly finish: (runElapsedMs: number) => Effect.Effect<OtlpExportReport>
}

const DEFAULT_EXPORT_TIMEOUT_MS = 10_000
const GRACE_SHARE = 0.02
const MIN_GRACE_MS = 100

const tracesUrl = (endpoint: string): string =>
  /\/v1\/traces\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, "")}/v1/traces`

const isHttpUrl = (value: string): boolean => {
  const url = URL.canParse(value) ? new URL(value) : null
  return url !== null && (url.protocol === "http:" || url.protocol === "https:")
}

const positiveMs = (raw: string | undefined): number | undefined => {
  const n = raw === undefined ? Number.NaN : Number(raw)
  return Number.isFinite(n) && n > 0 ? n : undefined
}

/**
 * Export is on when `--otlp-endpoint` is given (a base URL, as OTEL_EXPORTER_OTLP_ENDPOINT: `/v1/traces` is
 * appended) or when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT is set, unless
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Null when off. Only OTLP over HTTP with protobuf is
 * built in, so another OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL is refused rather than ignored.
 */
export const otlpSettingsOf = (
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Either.Either<OtlpSettings | null, ConfigError> => {
  const invalid = (message: string) => Either.left(new ConfigError({ reason: "InvalidValue", message }))
  const exportTimeoutMs =
    positiveMs(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) ??
    positiveMs(env.OTEL_EXPORTER_OTLP_TIMEOUT) ??
    DEFAULT_EXPORT_TIMEOUT_MS
  const notHttp = (name: string, value: string) =>
    isHttpUrl(value)
      ? undefined
      : invalid(`${name}: expected an http(s) URL such as http://localhost:4318, got ${JSON.stringify(value)}`)
  if (flag !== undefined) {
    const refused = notHttp("--otlp-endpoint", flag)
    if (refused !== undefined) return refused
    const traces = tracesUrl(flag)
    return Either.right({ url: traces, describe: traces, exportTimeoutMs })
  }
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return Either.right(null)
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return Either.right(null)
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || undefined
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined
  if (tracesEndpoint === undefined && endpoint === undefined) return Either.right(null)
  const refused =
    (tracesEndpoint === undefined ? undefined : notHttp("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", tracesEndpoint)) ??
    (endpoint === undefined ? undefined : notHttp("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint))
  if (refused !== undefined) return refused
  for (const key of ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"] as const) {
    const protocol = env[key]?.trim()
    if (protocol !== undefined && protocol !== "" && protocol !== "http/protobuf") {
      return invalid(`${key}: proctor exports traces over http/protobuf only, got ${JSON.stringify(protocol)}`)
    }
  }
  return Either.right({
    url: undefined,
    describe: tracesEndpoint ?? tracesUrl(endpoint ?? ""),
    exportTimeoutMs,
  })
}

/**
 * OpenTelemetry export of a run over OTLP/HTTP: a trace per rollout, its model calls (GenAI semantic
 * conventions) and agent steps as child spans, built from the records the run keeps anyway. The SDK is
 * loaded only once a collector answers.
 */
export class OtlpExport extends Context.Tag("@proctor/core/OtlpExport")<OtlpExport, OtlpExportService>() {
  static readonly make = (settings: OtlpSettings): Effect.Effect<OtlpExportService, never, Scope.Scope> =>
    Effect.gen(function* () {
      const { startOtlpPipeline } = yield* Effect.promise(() => import("./internal/otlpPipeline.js"))
      const pipeline = startOtlpPipeline(settings)
      // A run that ends without `finish` (a failure, an interrupt) still lets queued spans go, without waiting.
      yield* Effect.addFinalizer(() => Effect.promise(() => pipeline.finish(0)))
      return {
        onModelCall: pipeline.onModelCall,
        onEvent: pipeline.onEvent,
        finish: (runElapsedMs) =>
          Effect.promise(() =>
            pipeline.finish(Math.min(settings.exportTimeoutMs, Math.max(MIN_GRACE_MS, runElapsedMs * GRACE_SHARE))),
          ),
      }
    })
}
