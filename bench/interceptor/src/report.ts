import {
  cores,
  int,
  invokedWith,
  linearFit,
  machineDescription,
  measuredAt,
  median,
  mib,
  ms,
  type Percentiles,
  percentiles,
  verdict,
} from "@proctor/bench-shared"
import type { MemoryResult } from "./memoryRun.js"
import { finite, type PhaseResult } from "./openLoop.js"
import type { GcPauses } from "./processes.js"
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

export const targetLine = (label: string, target: number, s: PhaseStats, at: (p: Percentiles) => number) => {
  const added = at(s.proxied) - at(s.direct)
  const paired = at(s.paired)
  if (isOverloaded(s)) {
    return (
      `- ${label} ≤ ${target} ms: ${signed(added)} ms (paired ${signed(paired)} ms) — **not measured**: the ` +
      "machine was overloaded in this phase (see below)."
    )
  }
  return (
    `- ${label} ≤ ${target} ms: ${signed(added)} ms (paired ${signed(paired)} ms) — ${verdict(added <= target)}` +
    `${added <= target && paired > target ? " (not by the paired differences)" : ""}.`
  )
}

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
  const lines: Array<string> = [
    SECTION,
    "",
    `Measured ${measuredAt(info.startedAt)} UTC with ` +
      "`npx -y pnpm@10 run bench:interceptor` (bench/interceptor)" +
      (invokedWith() === "" ? "" : ` as \`node bench/interceptor/dist/main.js ${invokedWith()}\``) +
      `; proctor at ${info.proctor}.`,
    "",
    `Machine: ${machineDescription()}. Load generator, interceptor and upstream are three processes ` +
      `sharing the cores. Load average (1/5/15 min) at the start: ${info.loadBefore}; at the end: ${info.loadAfter}.`,
    "",
    "Setup: the upstream is the baseline model (`examples/baseline-model`, fastify) in its own process, with no " +
      `added latency (and a second one with ${SLOW_LATENCY_MS} ms); the interceptor is an \`Interceptor\` with ` +
      "proctor's pricing served on its process's main thread (`startInterceptor`, the same `serveInterceptor` as " +
      "`proctor eval`; there the process is the runner's too, here it only answers the bench's IPC besides), with " +
      "an upstream key configured and " +
      `${CIDS} rollouts open at a time during each phase, each taking ${CALLS_PER_ROLLOUT} proxied calls before it is ` +
      "closed and replaced (open and close over IPC, as a run's rollouts come and go); this process is the load generator " +
      "(undici `Pool`s). Each phase is an **open loop**: a fixed schedule of " +
      `${RATE} proxied requests/s through the interceptor interleaved with ${RATE} direct requests/s to the same ` +
      "upstream — pair k sends one of each, half a period apart, in random order — so both see the same machine. " +
      "Bodies are the math task app's first turn (system prompt, problem, its two tools, `gpt-4o-mini`); SSE " +
      "requests ask for text (`tool_choice: none`) without `include_usage`, so the interceptor adds it and filters " +
      "the usage chunk. Latency is from send to the last byte (JSON) or to the first content delta (SSE, time to " +
      "first token), measured in the load generator. *added* = proxied percentile − direct percentile; *paired* = " +
      "percentiles of proxied_k − direct_k. *inside* is the interceptor's own `latency_ms`/`ttft_ms` of the call " +
      "(from the body being read to the answer sent); *outside* = proxied − inside, per request (the hop from the " +
      `client into the interceptor and back). A ${WARMUP_S} s warm-up of each kind is discarded. The bench's ` +
      "event-loop probe on the interceptor's event loop (a 2 ms timer) wakes its thread 500 times a second, at a cost " +
      "the interceptor itself does not have (tens of µs of CPU a wake-up on a VM), so the interceptor's CPU per " +
      `call is measured on the same schedule run again for ${CPU_DURATION_S} s with the probe's timer stopped ` +
      "(*own*), next to the figure with it ticking. That time is cut into slices, each followed by the same slice of " +
      "the schedule through a *bare proxy* in a process of its own (bench/interceptor/src/bareProxyProcess.ts: the " +
      "same node:http server and undici dispatcher, each POST forwarded byte for byte and answered as it arrives, " +
      "nothing parsed, recorded or priced): the least CPU a Node proxy spends per call on this machine, the floor " +
      "under the interceptor's. Alternating, a machine whose speed drifts over minutes moves both alike; the ratio " +
      "is over all slices, with its range over the pairs of slices.",
    "",
    "| phase | requests direct + proxied | direct p50 / p90 / p99 (ms) | proxied p50 / p90 / p99 (ms) | added p50 / p90 / p99 (ms) | " +
      "paired p50 / p90 / p99 (ms) | inside p50 / p99 (ms) | outside p50 / p99 (ms) | send lag p99 (ms) | " +
      "CPU µs per proxied call: interceptor own (with probe) / upstream / load generator | " +
      "bare proxy CPU µs per call (interceptor own ÷ bare) | others (cores) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...phases.map((s) =>
      row([
        s.phase.name,
        `${int(s.phase.pairs)} + ${int(s.phase.pairs)} (${int(s.phase.rollouts)} rollouts)` +
          `${s.phase.failures > 0 ? ` (**${s.phase.failures} failed**)` : ""}`,
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
    ),
    "",
  ]
  lines.push(
    "What stalls the interceptor during each phase: its event-loop delay (sampled every 2 ms), its GC pauses " +
      "on its thread, how often the kernel took that thread's core away while it could run (involuntary context " +
      "switches of the process's busiest thread, the interceptor's), and the machine's CPU pressure (Linux PSI: the share of the time some runnable task — ours or " +
      "anyone's — waited for a core). The last three columns line the interceptor's stalls (its event loop " +
      `late by ${STALL_FOR_TAIL_MS} ms or more, whatever the cause) and GC pauses (${STALL_FOR_TAIL_MS} ms or more) up ` +
      "with the proxied requests in flight: for the slowest 1% by paired difference, against all proxied requests.",
    "",
    "| phase | event-loop delay p50 / p99 / max (ms) | minor GC: count, total, max (ms) | major GC: count, total, max (ms) | preempted (/s) | CPU pressure (some) | slowest 1%: overlap a stall / all requests | slowest 1%: overlap a GC pause / all requests | slowest 1%: share of the excess spent in a stall (median) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...phases.map((s) => {
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
    }),
    "",
  )
  const head = phases.find((s) => !s.phase.stream && s.phase.upstreamLatencyMs === 0)
  if (head !== undefined) {
    const stream = phases.find((s) => s.phase.stream && s.phase.upstreamLatencyMs === 0)
    lines.push(
      "Targets (*added*, upstream with no added latency; the paired figure alongside; CPU is the interceptor's own):",
      "",
      targetLine("JSON: added p50", TARGET_P50_MS, head, (p) => p.p50),
      targetLine("JSON: added p99", TARGET_P99_MS, head, (p) => p.p99),
      cpuTargetLine("JSON: interceptor CPU per call", TARGET_JSON_CPU_US, head),
      ...(stream === undefined
        ? []
        : [
            targetLine("time to first token: added p50", TARGET_P50_MS, stream, (p) => p.p50),
            targetLine("time to first token: added p99", TARGET_P99_MS, stream, (p) => p.p99),
            cpuTargetLine("SSE: interceptor CPU per call", TARGET_SSE_CPU_US, stream),
          ]),
      "",
    )
  }
  if (memory !== null) {
    const warm = memory.samples.filter((s) => s.calls >= memory.calls / MEMORY_SAMPLES)
    const xs = warm.map((s) => s.calls)
    const per100k = (ys: ReadonlyArray<number>) => (linearFit(xs, ys).slope * 100_000) / 2 ** 20
    const heapSlope = per100k(warm.map((s) => s.heapUsedAfterGc))
    const rssSlope = per100k(warm.map((s) => s.rssAfterGc))
    const rawHeapSlope = per100k(warm.map((s) => s.heapUsed))
    const rawRssSlope = per100k(warm.map((s) => s.rss))
    const flat = Math.abs(heapSlope) < FLAT_HEAP_MB_PER_100K && Math.abs(rssSlope) < FLAT_RSS_MB_PER_100K
    lines.push(
      `Memory: ${int(memory.calls)} calls through the interceptor across ${int(memory.rollouts)} rollouts ` +
        `(open → ${int(memory.calls / memory.rollouts)} calls → close; ${MEMORY_CONCURRENCY} rollouts at a time, ` +
        "closed loop, every fourth call streamed) against the upstream with no added latency, in " +
        `${memory.seconds.toFixed(1)} s (${int(memory.calls / memory.seconds)} calls/s, ` +
        `${int((memory.cpu.interceptor / memory.calls) * 1e6)} µs interceptor CPU per call with the probe's timer ` +
        "stopped, others " +
        `${cores(memory.cpu.otherCores)} cores)${memory.failures > 0 ? `; **${memory.failures} failures**` : ""}. ` +
        "The interceptor's memory is read over IPC after every " +
        `${int(memory.calls / MEMORY_SAMPLES)} calls, when no rollout is open — as it is, then after a full GC: ` +
        "heapUsed is the process's heap (`process.memoryUsage()`: the interceptor holds each rollout's calls until " +
        "it closes), RSS the whole process's.",
      "",
      "| calls | rollouts closed | RSS (MiB) | heapUsed (MiB) | RSS after GC (MiB) | heapUsed after GC (MiB) | open rollouts | in flight |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...memory.samples.map((s) =>
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
      ),
      "",
      `Slope (least squares over the samples from ${int(xs[0] ?? 0)} calls on, i.e. after the first ` +
        `${int(memory.calls / MEMORY_SAMPLES)} as warm-up), in MiB per 100,000 calls: heapUsed after GC ` +
        `**${signed(heapSlope)}**, RSS after GC **${signed(rssSlope)}**; as read without a GC: heapUsed ` +
        `${signed(rawHeapSlope)}, RSS ${signed(rawRssSlope)}. Peak RSS (VmHWM) of the interceptor process over the ` +
        `whole bench: ${memory.peakRss === null ? "unknown" : `${mib(memory.peakRss)} MiB`}.`,
      "",
      `- memory flat over ${int(memory.calls)} calls (fitted growth under ${FLAT_HEAP_MB_PER_100K} MiB of ` +
        `post-GC heap and ${FLAT_RSS_MB_PER_100K} MiB of RSS per 100,000 calls; one call's record is several ` +
        `KB, so keeping them would be hundreds of MiB): ${
          memory.calls < 50_000
            ? "not judged (a short run: its slope, scaled to 100,000 calls, is mostly noise)"
            : verdict(flat && memory.failures === 0)
        }.`,
      "",
    )
  }
  const maxOthers = Math.max(...phases.map((s) => s.phase.cpu.otherCores), memory?.cpu.otherCores ?? 0)
  if (maxOthers > 0.1) {
    lines.push(
      `Other processes used up to ${cores(maxOthers)} cores during some phases: tail percentiles there include ` +
        "waits for a core; the paired differences, taken between requests sent 1 ms apart, are the steadier figure.",
      "",
    )
  }
  const overloaded = phases.filter(isOverloaded)
  if (overloaded.length > 0) {
    lines.push(
      `**Overloaded:** in ${overloaded.map((s) => `"${s.phase.name}"`).join(", ")} the machine did not keep up ` +
        "with the schedule (send lag p99 over 10 ms or the phase ran 10% over its scheduled time): requests " +
        "queued, and the latencies there measure the queue, not the interceptor.",
      "",
    )
  }
  return lines.join("\n")
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
const cpuRatio = (s: PhaseStats) => {
  const own = ownUs(s)
  const bare = bareUs(s)
  if (s.cpu === null || own === null || bare === null) return null
  const slices = s.cpu.bare.map((floor, i) => usPerCall([s.cpu!.own[i]!]) / usPerCall([floor]))
  return `${(own / bare).toFixed(2)}×, slices ${Math.min(...slices).toFixed(2)}–${Math.max(...slices).toFixed(2)}×`
}
const bareCpu = (s: PhaseStats) => {
  const bare = bareUs(s)
  return bare === null ? "–" : `${int(bare)} (${cpuRatio(s)})`
}

/** The CPU limit against the interceptor's own CPU, with the bare proxy's floor beside it. */
export const cpuTargetLine = (label: string, targetUs: number, s: PhaseStats) => {
  const own = ownUs(s)
  if (own === null) return `- ${label} ≤ ${targetUs} µs: not measured (--cpu-duration 0).`
  const bare = bareUs(s)
  const floor =
    bare === null
      ? ""
      : `; a bare proxy that only forwards used ${int(bare)} µs in the slices alternating with it (${cpuRatio(s)})`
  return `- ${label} ≤ ${targetUs} µs: ${int(own)} µs${floor} — ${verdict(own <= targetUs)}.`
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
