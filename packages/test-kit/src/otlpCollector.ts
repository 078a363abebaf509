import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"
import protobuf from "protobufjs"

/** One span as an OTLP collector received it, ids in hex, attributes as plain values. */
export interface CollectedSpan {
  readonly traceId: string
  readonly spanId: string
  /** "" for a root span. */
  readonly parentSpanId: string
  readonly name: string
  readonly kind: number
  readonly statusCode: number
  readonly attributes: Readonly<Record<string, unknown>>
  readonly resource: Readonly<Record<string, unknown>>
  readonly scope: string
}

export interface OtlpCollector {
  /** The base endpoint, as `--otlp-endpoint` / OTEL_EXPORTER_OTLP_ENDPOINT take it. */
  readonly url: string
  readonly spans: ReadonlyArray<CollectedSpan>
  /** Requests that were not OTLP/HTTP protobuf trace exports. */
  readonly refused: ReadonlyArray<string>
  readonly close: () => Promise<void>
}

const PROTO_ROOT = fileURLToPath(new URL("../otlp-proto/", import.meta.url))

const loadRequestType = async (): Promise<protobuf.Type> => {
  const root = new protobuf.Root()
  root.resolvePath = (_origin, target) => `${PROTO_ROOT}${target}`
  await root.load("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: false })
  return root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest")
}

interface AnyValue {
  readonly stringValue?: string
  readonly boolValue?: boolean
  readonly intValue?: string
  readonly doubleValue?: number
  readonly arrayValue?: { readonly values?: ReadonlyArray<AnyValue> }
}
interface KeyValue {
  readonly key: string
  readonly value?: AnyValue
}

const plain = (value: AnyValue | undefined): unknown => {
  if (value === undefined) return undefined
  if (value.stringValue !== undefined) return value.stringValue
  if (value.boolValue !== undefined) return value.boolValue
  if (value.intValue !== undefined) return Number(value.intValue)
  if (value.doubleValue !== undefined) return value.doubleValue
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain)
  return undefined
}
const attributesOf = (list: ReadonlyArray<KeyValue> | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]))
const hex = (base64: string | undefined) => Buffer.from(base64 ?? "", "base64").toString("hex")

/**
 * A real OTLP/HTTP trace endpoint on loopback (port 0): decodes each protobuf export with the official
 * opentelemetry-proto definitions (copied in otlp-proto/) and answers 200, as a collector does.
 */
export const startOtlpCollector = async (): Promise<OtlpCollector> => {
  const requestType = await loadRequestType()
  const spans: Array<CollectedSpan> = []
  const refused: Array<string> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const raw = Buffer.concat(chunks)
      const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw
      if (
        req.method !== "POST" ||
        req.url !== "/v1/traces" ||
        req.headers["content-type"] !== "application/x-protobuf"
      ) {
        refused.push(`${req.method} ${req.url} ${req.headers["content-type"]}`)
        res.writeHead(404).end()
        return
      }
      const decoded = requestType.toObject(requestType.decode(body), { longs: String, bytes: String }) as {
        readonly resourceSpans?: ReadonlyArray<{
          readonly resource?: { readonly attributes?: ReadonlyArray<KeyValue> }
          readonly scopeSpans?: ReadonlyArray<{
            readonly scope?: { readonly name?: string }
            readonly spans?: ReadonlyArray<{
              readonly traceId?: string
              readonly spanId?: string
              readonly parentSpanId?: string
              readonly name?: string
              readonly kind?: number
              readonly attributes?: ReadonlyArray<KeyValue>
              readonly status?: { readonly code?: number }
            }>
          }>
        }>
      }
      for (const resourceSpans of decoded.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes)
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name ?? "",
              kind: span.kind ?? 0,
              statusCode: span.status?.code ?? 0,
              attributes: attributesOf(span.attributes),
              resource,
              scope: scopeSpans.scope?.name ?? "",
            })
          }
        }
      }
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    refused,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
