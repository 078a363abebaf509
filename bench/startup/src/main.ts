/**
 * startup: how long proctor takes to start, do a small thing and exit, as a whole process.
 *
 * With the math task app and the baseline model already running (each its own process, started once before
 * timing), spawns, in turn and --runs times each:
 *   1. `node -e 0` (the floor: Node's own start-up on this machine, in the same run),
 *   2. `node packages/cli/dist/bin.cjs --help`,
 *   3. `node packages/cli/dist/bin.cjs eval --config EVAL.toml --run-dir NEW` for one seed of the math example
 *      against the baseline model, interception on (the default),
 *   4. the same eval with `--no-intercept`, to show what interception costs (a run of one rollout serves the
 *      interceptor on its main thread: packages/cli/src/interception.ts).
 * Each spawn runs under GNU time for its CPU (user + system) and peak RSS; wall time is spawn to exit. Writes
 * the `## startup` section of bench/RESULTS.md (other sections are kept).
 *
 * Flags: --runs N (default 20), --no-write, --cli PATH (another build's `bin.cjs`), --proctor-label TEXT,
 * --quiet-wait SECONDS (how long to wait for the machine to go quiet before the runs; default 60).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import {
  argNumber,
  argString,
  cores,
  describeProctor,
  loads,
  log,
  machineDescription,
  measuredAt,
  median,
  POSITIVE_INTEGER,
  printed,
  publishSection,
  QUIET_CORES,
  REPO_ROOT,
  ratio,
  startCpuMeter,
  startProcess,
  timedNode,
  verdict,
  waitForQuiet,
} from "@proctor/bench-shared"

const RUNS = argNumber("--runs", 20, POSITIVE_INTEGER)
const QUIET_WAIT_S = argNumber("--quiet-wait", 60)
const CLI_BIN = resolve(argString("--cli") ?? fileURLToPath(new URL("bin.cjs", import.meta.resolve("proctor"))))
const SECTION = "## startup"
const HELP_WALL_TARGET_MS = 150
const HELP_RSS_TARGET_MB = 60
const EVAL_WALL_TARGET_MS = 500

/** Node parses the certificates NODE_EXTRA_CA_CERTS names as it starts, in every process: part of the floor. */
const caCertsNote = (): string => {
  const file = process.env.NODE_EXTRA_CA_CERTS
  if (file === undefined || file === "") return ""
  const count = readFileSync(file, "utf8").split("BEGIN CERTIFICATE").length - 1
  return ` NODE_EXTRA_CA_CERTS names ${count} certificates, which every Node process here parses at start-up (\`node -e 0\` included).`
}

/** An example's `dist/main.js` on a free port, its own process; ready with the URL it prints once it listens. */
const startExample = (script: string) =>
  startProcess({
    what: script,
    script: join(REPO_ROOT, script),
    env: { ...process.env, PORT: "0" },
    ready: printed(/listening on (http:\/\/\S+)/),
  })

interface Sample {
  readonly wallMs: number
  readonly cpuMs: number
  readonly rssMb: number
  /** CPU (cores) that processes other than this bench, the child and the two examples used meanwhile. */
  readonly others: number
}

/** This environment without NODE_EXTRA_CA_CERTS: Node as it starts on a machine that does not set it. */
const withoutExtraCaCerts = (): NodeJS.ProcessEnv => {
  const { NODE_EXTRA_CA_CERTS: _, ...env } = process.env
  return env
}

