/**
 * async-rollouts: proctor polling task-app rollouts that run in the background (the async form of `POST /rollout`).
 * A task app on proctor's SDK with `rolloutMode: "async"` (its own process, src/asyncTaskApp.ts) runs `--rollouts`
 * rollouts (default 1,000) that take between `--min-s` and `--max-s` seconds (default 2 and 30), all in flight at
 * once (`proctor eval --concurrency` = the rollout count). The app times when each rollout finished and when a poll
 * first told proctor so. Targets: a result is known within one poll interval of the app finishing it (the delay is
 * at most the gap between that rollout's last two polls, and at most the schedule's longest gap, 5 s), and no
 * rollout is polled more than once a second (the smallest gap between two polls of one rollout ≥ 1 s).
 *
 * Flags: --rollouts N, --min-s N, --max-s N, --cli PATH (another build of proctor's `bin.cjs`),
 * --proctor-label TEXT, --no-write (print the section only).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import {
  argNumber,
  argString,
  describeProctor,
  invokedWith,
  jsonLine,
  loads,
  log,
  mib,
  ms,
  POSITIVE_INTEGER,
  percentiles,
  publishSection,
  startProcess,
  timedNode,
  verdict,
} from "@proctor/bench-shared"
import { BENCH_KEY } from "./benchKey.js"
import type { RolloutTimings } from "./RolloutTimings.js"

const ROLLOUTS = argNumber("--rollouts", 1_000, POSITIVE_INTEGER)
const MIN_S = argNumber("--min-s", 2)
const MAX_S = argNumber("--max-s", 30)
/** proctor's longest gap between two polls of a rollout (`PollSchedule.MAX_INTERVAL_MS`). */
const MAX_INTERVAL_MS = 5_000
const MIN_GAP_MS = 1_000

const SECTION = "## async-rollouts"
const TASK_APP = fileURLToPath(new URL("asyncTaskApp.js", import.meta.url))
const CLI = resolve(argString("--cli") ?? fileURLToPath(new URL("bin.cjs", import.meta.resolve("proctor"))))

interface Measured {
  readonly timings: ReadonlyArray<RolloutTimings>
  readonly wallS: number
  readonly cpuS: number
  readonly peakRssBytes: number
  readonly ok: number
}

const measure = async (): Promise<Measured> => {
  const app = await startProcess({
    what: "the async task app",
    script: TASK_APP,
    args: [String(MIN_S), String(MAX_S)],
    stdinPipe: true,
    ready: jsonLine<{ port: number }>(),
    stopWith: (child) => void child.stdin!.end(),
  })
  const url = `http://127.0.0.1:${app.ready.port}`
  const tmp = mkdtempSync(join(tmpdir(), "proctor-async-bench-"))
  try {
    const run = await timedNode(
      [
        ...[CLI, "eval", "--url", url, "--seeds", `0-${ROLLOUTS - 1}`, "--concurrency", String(ROLLOUTS)],
        ...[
          "--timeout",
          String(MAX_S * 4),
          "--max-retries",
          "0",
          "--run-dir",
          join(tmp, "run"),
          "--json",
          "--no-intercept",
        ],
      ],
      { ...process.env, ENVIRONMENT_API_KEY: BENCH_KEY },
    )
    const { summary } = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as { summary: { ok: number } }
    const timings = (await (await fetch(`${url}/bench/stats`)).json()) as ReadonlyArray<RolloutTimings>
    return { timings, wallS: run.wallMs / 1000, cpuS: run.cpuSeconds, peakRssBytes: run.peakRssBytes, ok: summary.ok }
  } finally {
    await app.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

const gapsOf = (polls: ReadonlyArray<number>) => polls.slice(1).map((at, i) => at - polls[i]!)

const main = async () => {
  log(`${ROLLOUTS} async rollouts of ${MIN_S}-${MAX_S} s, all in flight…`)
  const m = await measure()
  const known = m.timings.filter((t) => t.knownAt !== null && t.finishedAt !== null)
  const delays = known.map((t) => t.knownAt! - t.finishedAt!)
  // The gap in effect when the rollout finished: between the poll that knew and the one before it.
  const withinInterval = known.filter((t) => {
    const gaps = gapsOf(t.polls)
    const last = gaps.at(-1) ?? Number.POSITIVE_INFINITY
    return t.knownAt! - t.finishedAt! <= last
  }).length
  const minGaps = m.timings.map((t) => Math.min(...gapsOf(t.polls))).filter(Number.isFinite)
  const smallestGap = Math.min(...minGaps)
  const polls = m.timings.reduce((sum, t) => sum + t.polls.length, 0)
  const delay = percentiles(delays)
  const firstPoll = percentiles(m.timings.filter((t) => t.polls.length > 0).map((t) => t.polls[0]! - t.startedAt))
  const quoted = invokedWith()
  const command = `npx -y pnpm@10 run bench:async-rollouts${quoted === "" ? "" : ` -- ${quoted}`}`
  const section = [
    SECTION,
    "",
    `\`${command}\` (${describeProctor(CLI)}): one \`proctor eval --no-intercept\` process, ${ROLLOUTS} rollouts in`,
    `flight against a task app on proctor's SDK in the async form (its own process) whose rollouts take ${MIN_S}-${MAX_S} s.`,
    "Delay: from the app's handler finishing to the first poll answer saying so, as the app timed both.",
    `Load average at the end (1 / 5 / 15 min): ${loads()}.`,
    "",
    "| figure | value | target |",
    "| --- | --- | --- |",
    `| rollouts ok / known | ${m.ok} / ${known.length} of ${ROLLOUTS} | all |`,
    `| delay to known, p50 / p99 / max (ms) | ${ms(delay.p50)} / ${ms(delay.p99)} / ${ms(delay.max)} | ≤ one poll interval (≤ ${MAX_INTERVAL_MS} ms) ${verdict(delay.max <= MAX_INTERVAL_MS)} |`,
    `| rollouts known within the poll interval in effect | ${withinInterval} of ${known.length} | all ${verdict(withinInterval === known.length)} |`,
    `| smallest gap between two polls of one rollout (ms) | ${ms(smallestGap)} | ≥ ${MIN_GAP_MS} ${verdict(smallestGap >= MIN_GAP_MS)} |`,
    `| most polls of one rollout per second | ${(1000 / smallestGap).toFixed(2)} | ≤ 1 |`,
    `| first poll after the 202, p50 / max (ms) | ${ms(firstPoll.p50)} / ${ms(firstPoll.max)} | 250 (schedule) |`,
    `| polls, all rollouts / per second of the run | ${polls} / ${(polls / m.wallS).toFixed(0)} | |`,
    `| proctor wall / CPU user+sys (s), peak RSS (MiB) | ${m.wallS.toFixed(1)} / ${m.cpuS.toFixed(1)}, ${mib(m.peakRssBytes)} | |`,
    "",
  ].join("\n")
  publishSection(SECTION, section)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
