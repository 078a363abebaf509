import {
  cores,
  type DiscardedAttempt,
  discardedList,
  int,
  invokedWith,
  machineDescription,
  measuredAt,
  median,
  PEAK_RSS_METHOD,
  type ProctorRun,
  QUIET_CORES,
  ratio,
  verdict,
} from "@proctor/bench-shared"
import type { LoopRun, WholeProcessRun } from "./bareLoops.js"
import { sectionText } from "./section.js"
import {
  CONCURRENCY,
  QUIET_WAIT_S,
  RETRIES,
  ROLLOUTS,
  ROUNDS,
  RSS_TARGET_MB,
  SECTION,
  THROUGHPUT_TARGET,
  WARMUP,
  WHOLE_PROCESS_TARGET,
} from "./settings.js"

const secs = (x: number) => x.toFixed(2)
const mb = (x: number) => x.toFixed(1)
const micros = (seconds: number, n: number) => int((seconds / n) * 1e6)

export interface Round {
  readonly undici: LoopRun
  readonly nodeHttp: LoopRun
  /** The same loop as a process of its own, beside `proctor` as a pair of whole processes. */
  readonly nodeHttpProcess: WholeProcessRun
  readonly proctor: ProctorRun
  /** Which of the pair ran first. */
  readonly bareFirst: boolean
}

export interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
}

export const renderSection = (
  rounds: ReadonlyArray<Round>,
  rss: ReadonlyArray<ProctorRun>,
  discarded: ReadonlyArray<DiscardedAttempt>,
  info: RunInfo,
): string => {
  const med = (f: (r: Round) => number) => median(rounds.map(f))
  const mUndici = med((r) => r.undici.throughput)
  const mNode = med((r) => r.nodeHttp.throughput)
  const mIn = med((r) => r.proctor.inRunThroughput)
  const mWall = med((r) => r.proctor.wallThroughput)
  const inVsNode = mIn / mNode
  const inVsUndici = mIn / mUndici
  const pairRatios = rounds.map((r) => r.proctor.wallThroughput / r.nodeHttpProcess.wallThroughput)
  const wholeVsBare = median(pairRatios)
  const othersOf = (r: Round) => [
    r.undici.otherCores,
    r.nodeHttp.otherCores,
    r.nodeHttpProcess.otherCores,
    r.proctor.otherCores,
  ]
  const maxOthers = Math.max(...rounds.flatMap(othersOf), ...rss.map((r) => r.otherCores))
  const kept = rounds.flatMap(othersOf)
  const keptCount = kept.length
  const disturbed = kept.filter((x) => x > QUIET_CORES).length
  const row = (label: string, cells: ReadonlyArray<string>) => `| ${label} | ${cells.join(" | ")} |`
  /** Client CPU per rollout (µs), median over the rounds. */
  const cpuUs = (pick: (r: Round) => number) => micros(med(pick), ROLLOUTS)
  return sectionText({
    settings: {
      section: SECTION,
      rollouts: int(ROLLOUTS),
      concurrency: CONCURRENCY,
      warmup: int(WARMUP),
      rounds: ROUNDS,
      quietWaitS: QUIET_WAIT_S,
      quietCores: QUIET_CORES,
      retries: RETRIES,
      peakRssMethod: PEAK_RSS_METHOD,
      throughputTarget: THROUGHPUT_TARGET,
      wholeProcessTarget: WHOLE_PROCESS_TARGET,
      rssTargetMb: RSS_TARGET_MB,
    },
    measuredAt: measuredAt(info.startedAt),
    invokedWith: invokedWith(),
    proctor: info.proctor,
    machine: machineDescription(),
    loadBefore: info.loadBefore,
    loadAfter: info.loadAfter,
    roundRows: [
      ...rounds.map((r, i) =>
        row(String(i + 1), [
          int(r.undici.throughput),
          int(r.nodeHttp.throughput),
          int(r.proctor.inRunThroughput),
          r.bareFirst ? "bare loop" : "proctor",
          int(r.nodeHttpProcess.wallThroughput),
          int(r.proctor.wallThroughput),
          ratio(pairRatios[i]!),
          `${secs(r.nodeHttpProcess.wallSeconds)} / ${secs(r.proctor.wallSeconds)}`,
          `${mb(r.nodeHttpProcess.peakRssMb)} / ${mb(r.proctor.peakRssMb)}`,
          othersOf(r).map(cores).join(" / "),
        ]),
      ),
      row("**median**", [
        int(mUndici),
        int(mNode),
        int(mIn),
        "",
        int(med((r) => r.nodeHttpProcess.wallThroughput)),
        int(mWall),
        ratio(wholeVsBare),
        `${secs(med((r) => r.nodeHttpProcess.wallSeconds))} / ${secs(med((r) => r.proctor.wallSeconds))}`,
        `${mb(med((r) => r.nodeHttpProcess.peakRssMb))} / ${mb(med((r) => r.proctor.peakRssMb))}`,
        "",
      ]),
    ],
    inRunVsUndici: ratio(inVsUndici),
    inRunVsNode: ratio(inVsNode),
    wholeVsUndici: ratio(mWall / mUndici),
    wholeVsNode: ratio(mWall / mNode),
    inRunVsUndiciByRound: rounds.map((r) => ratio(r.proctor.inRunThroughput / r.undici.throughput)).join(", "),
    inRunVsNodeByRound: rounds.map((r) => ratio(r.proctor.inRunThroughput / r.nodeHttp.throughput)).join(", "),
    undiciCpuUs: cpuUs((r) => r.undici.cpuSeconds),
    nodeCpuUs: cpuUs((r) => r.nodeHttp.cpuSeconds),
    nodeProcessCpuUs: cpuUs((r) => r.nodeHttpProcess.cpuSeconds),
    proctorCpuUs: cpuUs((r) => r.proctor.cpuSeconds),
    rssRows: rss.map((r) =>
      row(int(r.seeds), [
        `**${mb(r.peakRssMb)}**`,
        int(r.inRunThroughput),
        int(r.wallThroughput),
        secs(r.wallSeconds),
        micros(r.cpuSeconds, r.seeds),
        cores(r.otherCores),
      ]),
    ),
    throughputVerdict: verdict(inVsNode >= THROUGHPUT_TARGET),
    undiciMet: inVsUndici >= THROUGHPUT_TARGET,
    disturbed: disturbed === 0 ? null : { count: disturbed, kept: keptCount },
    pairs: rounds.length,
    pairRatios: pairRatios.map(ratio).join(", "),
    wholeVsBare: ratio(wholeVsBare),
    wholeProcessVerdict: verdict(wholeVsBare >= WHOLE_PROCESS_TARGET),
    rssTargets: rss.map((r) => ({
      seeds: int(r.seeds),
      peakRssMb: mb(r.peakRssMb),
      verdict: verdict(r.peakRssMb <= RSS_TARGET_MB),
    })),
    discarded: discarded.length === 0 ? null : { count: discarded.length, list: discardedList(discarded) },
    maxOthers: maxOthers > 0.1 ? cores(maxOthers) : null,
  })
}
