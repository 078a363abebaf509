import {
  cores,
  type DiscardedAttempt,
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
  const lines = [
    SECTION,
    "",
    `Measured ${measuredAt(info.startedAt)} UTC with ` +
      `\`npx -y pnpm@10 run bench:runner\` (bench/runner-overhead)` +
      (invokedWith() === "" ? "" : ` as \`node bench/runner-overhead/dist/main.js ${invokedWith()}\``) +
      `; proctor at ${info.proctor}.`,
    "",
    `Machine: ${machineDescription()}. The task app and the client share the cores. ` +
      `Load average (1/5/15 min) at the start: ${info.loadBefore}; at the end: ${info.loadAfter}.`,
    "",
    `Setup: a zero-work task app on bare \`node:http\` in its own process on 127.0.0.1; ${int(ROLLOUTS)} POST /rollout ` +
      `per measurement at concurrency ${CONCURRENCY}, with the body proctor sends (built and serialised per request) ` +
      `and the answer JSON-parsed and checked. Warm-up: ${int(WARMUP)} requests through each bare loop and one ` +
      `small \`proctor eval\`. Then ${ROUNDS} rounds, each running four measurements against the same ` +
      "server process: the two bare loops in the bench's process, then a pair of whole processes — the node:http " +
      "loop as a script of its own (`bareLoopProcess.js`, node: modules only) and `proctor eval` (`--json`, " +
      "`--run-dir` in a temp dir) — in the other order each round. *in-run* is proctor's `summary.throughput_per_s`; " +
      "*whole process* is seeds ÷ wall time from spawn to exit (Node start-up, for proctor also config, preflight, " +
      "reading the journal back and printing). Before each measurement " +
      `the bench waits (up to ${QUIET_WAIT_S} s) for other processes to use under ${QUIET_CORES} cores; ` +
      "*others* is the CPU (in cores) that processes other than the client and the task app used during the " +
      "measurement — anything above ~0.1 means the figures next to it are depressed by competition for the 2 cores. " +
      `A measurement disturbed by more than ${QUIET_CORES} cores is run again (up to ${RETRIES} times) and the ` +
      "least disturbed attempt is kept; the discarded attempts are listed below the targets.",
    "",
    "| round | bare undici Pool (/s) | bare node:http keep-alive (/s) | proctor in-run (/s) | " +
      "whole processes, first of the pair | bare node:http loop, whole process (/s) | proctor whole process (/s) | " +
      "proctor ÷ bare, whole processes | wall time (s): bare / proctor | peak RSS (MB): bare / proctor | " +
      "others (cores): undici / node:http / bare process / proctor |",
    "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
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
    "",
    "Ratios (medians):",
    "",
    "| | ÷ bare undici Pool | ÷ bare node:http keep-alive |",
    "|---|---:|---:|",
    row("proctor in-run", [ratio(inVsUndici), ratio(inVsNode)]),
    row("proctor whole process", [ratio(mWall / mUndici), ratio(mWall / mNode)]),
    row("proctor in-run, each round against the loops run just before it", [
      rounds.map((r) => ratio(r.proctor.inRunThroughput / r.undici.throughput)).join(", "),
      rounds.map((r) => ratio(r.proctor.inRunThroughput / r.nodeHttp.throughput)).join(", "),
    ]),
    "",
    "Client CPU per rollout (µs, medians; user + system of the client process — for proctor the whole process, " +
      "startup and read-back included): " +
      `bare undici ${micros(
        med((r) => r.undici.cpuSeconds),
        ROLLOUTS,
      )}, ` +
      `bare node:http ${micros(
        med((r) => r.nodeHttp.cpuSeconds),
        ROLLOUTS,
      )} (as a whole process ${micros(
        med((r) => r.nodeHttpProcess.cpuSeconds),
        ROLLOUTS,
      )}), ` +
      `proctor eval ${micros(
        med((r) => r.proctor.cpuSeconds),
        ROLLOUTS,
      )}.`,
    "",
    `Peak RSS of \`proctor eval\` at concurrency ${CONCURRENCY} (${PEAK_RSS_METHOD}):`,
    "",
    "| seeds | peak RSS (MB) | in-run (/s) | whole process (/s) | wall (s) | CPU µs per rollout | others (cores) |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    ...rss.map((r) =>
      row(int(r.seeds), [
        `**${mb(r.peakRssMb)}**`,
        int(r.inRunThroughput),
        int(r.wallThroughput),
        secs(r.wallSeconds),
        micros(r.cpuSeconds, r.seeds),
        cores(r.otherCores),
      ]),
    ),
    "",
    "Targets:",
    "",
    `- proctor in-run ≥ ${THROUGHPUT_TARGET}× the bare keep-alive loop (node:http): ${ratio(inVsNode)} — ` +
      `${verdict(inVsNode >= THROUGHPUT_TARGET)}. Against the bare undici Pool loop (stricter): ${ratio(inVsUndici)} — ` +
      `${inVsUndici >= THROUGHPUT_TARGET ? "also met" : "not met"}.` +
      (disturbed === 0
        ? ""
        : ` Not reliable: ${disturbed} of the ${keptCount} kept throughput measurements were disturbed by other ` +
          `processes (others > ${QUIET_CORES} cores), which can move these ratios either way; rerun on a quiet machine.`),
    `- proctor eval, whole process, ≥ ${WHOLE_PROCESS_TARGET}× the bare node:http loop as a whole process (median of ` +
      `the ${rounds.length} pairs' ratios, ${pairRatios.map(ratio).join(", ")}): ${ratio(wholeVsBare)} — ` +
      `${verdict(wholeVsBare >= WHOLE_PROCESS_TARGET)}.`,
    ...rss.map(
      (r) =>
        `- peak RSS ≤ ${RSS_TARGET_MB} MB for ${int(r.seeds)} seeds: ${mb(r.peakRssMb)} MB — ` +
        `${verdict(r.peakRssMb <= RSS_TARGET_MB)}.`,
    ),
    ...(discarded.length === 0
      ? []
      : [
          "",
          `Discarded attempts (disturbed by other processes; ${discarded.length}): ` +
            discarded.map((d) => `${d.label} ${d.figure} (others ${cores(d.otherCores)})`).join("; ") +
            ".",
        ]),
    ...(maxOthers > 0.1
      ? [
          "",
          `Other processes used up to ${cores(maxOthers)} cores during some measurements: absolute rates are ` +
            "depressed there; the ratios, taken between alternating measurements, are the steadier figure.",
        ]
      : []),
    "",
  ]
  return lines.join("\n")
}
