import { type Figures, fillTemplate, invokedAs, readTemplates } from "@proctor/bench-shared"

const templates = readTemplates(new URL("../templates/", import.meta.url), [
  "section",
  "targets",
  "sse-targets",
  "added",
  "added-overloaded",
  "not-by-paired",
  "cpu",
  "cpu-not-measured",
  "cpu-floor",
  "cpu-ratio",
  "failed",
  "memory",
  "memory-failures",
  "peak-rss",
  "peak-rss-unknown",
  "not-judged",
  "others",
  "overloaded",
])

/** A latency limit's outcome: the added and paired figures, or that the phase was overloaded. */
export interface AddedFigures {
  readonly added: string
  readonly paired: string
  readonly overloaded: boolean
  /** Met by the added figure, not by the paired one. */
  readonly notByPaired: boolean
  readonly verdict: string
}

/** The CPU limit's outcome: the interceptor's own µs per call and the bare proxy's beside it; null: not measured. */
export type CpuFigures = { readonly ownUs: string; readonly floor: CpuFloor | null; readonly verdict: string } | null
export interface CpuFloor {
  readonly bareUs: string
  readonly ratio: CpuRatio
}
/** Interceptor ÷ bare proxy over all slices, and its range over the slice pairs. */
export interface CpuRatio {
  readonly ratio: string
  readonly min: string
  readonly max: string
}

/** The figures of a phase's latency and CPU limits. */
export interface PhaseTargets {
  readonly p50: AddedFigures
  readonly p99: AddedFigures
  readonly cpu: CpuFigures
}

/**
 * The figures of the section, formatted, by the placeholder of bench/interceptor/templates that shows each; a
 * placeholder without its figure, or a figure without its place, throws (see `fillTemplate`).
 */
export interface InterceptorFigures {
  readonly invokedWith: string
  /** section.md's figures but `invoked_as`. */
  readonly main: Figures
  /** The limits, when the JSON phase without added latency ran; SSE's when its phase did too. */
  readonly targets: {
    readonly limits: {
      readonly p50TargetMs: number
      readonly p99TargetMs: number
      readonly jsonCpuTargetUs: number
      readonly sseCpuTargetUs: number
    }
    readonly json: PhaseTargets
    readonly sse: PhaseTargets | null
  } | null
  /** memory.md's figures but `failures`, `peak_rss` and `verdict`. */
  readonly memory: {
    readonly figures: Figures
    readonly failures: number
    readonly peakRssMib: string | null
    /** null: a run too short to judge. */
    readonly verdict: string | null
  } | null
  readonly maxOthers: string | null
  /** The names of the phases the machine did not keep up with, quoted. */
  readonly overloaded: string | null
}

/** `1.22×, slices 0.85–1.56×`. */
export const cpuRatioText = (r: CpuRatio): string => fillTemplate(templates["cpu-ratio"], { ...r })

/** A phase's count of failed requests, as its table cell adds it (nothing when none failed). */
export const failedText = (failures: number): string =>
  failures > 0 ? fillTemplate(templates.failed, { failures }) : ""

const addedText = (a: AddedFigures): string =>
  a.overloaded
    ? fillTemplate(templates["added-overloaded"], { added: a.added, paired: a.paired })
    : fillTemplate(templates.added, {
        added: a.added,
        paired: a.paired,
        verdict: a.verdict,
        not_by_paired: a.notByPaired ? templates["not-by-paired"] : "",
      })

const cpuText = (c: CpuFigures): string =>
  c === null
    ? templates["cpu-not-measured"]
    : fillTemplate(templates.cpu, {
        own_us: c.ownUs,
        verdict: c.verdict,
        floor:
          c.floor === null
            ? ""
            : fillTemplate(templates["cpu-floor"], { bare_us: c.floor.bareUs, ratio: cpuRatioText(c.floor.ratio) }),
      })

/** bench/RESULTS.md's interceptor section: the prose is bench/interceptor/templates/*.md. */
export const sectionText = (f: InterceptorFigures): string => {
  const { targets, memory } = f
  const parts = [
    fillTemplate(templates.section, { ...f.main, invoked_as: invokedAs("interceptor", f.invokedWith) }),
    ...(targets === null
      ? []
      : [
          fillTemplate(templates.targets, {
            p50_target_ms: targets.limits.p50TargetMs,
            p99_target_ms: targets.limits.p99TargetMs,
            json_cpu_target_us: targets.limits.jsonCpuTargetUs,
            json_p50: addedText(targets.json.p50),
            json_p99: addedText(targets.json.p99),
            json_cpu: cpuText(targets.json.cpu),
            sse_targets:
              targets.sse === null
                ? ""
                : fillTemplate(templates["sse-targets"], {
                    p50_target_ms: targets.limits.p50TargetMs,
                    p99_target_ms: targets.limits.p99TargetMs,
                    sse_cpu_target_us: targets.limits.sseCpuTargetUs,
                    sse_p50: addedText(targets.sse.p50),
                    sse_p99: addedText(targets.sse.p99),
                    sse_cpu: cpuText(targets.sse.cpu),
                  }),
          }),
        ]),
    ...(memory === null
      ? []
      : [
          fillTemplate(templates.memory, {
            ...memory.figures,
            failures:
              memory.failures > 0 ? fillTemplate(templates["memory-failures"], { failures: memory.failures }) : "",
            peak_rss:
              memory.peakRssMib === null
                ? templates["peak-rss-unknown"]
                : fillTemplate(templates["peak-rss"], { mib: memory.peakRssMib }),
            verdict: memory.verdict ?? templates["not-judged"],
          }),
        ]),
    ...(f.maxOthers === null ? [] : [fillTemplate(templates.others, { max_others: f.maxOthers })]),
    ...(f.overloaded === null ? [] : [fillTemplate(templates.overloaded, { phases: f.overloaded })]),
  ]
  return `${parts.join("\n\n")}\n`
}
