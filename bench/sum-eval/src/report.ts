import { relative } from "node:path"
import {
  cores,
  type DiscardedAttempt,
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
  const table = rows.map(({ label, samples }) => {
    const wall = med(samples, (s) => s.wallMs)
    const walls = samples.map((s) => s.wallMs)
    return `| ${label} | ${secs(wall)} | ${secs(Math.min(...walls))}–${secs(Math.max(...walls))} | ${ratio(wall / bareWall)} | ${secs(med(samples, (s) => s.cpuMs))} | ${secs(med(samples, (s) => s.serversCpuMs))} | ${secs(med(samples, (s) => s.cpuMs + s.serversCpuMs))} | ${med(samples, (s) => s.rssMb).toFixed(1)} | ${med(samples, (s) => s.score).toFixed(3)} | ${cores(med(samples, (s) => s.otherCores))} |`
  })
  const cli = relative(REPO_ROOT, CLI_BIN)
  const bareTarget =
    `- \`proctor eval\` within ${BARE_LOOP_TARGET}× the bare loop's wall time: ${ratio(proctorWall / bareWall)} (${secs(proctorWall)} s against ${secs(bareWall)} s) — ${verdict(proctorWall <= BARE_LOOP_TARGET * bareWall)}. ` +
    `The bare loop with its model calls through a bare proxy, the least an intercepting eval takes here, is ${ratio(proxiedWall / bareWall)} the bare loop (${secs(proxiedWall)} s); \`proctor eval\` is ${ratio(proctorWall / proxiedWall)} that.`
  const promptfooTarget =
    info.promptfoo === null
      ? `- ≥ ${PROMPTFOO_TARGET}× faster than promptfoo: **not measured** (no \`--promptfoo DIR\`).`
      : (() => {
          const wall = med(promptfooSamples, (s) => s.wallMs)
          const asked = wall / PROMPTFOO_TARGET
          // The bare loops are the least any client takes to drive this task app and model here.
          const fastestBare = Math.min(bareWall, proxiedWall)
          const bound =
            asked < fastestBare * 1.1
              ? ` The limit asks for ${secs(asked)} s, about what the bare loop itself takes here (${secs(bareWall)} s; ` +
                `${secs(proxiedWall)} s through the bare proxy): the bare loop is ${ratio(wall / bareWall)} faster than promptfoo.`
              : ""
          return `- ≥ ${PROMPTFOO_TARGET}× faster than promptfoo: ${ratio(wall / proctorWall)} (promptfoo ${secs(wall)} s) — ${verdict(wall >= PROMPTFOO_TARGET * proctorWall)}.${bound}`
        })()
  const rssTarget = `- \`proctor eval\` peak RSS ≤ ${RSS_TARGET_MB} MB: ${proctorRss.toFixed(1)} MB — ${verdict(proctorRss <= RSS_TARGET_MB)}.`
  const all = rounds.flatMap((r) => [r.bare, r.proxied, r.proctor, ...(r.promptfoo === null ? [] : [r.promptfoo])])
  const disturbed = all.filter((s) => s.otherCores > QUIET_CORES).length
  const perRound = rounds.map(
    (r, i) =>
      `round ${i + 1}: ${[r.bare, r.proxied, r.proctor, r.promptfoo].flatMap((s) => (s === null ? [] : [`${secs(s.wallMs)} s`])).join(" · ")}`,
  )
  return [
    SECTION,
    "",
    `Measured ${measuredAt(info.startedAt)} UTC with \`npx -y pnpm@10 run bench:sum-eval${PROMPTFOO_DIR === undefined ? "" : ` -- --promptfoo ${PROMPTFOO_DIR}`}\` (bench/sum-eval)` +
      (invokedWith() === "" ? "" : ` as \`node bench/sum-eval/dist/main.js ${invokedWith()}\``) +
      `; proctor at ${info.proctor}` +
      (info.promptfoo === null
        ? "; promptfoo not measured (give `--promptfoo DIR`, a directory where `npm i promptfoo node@22` ran)."
        : `; promptfoo ${info.promptfoo.version} on its own Node 22 (\`${info.promptfoo.node}\`).`),
    "",
    "Commands measured, each a whole process (spawn to exit) on 127.0.0.1:",
    "",
    "```sh",
    `node bench/sum-eval/dist/bareLoop.js --app APP --model-url MODEL/v1 --model baseline --prompts ${PROMPTS} --concurrency ${CONCURRENCY}`,
    `node bench/sum-eval/dist/bareLoop.js --app APP --model-url PROXY/v1 --model baseline --prompts ${PROMPTS} --concurrency ${CONCURRENCY}   # PROXY: node bench/sum-eval/dist/bareProxyMain.js MODEL/v1`,
    `node ${cli} eval sum --url APP --seeds 0-${PROMPTS - 1} --concurrency ${CONCURRENCY} --model baseline --inference-url MODEL/v1 --run-dir NEW --json`,
    ...(info.promptfoo === null
      ? []
      : [
          `PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_DISABLE_SHARING=1 PROMPTFOO_DISABLE_REMOTE_GENERATION=1 PROMPTFOO_FAILED_TEST_EXIT_CODE=0 \\`,
          `  node22 promptfoo eval -c promptfooconfig.yaml -j ${CONCURRENCY} --no-cache`,
        ]),
    "```",
    "",
    `Machine: ${machineDescription()}. Load average (1/5/15 min) at the start: ${info.loadBefore}; at the end: ${info.loadAfter}.`,
    "",
    `Setup: the baseline model (examples/baseline-model, \`BASELINE_LATENCY_MS=${MODEL_LATENCY_MS}\`: every answer ${MODEL_LATENCY_MS} ms late) and the sum task app (bench/sum-eval/src/sumTaskApp.ts, proctor's task-app SDK: seed N asks "What is A + B? Answer with the number only." in one chat completion and scores 1 for the sum) run as their own processes. ${PROMPTS} prompts at concurrency ${CONCURRENCY} by three clients: the *bare loop*, a small Node script POSTing /rollout for seeds 0–${PROMPTS - 1} over \`node:http\` keep-alive with \`inference_url\` pointing straight at the model (and again with the model behind a *bare proxy*, bench/shared/src/bareProxy.ts in a process of its own: node:http in, undici out, each call forwarded byte for byte and nothing recorded, its CPU counted as the command's — the least an eval that intercepts its model calls can take); \`proctor eval\`, interception on (the task app calls the model through proctor's interceptor, which records every call); and promptfoo, whose config asks the model the same ${PROMPTS} questions word for word as an OpenAI provider with \`apiBaseUrl\`, asserting \`equals\` the sum (its database in a directory of the bench's, kept across runs). All must answer every prompt, and their scores must agree. One warm-up run of each, then ${ROUNDS} rounds, each running the commands in turn; figures are medians over the rounds, ratios are to the bare loop's median. *Wall* is spawn to exit; *CPU* is the command's user + system time (all threads) and *peak RSS* its ${PEAK_RSS_METHOD}; *app + model CPU* is what the task app and the model used meanwhile, and *all CPU* the sum of the two: the work one run takes, which a busy machine disturbs far less than wall time (on 2 cores, wall cannot be under half of it). *Others* is the CPU (cores) of every other process: anything above ~0.1 slows the figures beside it on 2 shared cores. Before each run the bench waits (up to ${QUIET_WAIT_S} s) for other processes to use under ${QUIET_CORES} cores, and reruns a disturbed run up to ${RETRIES} times, keeping the least disturbed.`,
    "",
    "| command | wall (s) | range (s) | ÷ bare loop | CPU (s) | app + model CPU (s) | all CPU (s) | peak RSS (MB) | score | others (cores) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...table,
    "",
    `Wall per round (${rows.length === 4 ? "bare loop · through the bare proxy · proctor · promptfoo" : "bare loop · through the bare proxy · proctor"}): ${perRound.join("; ")}.`,
    "",
    "Limits:",
    "",
    bareTarget,
    promptfooTarget,
    rssTarget,
    ...(discarded.length === 0
      ? []
      : [
          "",
          `Discarded as disturbed: ${discarded.map((d) => `${d.label} ${d.figure} (others ${cores(d.otherCores)})`).join("; ")}.`,
        ]),
    ...(disturbed === 0
      ? []
      : [
          "",
          `${disturbed} of ${all.length} kept runs had other processes using more than ${QUIET_CORES} cores: their wall times are inflated; rerun on a quiet machine.`,
        ]),
    "",
  ].join("\n")
}