/** Runs `node ARGS` to completion (output to a pipe); fails the bench if it does not exit 0. */
const measure = async (
  { args, env }: { readonly args: () => ReadonlyArray<string>; readonly env?: NodeJS.ProcessEnv },
  examplePids: ReadonlyArray<number>,
): Promise<Sample> => {
  const meter = startCpuMeter(examplePids)
  const argv = args()
  const run = await timedNode(argv, env)
  if (run.code !== 0) throw new Error(`node ${argv.join(" ")} exited ${run.code}:\n${run.stderrTail}`)
  const others = meter(run.cpuSeconds).otherCores
  return { wallMs: run.wallMs, cpuMs: run.cpuSeconds * 1000, rssMb: run.peakRssBytes / 2 ** 20, others }
}

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), "proctor-startup-"))
  const model = await startExample("examples/baseline-model/dist/main.js")
  // Both the app and proctor read ENVIRONMENT_API_KEY from this environment: set or not, they agree.
  const math = await startExample("examples/math/dist/main.js")
  const modelUrl = model.ready
  const mathUrl = math.ready
  const config = join(work, "eval.toml")
  writeFileSync(
    config,
    [
      "[eval]",
      'app_id = "math"',
      `url = "${mathUrl}"`,
      'seeds = "0"',
      'model = "baseline"',
      "[eval.policy_config]",
      `inference_url = "${modelUrl}"`,
      "temperature = 0",
      "",
    ].join("\n"),
  )
  let runDirs = 0
  const evalArgs =
    (...extra: Array<string>) =>
    () => [CLI_BIN, "eval", "--config", config, "--run-dir", join(work, `run-${runDirs++}`), ...extra]
  const commands: Array<{ label: string; args: () => ReadonlyArray<string>; env?: NodeJS.ProcessEnv }> = [
    { label: "`node -e 0`", args: () => ["-e", "0"] },
    { label: "`proctor --help`", args: () => [CLI_BIN, "--help"] },
    { label: "`proctor eval` (1 seed, interception on)", args: evalArgs() },
    { label: "`proctor eval` (1 seed, `--no-intercept`)", args: evalArgs("--no-intercept") },
  ]
  if (caCertsNote() !== "") {
    const env = withoutExtraCaCerts()
    commands.push(
      { label: "`node -e 0`, without NODE_EXTRA_CA_CERTS", args: () => ["-e", "0"], env },
      { label: "`proctor --help`, without NODE_EXTRA_CA_CERTS", args: () => [CLI_BIN, "--help"], env },
      { label: "`proctor eval` (1 seed, interception on), without NODE_EXTRA_CA_CERTS", args: evalArgs(), env },
    )
  }
  const pids = [model.pid, math.pid]
  const samples = commands.map(() => [] as Array<Sample>)
  const loadBefore = loads()
  const startedAt = new Date()
  try {
    // Warm-up: the page cache holds every file after one run of each; a failing command stops the bench here.
    for (const command of commands) await measure(command, pids)
    const othersBefore = await waitForQuiet(pids, { maxSeconds: QUIET_WAIT_S })
    log(`others at the start: ${cores(othersBefore)} cores; ${RUNS} runs of ${commands.length} commands`)
    for (let run = 0; run < RUNS; run++) {
      for (const [i, command] of commands.entries()) samples[i]!.push(await measure(command, pids))
      log(`run ${run + 1}/${RUNS}: ${samples.map((s) => `${s.at(-1)!.wallMs.toFixed(0)} ms`).join(" · ")}`)
    }
  } finally {
    await Promise.all([model.stop(), math.stop()])
    rmSync(work, { recursive: true, force: true })
  }

  const med = (i: number, f: (s: Sample) => number) => median(samples[i]!.map(f))
  // Each environment's rows start with `node -e 0`, the floor of the rows after it: `--help`, then the eval.
  const floorOf = (i: number) => commands.findIndex((command) => command.env === commands[i]!.env)
  const rows = commands.map((command, i) => {
    const wall = med(i, (s) => s.wallMs)
    const rss = med(i, (s) => s.rssMb)
    const floor = floorOf(i)
    return `| ${command.label} | ${wall.toFixed(0)} | ${ratio(wall / med(floor, (s) => s.wallMs))} | ${med(i, (s) => s.cpuMs).toFixed(0)} | ${rss.toFixed(1)} | ${ratio(rss / med(floor, (s) => s.rssMb))} | ${cores(med(i, (s) => s.others))} |`
  })
  /** The three targets, for the rows after the floor at `floor` (`--help`, then the eval with interception). */
  const targets = (floor: number, where: string) => {
    const help = floor + 1
    const floorWall = med(floor, (s) => s.wallMs)
    const helpWall = med(help, (s) => s.wallMs)
    const helpRss = med(help, (s) => s.rssMb)
    const evalWall = med(help + 1, (s) => s.wallMs)
    return [
      `- \`proctor --help\` ≤ ${HELP_WALL_TARGET_MS} ms${where}: ${helpWall.toFixed(0)} ms (${ratio(helpWall / floorWall)} \`node -e 0\`, which took ${floorWall.toFixed(0)} ms) — ${verdict(helpWall <= HELP_WALL_TARGET_MS)}.`,
      `- \`proctor --help\` peak RSS ≤ ${HELP_RSS_TARGET_MB} MB${where}: ${helpRss.toFixed(1)} MB (${ratio(helpRss / med(floor, (s) => s.rssMb))} \`node -e 0\`) — ${verdict(helpRss <= HELP_RSS_TARGET_MB)}.`,
      `- one-seed eval of the math example, interception on, ≤ ${EVAL_WALL_TARGET_MS} ms wall${where}: ${evalWall.toFixed(0)} ms (${ratio(evalWall / floorWall)} \`node -e 0\`) — ${verdict(evalWall <= EVAL_WALL_TARGET_MS)}.`,
    ]
  }
  const withoutCerts = commands.findIndex((command) => command.env !== undefined)
  const disturbed = samples.some((s) => median(s.map((x) => x.others)) > QUIET_CORES)
  const section = [
    SECTION,
    "",
    `Measured ${measuredAt(startedAt)} UTC with \`npx -y pnpm@10 run bench:startup\` (bench/startup); proctor at ${describeProctor(CLI_BIN)}.`,
    "",
    `Machine: ${machineDescription()}. Load average (1/5/15 min) at the start: ${loadBefore}; at the end: ${loads()}.${caCertsNote()}`,
    "",
    `Setup: the math task app and the baseline model (examples/, each its own process on 127.0.0.1) are started once before timing. Then ${RUNS} rounds, each spawning in turn \`node -e 0\`, \`node packages/cli/dist/bin.cjs --help\`, and \`node packages/cli/dist/bin.cjs eval --config EVAL.toml --run-dir NEW\` for seed 0 of the math example against the baseline model (\`model = "baseline"\`, \`policy_config.inference_url\` = the model), with interception on (the default; a run of one rollout serves the interceptor on its main thread) and with \`--no-intercept\`; output goes to a pipe, as in a script. Each process runs under GNU time: *CPU* is its user + system time (all threads), *peak RSS* is \`%M\` (getrusage maxrss); *wall* is spawn to exit, start-up and shutdown included. Figures are medians of the ${RUNS} runs; ratios are to \`node -e 0\` in the same run. *Others* is the CPU (in cores) that processes other than the bench, the child and the two examples used while it ran — anything above ~0.1 slows the figures beside it on 2 shared cores.`,
    "",
    "| command | wall (ms) | ÷ `node -e 0` | CPU (ms) | peak RSS (MB) | ÷ `node -e 0` | others (cores) |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    "Targets:",
    "",
    ...targets(0, ""),
    ...(withoutCerts === -1
      ? []
      : ["", "Without NODE_EXTRA_CA_CERTS:", "", ...targets(withoutCerts, ", without NODE_EXTRA_CA_CERTS")]),
    ...(disturbed
      ? [
          "",
          `Other processes used more than ${QUIET_CORES} cores during some measurements (median *others* above): these wall times are inflated; rerun on a quiet machine.`,
        ]
      : []),
    "",
  ].join("\n")
  publishSection(SECTION, section)
}

await main()
