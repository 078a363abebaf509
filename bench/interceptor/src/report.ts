import {
  cores,
  int,
  invokedWith,
  linearFit,
  median,
  mib,
  ms,
  type Percentiles,
  percentiles,
  runFigures,
  verdict,
} from "@proctor/bench-shared"
import type { MemoryResult } from "./memoryRun.js"
import { finite, type PhaseResult } from "./openLoop.js"
import type { GcPauses } from "./processes.js"
import {
  type AddedFigures,
  type CpuFigures,
  type CpuRatio,
  cpuRatioText,
  failedText,
  type InterceptorFigures,
  type PhaseTargets,
  sectionText,
} from "./section.js"
import {
  CALLS_PER_ROLLOUT,
  CIDS,
  CPU_DURATION_S,
  FLAT_HEAP_MB_PER_100K,
  FLAT_RSS_MB_PER_100K,
  MEMORY_CONCURRENCY,
  MEMORY_SAMPLES,
  RATE,
  SECTION,
  SLOW_LATENCY_MS,
  TARGET_JSON_CPU_US,
  TARGET_P50_MS,
  TARGET_P99_MS,
  TARGET_SSE_CPU_US,
  WARMUP_S,
} from "./settings.js"

export const signed = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${x.toFixed(2)}` : "–")
export const pct = (x: number) => `${(x * 100).toFixed(0)}%`

/** Whether the slowest proxied requests coincide with the interceptor stalling, against how often any does. */
export interface TailAttribution {
  /** Pairs whose paired difference is at or above its p99. */
  readonly tail: number
  /** Share of tail / all proxied requests whose time in flight overlaps an interceptor stall ≥ STALL_FOR_TAIL_MS. */
  readonly tailStalled: number
  readonly allStalled: number
  /** The same for GC pauses ≥ STALL_FOR_TAIL_MS. */
  readonly tailGc: number
  readonly allGc: number
  /** Median over the tail of (stall time overlapping the request) ÷ (its paired difference). */
  readonly explained: number
}

export const STALL_FOR_TAIL_MS = 2

/** Total overlap (ms) of [from, to] with events ≥ minMs (sorted by start). */
export const overlap = (events: ReadonlyArray<readonly [number, number]>, from: number, to: number, minMs: number) => {
  let total = 0
  for (const [start, ms] of events) {
    if (start > to) break
    if (ms < minMs) continue
    const end = start + ms
    if (end > from) total += Math.min(end, to) - Math.max(start, from)
  }
  return total
}

export const attribute = (phase: PhaseResult, pairedP99: number): TailAttribution => {
  const stalls = [...phase.pauses.stalls].sort((a, b) => a[0] - b[0])
  const gcs = [...phase.pauses.gcPauses].sort((a, b) => a[0] - b[0])
  let all = 0
  let allStalled = 0
  let allGc = 0
  let tail = 0
  let tailStalled = 0
  let tailGc = 0
  const explained: Array<number> = []
  for (let k = 0; k < phase.pairs; k++) {
    const from = phase.proxiedSentAt[k]!
    const ms = phase.proxied[k]!
    if (!Number.isFinite(from) || !Number.isFinite(ms)) continue
    const to = from + ms
    const stalled = overlap(stalls, from, to, STALL_FOR_TAIL_MS)
    const gc = overlap(gcs, from, to, STALL_FOR_TAIL_MS)
    all++
    if (stalled > 0) allStalled++
    if (gc > 0) allGc++
    if (phase.paired[k]! >= pairedP99) {
      tail++
      if (stalled > 0) tailStalled++
      if (gc > 0) tailGc++
      explained.push(Math.min(1, stalled / Math.max(phase.paired[k]!, 1e-9)))
    }
  }
  return {
    tail,
    tailStalled: tail === 0 ? 0 : tailStalled / tail,
    allStalled: all === 0 ? 0 : allStalled / all,
    tailGc: tail === 0 ? 0 : tailGc / tail,
    allGc: all === 0 ? 0 : allGc / all,
    explained: explained.length === 0 ? 0 : median(explained),
  }
}

/**
 * CPU per call on the phase's schedule, in slices that alternate: the interceptor with the probe's timer stopped
 * (its own CPU), then the bare proxy (forwarding only, the floor under it). A machine whose speed drifts over
 * minutes then moves both sides alike, and the ratio holds still where the two figures do not.
 */
export interface CpuSlices {
  readonly own: ReadonlyArray<PhaseResult>
  readonly bare: ReadonlyArray<PhaseResult>
}

/** µs of interceptor-process CPU per proxied call over some slices. */
const usPerCall = (runs: ReadonlyArray<PhaseResult>) =>
  (runs.reduce((sum, run) => sum + run.cpu.interceptor, 0) / runs.reduce((sum, run) => sum + run.pairs, 0)) * 1e6

export interface PhaseStats {
  readonly attribution: TailAttribution
  readonly phase: PhaseResult
  readonly cpu: CpuSlices | null
  readonly direct: Percentiles
  readonly proxied: Percentiles
  readonly paired: Percentiles
  readonly inside: Percentiles
  readonly outside: Percentiles
  readonly lag: Percentiles
}

export const statsOf = (phase: PhaseResult, cpu: CpuSlices | null): PhaseStats => {
  const outside = new Float64Array(phase.pairs)
  for (let k = 0; k < phase.pairs; k++) outside[k] = phase.proxied[k]! - phase.inside[k]!
  const paired = percentiles(finite(phase.paired))
  return {
    phase,
    cpu,
    attribution: attribute(phase, paired.p99),
    direct: percentiles(finite(phase.direct)),
    proxied: percentiles(finite(phase.proxied)),
    paired,
    inside: percentiles(finite(phase.inside)),
    outside: percentiles(finite(outside)),
    lag: percentiles(phase.lag),
  }
}

/** The open loop fell behind: sends went out late, or answers kept arriving long after the last send. */
export const isOverloaded = (s: PhaseStats) => s.lag.p99 > 10 || s.phase.seconds > s.phase.scheduledSeconds * 1.1 + 0.5

/** A latency limit on a phase's added percentile (`at`), with the paired one beside it. */
const addedFigures = (target: number, s: PhaseStats, at: (p: Percentiles) => number): AddedFigures => {
  const added = at(s.proxied) - at(s.direct)
  const paired = at(s.paired)
  return {
    added: signed(added),
    paired: signed(paired),
    overloaded: isOverloaded(s),
    notByPaired: added <= target && paired > target,
    verdict: verdict(added <= target),
  }
}

/** The CPU limit against the interceptor's own CPU, with the bare proxy's floor beside it. */
const cpuFigures = (targetUs: number, s: PhaseStats): CpuFigures => {
  const own = ownUs(s)
  if (own === null) return null
  const bare = bareUs(s)
  const ratio = cpuRatio(s)
  return {
    ownUs: int(own),
    floor: bare === null || ratio === null ? null : { bareUs: int(bare), ratio },
    verdict: verdict(own <= targetUs),
  }
}

const phaseTargets = (s: PhaseStats, cpuTargetUs: number): PhaseTargets => ({
  p50: addedFigures(TARGET_P50_MS, s, (p) => p.p50),
  p99: addedFigures(TARGET_P99_MS, s, (p) => p.p99),
  cpu: cpuFigures(cpuTargetUs, s),
})

export interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
}

export const renderSection = (
  phases: ReadonlyArray<PhaseStats>,
  memory: MemoryResult | null,
  info: RunInfo,
): string => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const head = phases.find((s) => !s.phase.stream && s.phase.upstreamLatencyMs === 0)
  const stream = phases.find((s) => s.phase.stream && s.phase.upstreamLatencyMs === 0)
  const maxOthers = Math.max(...phases.map((s) => s.phase.cpu.otherCores), memory?.cpu.otherCores ?? 0)
  const overloaded = phases.filter(isOverloaded)
  return sectionText({
    invokedWith: invokedWith(),
    main: {
      section: SECTION,
      ...runFigures(info),
      slow_latency_ms: SLOW_LATENCY_MS,
      cids: CIDS,
      calls_per_rollout: CALLS_PER_ROLLOUT,
      rate: RATE,
      warmup_s: WARMUP_S,
      cpu_duration_s: CPU_DURATION_S,
      phase_rows: phases
        .map((s) =>
          row([
            s.phase.name,
            `${int(s.phase.pairs)} + ${int(s.phase.pairs)} (${int(s.phase.rollouts)} rollouts)${failedText(s.phase.failures)}`,
            `${ms(s.direct.p50)} / ${ms(s.direct.p90)} / ${ms(s.direct.p99)}`,
            `${ms(s.proxied.p50)} / ${ms(s.proxied.p90)} / ${ms(s.proxied.p99)}`,
            `**${signed(s.proxied.p50 - s.direct.p50)}** / ${signed(s.proxied.p90 - s.direct.p90)} / ` +
              `**${signed(s.proxied.p99 - s.direct.p99)}**`,
            `${signed(s.paired.p50)} / ${signed(s.paired.p90)} / ${signed(s.paired.p99)}`,
            `${ms(s.inside.p50)} / ${ms(s.inside.p99)}`,
            `${ms(s.outside.p50)} / ${ms(s.outside.p99)}`,
            ms(s.lag.p99),
            `**${ownCpu(s)}** (${perCall(s.phase, s.phase.cpu.interceptor)}) / ` +
              `${perCall(s.phase, s.phase.cpu.upstream / 2)} / ${perCall(s.phase, s.phase.cpu.self / 2)}`,
            bareCpu(s),
            cores(s.phase.cpu.otherCores),
          ]),
        )
        .join("\n"),
      stall_ms: STALL_FOR_TAIL_MS,
      stall_rows: phases
        .map((s) => {
          const p = s.phase.pauses
          const gc = (g: GcPauses) => `${int(g.count)}, ${g.ms.toFixed(1)}, ${g.max.toFixed(2)}`
          return row([
            s.phase.name,
            `${ms(p.loopDelay.p50)} / ${ms(p.loopDelay.p99)} / ${ms(p.loopDelay.max)}`,
            gc(p.minor),
            gc(p.major),
            int(s.phase.preempted / s.phase.seconds),
            s.phase.cpu.cpuPressure === null ? "–" : `${(s.phase.cpu.cpuPressure * 100).toFixed(0)}%`,
            `${pct(s.attribution.tailStalled)} / ${pct(s.attribution.allStalled)}`,
            `${pct(s.attribution.tailGc)} / ${pct(s.attribution.allGc)}`,
            pct(s.attribution.explained),
          ])
        })
        .join("\n"),
    },
    targets:
      head === undefined
        ? null
        : {
            limits: {
              p50TargetMs: TARGET_P50_MS,
              p99TargetMs: TARGET_P99_MS,
              jsonCpuTargetUs: TARGET_JSON_CPU_US,
              sseCpuTargetUs: TARGET_SSE_CPU_US,
            },
            json: phaseTargets(head, TARGET_JSON_CPU_US),
            sse: stream === undefined ? null : phaseTargets(stream, TARGET_SSE_CPU_US),
          },
    memory: memory === null ? null : memorySection(memory),
    maxOthers: maxOthers > 0.1 ? cores(maxOthers) : null,
    overloaded: overloaded.length === 0 ? null : overloaded.map((s) => `"${s.phase.name}"`).join(", "),
  })
}

const memorySection = (memory: MemoryResult): NonNullable<InterceptorFigures["memory"]> => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const warm = memory.samples.filter((s) => s.calls >= memory.calls / MEMORY_SAMPLES)
  const xs = warm.map((s) => s.calls)
  const per100k = (ys: ReadonlyArray<number>) => (linearFit(xs, ys).slope * 100_000) / 2 ** 20
  const heapSlope = per100k(warm.map((s) => s.heapUsedAfterGc))
  const rssSlope = per100k(warm.map((s) => s.rssAfterGc))
  const flat = Math.abs(heapSlope) < FLAT_HEAP_MB_PER_100K && Math.abs(rssSlope) < FLAT_RSS_MB_PER_100K
  return {
    figures: {
      calls: int(memory.calls),
      rollouts: int(memory.rollouts),
      calls_per_rollout: int(memory.calls / memory.rollouts),
      concurrency: MEMORY_CONCURRENCY,
      seconds: memory.seconds.toFixed(1),
      calls_per_s: int(memory.calls / memory.seconds),
      cpu_us: int((memory.cpu.interceptor / memory.calls) * 1e6),
      others: cores(memory.cpu.otherCores),
      sample_every: int(memory.calls / MEMORY_SAMPLES),
      sample_rows: memory.samples
        .map((s) =>
          row([
            int(s.calls),
            int(s.rollouts),
            mib(s.rss),
            mib(s.heapUsed),
            mib(s.rssAfterGc),
            mib(s.heapUsedAfterGc),
            String(s.openRollouts),
            String(s.inFlight),
          ]),
        )
        .join("\n"),
      first_warm_calls: int(xs[0] ?? 0),
      heap_slope: signed(heapSlope),
      rss_slope: signed(rssSlope),
      raw_heap_slope: signed(per100k(warm.map((s) => s.heapUsed))),
      raw_rss_slope: signed(per100k(warm.map((s) => s.rss))),
      flat_heap_mb: FLAT_HEAP_MB_PER_100K,
      flat_rss_mb: FLAT_RSS_MB_PER_100K,
    },
    failures: memory.failures,
    peakRssMib: memory.peakRss === null ? null : mib(memory.peakRss),
    // A short run's slope, scaled to 100,000 calls, is mostly noise.
    verdict: memory.calls < 50_000 ? null : verdict(flat && memory.failures === 0),
  }
}

/** CPU seconds of a run, in µs per proxied call. */
const perCall = (run: PhaseResult, seconds: number) => int((seconds / run.pairs) * 1e6)
const ownUs = (s: PhaseStats) => (s.cpu === null ? null : usPerCall(s.cpu.own))
const bareUs = (s: PhaseStats) => (s.cpu === null || s.cpu.bare.length === 0 ? null : usPerCall(s.cpu.bare))
const ownCpu = (s: PhaseStats) => {
  const own = ownUs(s)
  return own === null ? "–" : int(own)
}
/** The ratio over all slices, and its range over the slice pairs. */
const cpuRatio = (s: PhaseStats): CpuRatio | null => {
  const own = ownUs(s)
  const bare = bareUs(s)
  if (s.cpu === null || own === null || bare === null) return null
  const slices = s.cpu.bare.map((floor, i) => usPerCall([s.cpu!.own[i]!]) / usPerCall([floor]))
  return {
    ratio: `${(own / bare).toFixed(2)}×`,
    min: Math.min(...slices).toFixed(2),
    max: Math.max(...slices).toFixed(2),
  }
}
const bareCpu = (s: PhaseStats) => {
  const bare = bareUs(s)
  const ratio = cpuRatio(s)
  return bare === null || ratio === null ? "–" : `${int(bare)} (${cpuRatioText(ratio)})`
}

export const describePhase = (s: PhaseStats) =>
  `direct p50/p99 ${ms(s.direct.p50)}/${ms(s.direct.p99)} ms, proxied ${ms(s.proxied.p50)}/${ms(s.proxied.p99)} ms, ` +
  `added ${signed(s.proxied.p50 - s.direct.p50)}/${signed(s.proxied.p99 - s.direct.p99)} ms, paired ` +
  `${signed(s.paired.p50)}/${signed(s.paired.p99)} ms, send lag p99 ${ms(s.lag.p99)} ms` +
  `${s.phase.failures > 0 ? `, ${s.phase.failures} FAILED` : ""}; interceptor loop delay p99/max ` +
  `${ms(s.phase.pauses.loopDelay.p99)}/${ms(s.phase.pauses.loopDelay.max)} ms, GC max minor/major ` +
  `${ms(s.phase.pauses.minor.max)}/${ms(s.phase.pauses.major.max)} ms, preempted ` +
  `${int(s.phase.preempted / s.phase.seconds)}/s, slowest 1% in a stall ${pct(s.attribution.tailStalled)} ` +
  `(all ${pct(s.attribution.allStalled)}), in a GC pause ${pct(s.attribution.tailGc)} (all ${pct(s.attribution.allGc)}), CPU pressure ` +
  `${s.phase.cpu.cpuPressure === null ? "–" : `${(s.phase.cpu.cpuPressure * 100).toFixed(0)}%`}; CPU µs/call interceptor ` +
  `own ${ownCpu(s)} (with probe ${perCall(s.phase, s.phase.cpu.interceptor)}), upstream ` +
  `${perCall(s.phase, s.phase.cpu.upstream / 2)}, load generator ${perCall(s.phase, s.phase.cpu.self / 2)} ` +
  `(others ${cores(s.phase.cpu.otherCores)} cores)`
