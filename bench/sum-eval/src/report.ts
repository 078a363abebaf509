import { relative } from "node:path"
import {
  cores,
  type DiscardedAttempt,
  discardedList,
  invokedWith,
  machineDescription,
  measuredAt,
  median,
  PEAK_RSS_METHOD,
  QUIET_CORES,
  REPO_ROOT,
  ratio,
  verdict,
} from "@proctor/bench-shared"
import type { Sample } from "./measurements.js"
import type { Promptfoo } from "./promptfoo.js"
import { sectionText } from "./section.js"
import {
  BARE_LOOP_TARGET,
  CLI_BIN,
  CONCURRENCY,
  MODEL_LATENCY_MS,
  PROMPTFOO_DIR,
  PROMPTFOO_TARGET,
  PROMPTS,
  QUIET_WAIT_S,
  RETRIES,
  ROUNDS,
  RSS_TARGET_MB,
  SECTION,
} from "./settings.js"

export interface Round {
  readonly bare: Sample
  /** The bare loop with the model behind the bare proxy: the least an intercepting eval takes. */
  readonly proxied: Sample
  readonly proctor: Sample
  readonly promptfoo: Sample | null
}

export interface RunInfo {
  readonly startedAt: Date
  readonly proctor: string
  readonly promptfoo: Promptfoo | null
  readonly loadBefore: string
  readonly loadAfter: string
}

const secs = (ms: number) => (ms / 1000).toFixed(2)

export const renderSection = (
  rounds: ReadonlyArray<Round>,
  discarded: ReadonlyArray<DiscardedAttempt>,
  info: RunInfo,
): string => {
  const rows: Array<{ label: string; samples: ReadonlyArray<Sample> }> = [
    { label: "bare loop (`bareLoop.js`)", samples: rounds.map((r) => r.bare) },
    { label: "bare loop, model behind a bare proxy (`bareProxyMain.js`)", samples: rounds.map((r) => r.proxied) },
    { label: "`proctor eval` (interception on)", samples: rounds.map((r) => r.proctor) },
  ]
  const promptfooSamples = rounds.flatMap((r) => (r.promptfoo === null ? [] : [r.promptfoo]))
  if (info.promptfoo !== null) {
    rows.push({ label: `\`promptfoo eval\` ${info.promptfoo.version}`, samples: promptfooSamples })
  }
  const med = (samples: ReadonlyArray<Sample>, f: (s: Sample) => number) => median(samples.map(f))
  const bareWall = med(rows[0]!.samples, (s) => s.wallMs)
  const proxiedWall = med(rows[1]!.samples, (s) => s.wallMs)
  const proctorWall = med(rows[2]!.samples, (s) => s.wallMs)
  const proctorRss = med(rows[2]!.samples, (s) => s.rssMb)
  const tableRows = rows.map(({ label, samples }) => {
    const wall = med(samples, (s) => s.wallMs)
    const walls = samples.map((s) => s.wallMs)
    return `| ${label} | ${secs(wall)} | ${secs(Math.min(...walls))}–${secs(Math.max(...walls))} | ${ratio(wall / bareWall)} | ${secs(med(samples, (s) => s.cpuMs))} | ${secs(med(samples, (s) => s.serversCpuMs))} | ${secs(med(samples, (s) => s.cpuMs + s.serversCpuMs))} | ${med(samples, (s) => s.rssMb).toFixed(1)} | ${med(samples, (s) => s.score).toFixed(3)} | ${cores(med(samples, (s) => s.otherCores))} |`
  })
  const promptfooWall = info.promptfoo === null ? 0 : med(promptfooSamples, (s) => s.wallMs)
  const asked = promptfooWall / PROMPTFOO_TARGET
  const all = rounds.flatMap((r) => [r.bare, r.proxied, r.proctor, ...(r.promptfoo === null ? [] : [r.promptfoo])])
  const disturbed = all.filter((s) => s.otherCores > QUIET_CORES).length
  return sectionText({
    settings: {
      section: SECTION,
      prompts: PROMPTS,
      concurrency: CONCURRENCY,
      modelLatencyMs: MODEL_LATENCY_MS,
      rounds: ROUNDS,
      peakRssMethod: PEAK_RSS_METHOD,
      quietWaitS: QUIET_WAIT_S,
      quietCores: QUIET_CORES,
      retries: RETRIES,
      bareLoopTarget: BARE_LOOP_TARGET,
      promptfooTarget: PROMPTFOO_TARGET,
      rssTargetMb: RSS_TARGET_MB,
    },
    measuredAt: measuredAt(info.startedAt),
    invokedWith: invokedWith(),
    proctor: info.proctor,
    cli: relative(REPO_ROOT, CLI_BIN),
    machine: machineDescription(),
    loadBefore: info.loadBefore,
    loadAfter: info.loadAfter,
    tableRows,
    perRound: rounds
      .map(
        (r, i) =>
          `round ${i + 1}: ${[r.bare, r.proxied, r.proctor, r.promptfoo].flatMap((s) => (s === null ? [] : [`${secs(s.wallMs)} s`])).join(" · ")}`,
      )
      .join("; "),
    proctorVsBare: ratio(proctorWall / bareWall),
    proctorWallS: secs(proctorWall),
    bareWallS: secs(bareWall),
    bareLoopVerdict: verdict(proctorWall <= BARE_LOOP_TARGET * bareWall),
    proxiedVsBare: ratio(proxiedWall / bareWall),
    proxiedWallS: secs(proxiedWall),
    proctorVsProxied: ratio(proctorWall / proxiedWall),
    proctorRssMb: proctorRss.toFixed(1),
    rssVerdict: verdict(proctorRss <= RSS_TARGET_MB),
    promptfoo:
      info.promptfoo === null || PROMPTFOO_DIR === undefined
        ? null
        : {
            dir: PROMPTFOO_DIR,
            version: info.promptfoo.version,
            node: info.promptfoo.node,
            vsProctor: ratio(promptfooWall / proctorWall),
            wallS: secs(promptfooWall),
            verdict: verdict(promptfooWall >= PROMPTFOO_TARGET * proctorWall),
            // The bare loops are the least any client takes to drive this task app and model here.
            bound:
              asked < Math.min(bareWall, proxiedWall) * 1.1
                ? { askedS: secs(asked), vsBare: ratio(promptfooWall / bareWall) }
                : null,
          },
    discarded: discarded.length === 0 ? null : discardedList(discarded),
    disturbed: disturbed === 0 ? null : { count: disturbed, kept: all.length },
  })
}
