import {
  cores,
  type Figures,
  int,
  invokedWith,
  linearFit,
  median,
  mib,
  ms,
  type ProctorRun,
  ratio,
  runFigures,
  verdict,
} from "@proctor/bench-shared"
import type { BigJobResult, Checkpoint, MemorySample } from "./bigJob.js"
import type { LoadResult } from "./hammer.js"
import { roundLabel, sectionText } from "./section.js"
import {
  AFTER_GC_SETTLE_MS,
  BIG_CONCURRENCY,
  BIG_STATUS_DURATION_S,
  CONNECTIONS,
  DURATION_S,
  FLAT_FRACTION,
  PIPELINING,
  SECTION,
  SERVER_VS_CLI_TARGET,
  SMALL_SEEDS,
  SQLITE_PAGE_CACHE_BYTES,
  TARGET_RATIO,
  TARGET_RPS,
  WARMUP_S,
} from "./settings.js"

export const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}`

export interface Round {
  readonly server: LoadResult
  readonly bare: LoadResult
  readonly serverFirst: boolean
}

export interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
  readonly statusBytes: number
}

/** Rows of fitted growth: least-squares slope of RSS over rows, in MiB per 100,000 rows. */
export const slopePer100k = (samples: ReadonlyArray<MemorySample>) => {
  if (samples.length < 3) return Number.NaN
  const fit = linearFit(
    samples.map((s) => s.rows),
    samples.map((s) => s.rss),
  )
  return (fit.slope * 100_000) / 2 ** 20
}

/** At most `max` samples, evenly spaced, always keeping the first, the last and the highest. */
export const thin = (samples: ReadonlyArray<MemorySample>, max: number): ReadonlyArray<MemorySample> => {
  if (samples.length <= max) return samples
  let peak = 0
  for (let i = 1; i < samples.length; i++) if (samples[i]!.rss > samples[peak]!.rss) peak = i
  const picked = new Set<number>([0, samples.length - 1, peak])
  for (let k = 1; k < max - 2; k++) picked.add(Math.round((k * (samples.length - 1)) / (max - 2)))
  return [...picked].sort((a, b) => a - b).map((i) => samples[i]!)
}

export const renderSection = (
  rounds: ReadonlyArray<Round>,
  running: LoadResult,
  big: BigJobResult | null,
  cli: ProctorRun | null,
  info: RunInfo,
): string => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const med = (pick: (r: Round) => number) => median(rounds.map(pick))
  const serverRps = med((r) => r.server.rps)
  const bareRps = med((r) => r.bare.rps)
  const others = [
    ...rounds.flatMap((r) => [r.server.otherCores, r.bare.otherCores]),
    ...(big === null ? [] : [big.otherCores, ...big.streams.map((s) => s.otherCores)]),
  ]
  const maxOthers = Math.max(0, ...others)
  return sectionText({
    invokedWith: invokedWith(),
    throughput: {
      section: SECTION,
      ...runFigures(info),
      small_seeds: SMALL_SEEDS,
      duration_s: DURATION_S,
      connections: CONNECTIONS,
      pipelining: PIPELINING,
      status_bytes: int(info.statusBytes),
      warmup_s: WARMUP_S,
      rounds: rounds.length,
      round_rows: [
        ...rounds.map((r, i) =>
          row([
            roundLabel(i, r.serverFirst),
            int(r.server.rps),
            `${ms(r.server.latency.p50)} / ${ms(r.server.latency.p99)}`,
            int(r.bare.rps),
            `${ms(r.bare.latency.p50)} / ${ms(r.bare.latency.p99)}`,
            ratio(r.server.rps / r.bare.rps),
            `${int(r.server.serverCpuUs)} / ${int(r.bare.serverCpuUs)}`,
            `${cores(r.server.otherCores)} / ${cores(r.bare.otherCores)}`,
          ]),
        ),
        row([
          "**median**",
          `**${int(serverRps)}**`,
          `${ms(med((r) => r.server.latency.p50))} / ${ms(med((r) => r.server.latency.p99))}`,
          int(bareRps),
          `${ms(med((r) => r.bare.latency.p50))} / ${ms(med((r) => r.bare.latency.p99))}`,
          `**${ratio(serverRps / bareRps)}**`,
          `${int(med((r) => r.server.serverCpuUs))} / ${int(med((r) => r.bare.serverCpuUs))}`,
          "",
        ]),
      ].join("\n"),
      round_ratios: rounds.map((r) => ratio(r.server.rps / r.bare.rps)).join(", "),
      client_cpu_us_server: int(med((r) => r.server.clientCpuUs)),
      client_cpu_us_bare: int(med((r) => r.bare.clientCpuUs)),
      running_rps: int(running.rps),
      running_p50_ms: ms(running.latency.p50),
      running_p99_ms: ms(running.latency.p99),
      running_cpu_us: int(running.serverCpuUs),
      running_others: cores(running.otherCores),
      target_rps: int(TARGET_RPS),
      server_rps: int(serverRps),
      rps_verdict: verdict(serverRps >= TARGET_RPS),
      target_ratio: TARGET_RATIO,
      server_vs_bare: ratio(serverRps / bareRps),
      ratio_verdict: verdict(serverRps / bareRps >= TARGET_RATIO),
    },
    bigJob: big === null ? null : { figures: bigJobFigures(big), streams: big.streams.length },
    againstCli: big === null || cli === null ? null : againstCliFigures(big, cli),
    maxOthers: maxOthers > 0.1 ? cores(maxOthers) : null,
  })
}

const bigJobFigures = (big: BigJobResult): Figures => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const runPeak = Math.max(...big.samples.map((s) => s.rss))
  // The job's JSONL is the text of every row: a server that kept the rows would hold at least that much.
  const rowBytes = big.streams[0]?.bytes ?? 0
  const allowance = FLAT_FRACTION * rowBytes
  const warm = big.samples.filter((s) => s.rows >= big.seeds / 10)
  const runSlope = slopePer100k(warm)
  const runGrowth = runPeak - big.rssStart
  /** Growth over `fraction` of the job's rows, fitted over the post-GC checkpoints at or after `from` × rows, in bytes. */
  const fittedGrowth = (from: number, pick: (c: Checkpoint) => number) => {
    const points = big.checkpoints.filter((c) => c.rows >= from * big.seeds)
    if (points.length < 3) return Number.NaN
    const fit = linearFit(
      points.map((c) => c.rows),
      points.map(pick),
    )
    return fit.slope * big.seeds * (1 - from)
  }
  const heapFitted = fittedGrowth(0.1, (c) => c.heapUsed)
  const rssFitted = fittedGrowth(0.1, (c) => c.proc.rss)
  const rssSecondHalf = fittedGrowth(0.5, (c) => c.proc.rss)
  // Post-GC RSS moves by several MiB between checkpoints (pages V8 and malloc keep or give back), so over half the
  // rows it gets the whole allowance; the heap, a precise figure, is held to it over the whole job.
  const runFlat = heapFitted < allowance && rssSecondHalf < allowance
  const streamGrowths = big.streams.map((s) => s.peakRss - s.rssBefore)
  // When the server has given pages back while idle (after the post-job GC, or between streams), a stream reads the
  // table back into SQLite's page cache: bounded, so each stream may grow by the allowance plus that cache. What the
  // streams may not do is take the server above its post-job level, or drift upwards from one to the next.
  const streamPeak = Math.max(...big.streams.map((s) => s.peakRss))
  const aboveJob = streamPeak - big.afterGc.proc.rss
  const firstStream = big.streams[0]
  const lastStream = big.streams[big.streams.length - 1]
  const drift = firstStream === undefined || lastStream === undefined ? 0 : lastStream.rssAfter - firstStream.rssAfter
  const streamFlat =
    big.streams.every((s, i) => s.rows === big.seeds && streamGrowths[i]! < allowance + SQLITE_PAGE_CACHE_BYTES) &&
    aboveJob < allowance &&
    drift < allowance
  const firstPolls = big.polls.slice(0, Math.max(1, Math.floor(big.polls.length / 10)))
  const lastPolls = big.polls.slice(-Math.max(1, Math.floor(big.polls.length / 10)))
  return {
    seeds: int(big.seeds),
    big_concurrency: BIG_CONCURRENCY,
    submit_s: big.submitSeconds.toFixed(2),
    server_s: big.serverSeconds.toFixed(1),
    rollouts_per_s: int(big.seeds / big.serverSeconds),
    client_s: big.clientSeconds.toFixed(1),
    mean_score: String(big.meanScore),
    server_cpu_us: int((big.serverCpuS / big.seeds) * 1e6),
    task_app_cpu_us: int((big.taskAppCpuS / big.seeds) * 1e6),
    others: cores(big.otherCores),
    first_polls_ms: ms(median(firstPolls.map((p) => p.ms))),
    last_polls_ms: ms(median(lastPolls.map((p) => p.ms))),
    samples_shown: Math.min(12, big.samples.length),
    samples: big.samples.length,
    sample_rows: thin(big.samples, 12)
      .map((s) => row([s.t.toFixed(0), int(s.rows), mib(s.rss), mib(s.hwm)]))
      .join("\n"),
    after_gc_settle_ms: AFTER_GC_SETTLE_MS,
    checkpoint_rows: big.checkpoints
      .map((c) =>
        row([
          int(c.rows),
          mib(c.rssBeforeGc),
          mib(c.proc.rss),
          mib(c.proc.anon),
          mib(c.proc.fileAndShmem),
          mib(c.heapUsed),
          mib(c.heapTotal),
          mib(c.external),
        ]),
      )
      .join("\n"),
    rss_start: mib(big.rssStart),
    run_peak: mib(runPeak),
    run_growth: signed(runGrowth / 2 ** 20),
    rss_end: mib(big.rssEnd),
    warm_rows: int(big.seeds / 10),
    run_slope: signed(runSlope),
    heap_before: mib(big.beforeGc.heapUsed),
    rss_before: mib(big.beforeGc.proc.rss),
    heap_after: mib(big.afterGc.heapUsed),
    rss_after: mib(big.afterGc.proc.rss),
    stream_rows: big.streams
      .map((s, i) =>
        row([
          String(i + 1),
          int(s.rows),
          mib(s.bytes),
          s.seconds.toFixed(2),
          int(s.rows / s.seconds),
          mib(s.rssBefore),
          `**${mib(s.peakRss)}**`,
          mib(s.rssAfter),
          signed(streamGrowths[i]! / 2 ** 20),
          `${mib(s.afterGc.heapUsed)} / ${mib(s.afterGc.proc.rss)}`,
          mib(s.samples[s.samples.length - 1]!.hwm),
          int(s.serverCpuUs),
          cores(s.otherCores),
        ]),
      )
      .join("\n"),
    stream_peak: mib(streamPeak),
    rss_final: mib(big.streams[big.streams.length - 1]?.rssAfter ?? big.rssEnd),
    hwm_end: mib(big.hwmEnd),
    status_duration_s: BIG_STATUS_DURATION_S,
    status_bytes: int(big.statusBytes),
    status_rps: int(big.statusLoad.rps),
    status_p50_ms: ms(big.statusLoad.latency.p50),
    status_p99_ms: ms(big.statusLoad.latency.p99),
    status_cpu_us: int(big.statusLoad.serverCpuUs),
    flat_percent: FLAT_FRACTION * 100,
    row_mib: mib(rowBytes),
    allowance_mib: mib(allowance),
    page_cache_mib: mib(SQLITE_PAGE_CACHE_BYTES),
    heap_fitted: signed(heapFitted / 2 ** 20),
    rss_second_half: signed(rssSecondHalf / 2 ** 20),
    run_verdict: verdict(runFlat),
    rss_fitted: signed(rssFitted / 2 ** 20),
    series_growth: signed((runSlope * big.seeds) / 100_000),
    above_job: signed(aboveJob / 2 ** 20),
    drift: signed(drift / 2 ** 20),
    stream_growths: streamGrowths.map((g) => `${signed(g / 2 ** 20)} MiB`).join(", "),
    stream_verdict: verdict(streamFlat),
  }
}

/** The embedded server against `proctor eval` on the same job: the same seeds, concurrency and task app. */
const againstCliFigures = (big: BigJobResult, cli: ProctorRun): Figures => {
  const serverRate = big.seeds / big.serverSeconds
  const versus = serverRate / cli.inRunThroughput
  return {
    last_seed: big.seeds - 1,
    big_concurrency: BIG_CONCURRENCY,
    in_run: int(cli.inRunThroughput),
    whole: int(cli.wallThroughput),
    cpu_us: int((cli.cpuSeconds / cli.seeds) * 1e6),
    others: cores(cli.otherCores),
    target: SERVER_VS_CLI_TARGET,
    server_rate: int(serverRate),
    versus: ratio(versus),
    verdict: verdict(versus >= SERVER_VS_CLI_TARGET),
  }
}
