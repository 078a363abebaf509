import { randomBytes } from "node:crypto"
import { connect } from "node:net"
import type { RunEvent } from "../../events/RunEvents.js"
import type { ModelCall } from "../../result/ModelCall.js"
import type { OtlpExportReport, OtlpSettings } from "../OtlpExport.js"
import type { SdkExport } from "./otlpSdk.js"
import { modelCallSpan, type RunSpan, rolloutSpan, type SpanIds, stepSpan } from "./runSpans.js"

const PROBE_TIMEOUT_MS = 1000
/** How long a probe's answer stands before the next export (or the next wait for a collector) asks again. */
const PROBE_VALID_MS = 5000
/** Spans kept while no collector has answered yet: the SDK's own queue bound, so memory stays bounded. */
const WAITING_LIMIT = 2048

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

const hexId = (bytes: number): string => randomBytes(bytes).toString("hex")

export interface OtlpPipeline {
  readonly onModelCall: (call: ModelCall) => void
  readonly onEvent: (event: RunEvent) => void
  readonly finish: (graceMs: number) => Promise<OtlpExportReport>
}

/**
 * Spans of a run on their way to a collector. The OpenTelemetry SDK (~0.1 s of CPU to load) is loaded only once
 * the collector took a connection; until then spans wait here, at most as many as the SDK's queue holds, so a run
 * whose collector is down pays for building spans and nothing else.
 */
export const startOtlpPipeline = (settings: OtlpSettings): OtlpPipeline => {
  const target = new URL(settings.describe)
  let reach: "unknown" | "reachable" | "unreachable" = "unknown"
  let probedAt = 0
  let probing: Promise<boolean> | undefined
  let onReachChange: (() => void) | undefined
  const reachable = (): Promise<boolean> => {
    if (reach !== "unknown" && Date.now() - probedAt <= PROBE_VALID_MS) return Promise.resolve(reach === "reachable")
    probing ??= probe(target).then((up) => {
      probedAt = Date.now()
      probing = undefined
      reach = up ? "reachable" : "unreachable"
      onReachChange?.()
      return up
    })
    return probing
  }

  let submitted = 0
  let sent = 0
  let lastError: string | null = null
  let sdk: SdkExport | undefined
  let loading: Promise<SdkExport> | undefined
  let finishing = false
  const waiting: Array<RunSpan> = []
  const loadSdk = (): Promise<SdkExport> => {
    loading ??= import("./otlpSdk.js").then(({ startSdkExport }) => {
      const started = startSdkExport(settings, reachable, {
        sent: (count) => {
          sent += count
        },
        failed: (message) => {
          lastError = message
          probedAt = 0
        },
      })
      for (const span of waiting.splice(0)) started.submit(span)
      sdk = started
      return started
    })
    return loading
  }
  // Asks at once, then every PROBE_VALID_MS on an unref'd timer, until the collector answers or the run ends.
  const watch = (): void => {
    reachable().then((up) => {
      if (up) loadSdk()
      else if (!finishing) setTimeout(watch, PROBE_VALID_MS).unref()
    })
  }
  watch()

  const submit = (span: RunSpan | null) => {
    if (span === null) return
    submitted++
    if (sdk !== undefined) sdk.submit(span)
    else if (waiting.length < WAITING_LIMIT) waiting.push(span)
  }

  // Each rollout is a trace of its own, its span the root; calls and steps may end before it and find it here.
  const rollouts = new Map<string, SpanIds>()
  const rolloutIds = (rolloutId: string): SpanIds => {
    const known = rollouts.get(rolloutId)
    if (known !== undefined) return known
    const ids = { traceId: hexId(16), spanId: hexId(8) }
    rollouts.set(rolloutId, ids)
    return ids
  }
  const childOf = (parent: SpanIds): SpanIds => ({ traceId: parent.traceId, spanId: hexId(8) })
  let runId = ""

  /** Resolves with `value`, or with "late" after `ms`, or "changed" when the collector's reachability is known anew. */
  const within = async <A>(value: Promise<A>, ms: number): Promise<A | "late" | "changed"> => {
    let timer: NodeJS.Timeout | undefined
    const outcome = await Promise.race([
      value,
      new Promise<"late" | "changed">((resolve) => {
        timer = setTimeout(() => resolve("late"), ms)
        onReachChange = () => resolve("changed")
      }),
    ])
    clearTimeout(timer)
    onReachChange = undefined
    return outcome
  }

  /**
   * Waits for the spans to reach the collector: as long as the export timeout while the collector takes
   * connections, `graceMs` while that is not known yet, not at all once it refused.
   */
  const flushWithin = async (graceMs: number): Promise<OtlpExportReport> => {
    finishing = true
    const started = Date.now()
    const budget = () => (reach === "reachable" ? settings.exportTimeoutMs : reach === "unreachable" ? 0 : graceMs)
    const flushed = reachable().then(async (up) => {
      if (!up) return false
      const loaded = await loadSdk()
      return loaded.forceFlush().then(
        () => true,
        () => false,
      )
    })
    let done = false
    for (;;) {
      const left = budget() - (Date.now() - started)
      if (left <= 0) break
      const outcome = await within(flushed, left)
      if (outcome === "late") break
      if (outcome !== "changed") {
        done = outcome
        break
      }
    }
    // Not awaited: an export still in flight must not hold the run's end.
    sdk?.shutdown().catch(() => undefined)
    return {
      endpoint: settings.describe,
      submitted,
      sent,
      dropped: submitted - sent,
      error:
        done && submitted === sent
          ? null
          : (lastError ?? (reach === "unreachable" ? `cannot connect to ${target.host}` : null)),
    }
  }
  let finished: Promise<OtlpExportReport> | undefined

  return {
    onModelCall: (call) => {
      const parent = rolloutIds(call.rollout_id)
      submit(modelCallSpan(call, childOf(parent), parent))
    },
    onEvent: (event) => {
      switch (event._tag) {
        case "RunStarted":
          runId = event.runId
          return
        case "RolloutStep": {
          const parent = rolloutIds(event.step.rollout_id)
          return submit(stepSpan(event.step, childOf(parent), parent))
        }
        case "RolloutFinished": {
          const rolloutId = event.result.run_id ?? `${runId}:${event.result.seed}:${event.result.attempt}`
          submit(rolloutSpan(runId, event.result, rolloutIds(rolloutId)))
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
