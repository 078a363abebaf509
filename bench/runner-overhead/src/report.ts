import {
  cores,
  type DiscardedAttempt,
  int,
  invokedWith,
  machineDescription,
  measuredAt,
  median,
  PEAK_RSS_METHOD,
  QUIET_CORES,
  ratio,
  verdict,
} from "@proctor/bench-shared"
import type { LoopRun } from "./bareLoops.js"
import type { ProctorRun } from "./proctorRun.js"
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
} from "./settings.js"

const secs = (x: number) => x.toFixed(2)
const mb = (x: number) => x.toFixed(1)
const micros = (seconds: number, n: number) => int((seconds / n) * 1e6)

export interface Round {
  readonly undici: LoopRun
  readonly nodeHttp: LoopRun
  readonly proctor: ProctorRun
}

export interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly loadBefore: string
  readonly loadAfter: string
}

export const renderSection = (
  rounds: ReadonlyArray<Round>,
  rss: ProctorRun,
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
  const maxOthers = Math.max(
    ...rounds.flatMap((r) => [r.undici.otherCores, r.nodeHttp.otherCores, r.proctor.otherCores]),
    rss.otherCores,
  )
  const kept = rounds.flatMap((r) => [r.undici.otherCores, r.nodeHttp.otherCores, r.proctor.otherCores])
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
      `small \`proctor eval\`. Then ${ROUNDS} rounds, each running the three measurements in turn against the same ` +
      "server process. `proctor eval` runs as a child process (`--json`, `--run-dir` in a temp dir): " +
      "*in-run* is its `summary.throughput_per_s`; *whole process* is seeds ÷ wall time from spawn to exit " +
      "(Node startup, config, preflight, the run, reading the journal back, printing). Before each measurement " +
      `the bench waits (up to ${QUIET_WAIT_S} s) for other processes to use under ${QUIET_CORES} cores; ` +
      "*others* is the CPU (in cores) that processes other than the client and the task app used during the " +
      "measurement — anything above ~0.1 means the figures next to it are depressed by competition for the 2 cores. " +
      `A measurement disturbed by more than ${QUIET_CORES} cores is run again (up to ${RETRIES} times) and the ` +
      "least disturbed attempt is kept; the discarded attempts are listed below the targets.",
    "",
    "| round | bare undici Pool (/s) | bare node:http keep-alive (/s) | proctor in-run (/s) | " +
      "proctor whole process (/s) | proctor wall time (s) | proctor peak RSS (MB) | others (cores): undici / node:http / proctor |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rounds.map((r, i) =>
      row(String(i + 1), [
        int(r.undici.throughput),
        int(r.nodeHttp.throughput),
        int(r.proctor.inRunThroughput),
        int(r.proctor.wallThroughput),
        secs(r.proctor.wallSeconds),
        mb(r.proctor.peakRssMb),
        `${cores(r.undici.otherCores)} / ${cores(r.nodeHttp.otherCores)} / ${cores(r.proctor.otherCores)}`,
      ]),
    ),
    row("**median**", [
      int(mUndici),
      int(mNode),
      int(mIn),
      int(mWall),
      secs(med((r) => r.proctor.wallSeconds)),
      mb(med((r) => r.proctor.peakRssMb)),
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
      )}, ` +
      `proctor eval ${micros(
        med((r) => r.proctor.cpuSeconds),
        ROLLOUTS,
      )}.`,
    "",
    `Peak RSS of \`proctor eval\` with ${int(rss.seeds)} seeds at concurrency ${CONCURRENCY}: ` +
      `**${mb(rss.peakRssMb)} MB** (${PEAK_RSS_METHOD}); in-run ${int(rss.inRunThroughput)}/s, whole process ` +
      `${int(rss.wallThroughput)}/s (${secs(rss.wallSeconds)} s wall, ${micros(rss.cpuSeconds, rss.seeds)} µs CPU ` +
      `per rollout, others ${cores(rss.otherCores)} cores).`,
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
    `- peak RSS ≤ ${RSS_TARGET_MB} MB for ${int(rss.seeds)} seeds: ${mb(rss.peakRssMb)} MB — ` +
      `${verdict(rss.peakRssMb <= RSS_TARGET_MB)}.`,
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
