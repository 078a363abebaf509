import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startCpuMeter, type TimedRun, timedNode } from "@proctor/bench-shared"
import { type Promptfoo, promptfooEnv, promptfooTally, writePromptfooConfig } from "./promptfoo.js"
import { CLI_BIN, CONCURRENCY, MODEL_NAME } from "./settings.js"

/** The model and the task app, each its own process, that every measured command drives. */
export interface Servers {
  readonly modelUrl: string
  readonly appUrl: string
  /** The bare proxy in front of the model (bareProxyMain.ts). */
  readonly proxy: { readonly url: string; readonly pid: number }
  /** The task app's and the model's. */
  readonly pids: ReadonlyArray<number>
  /** ENVIRONMENT_API_KEY of the task app, and of every command that calls it. */
  readonly env: NodeJS.ProcessEnv
}

/** One whole-process run of one command over the eval. */
export interface Sample {
  readonly wallMs: number
  /** User + system CPU of the command's process, all its threads (and of the bare proxy, for the run through it). */
  readonly cpuMs: number
  /** User + system CPU of the task app and the model during the run. */
  readonly serversCpuMs: number
  readonly rssMb: number
  /** The share of prompts answered right, as the command reported it. */
  readonly score: number
  /** CPU (cores) of every process other than the bench, the command, the task app and the model. */
  readonly otherCores: number
}

/** `ownPids`: processes whose CPU counts as the command's (the bare proxy, for the run through it). */
const timed = async (
  servers: Servers,
  what: string,
  run: () => Promise<TimedRun>,
  scoreOf: (run: TimedRun) => number,
  ownPids: ReadonlyArray<number> = [],
): Promise<Sample> => {
  const meter = startCpuMeter([...servers.pids, ...ownPids])
  const result = await run()
  const reading = meter(result.cpuSeconds)
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stderrTail}`)
  let serversCpu = 0
  for (const pid of servers.pids) serversCpu += reading.children.get(pid) ?? 0
  let ownCpu = result.cpuSeconds
  for (const pid of ownPids) ownCpu += reading.children.get(pid) ?? 0
  return {
    wallMs: result.wallMs,
    cpuMs: ownCpu * 1000,
    serversCpuMs: serversCpu * 1000,
    rssMb: result.peakRssBytes / 2 ** 20,
    score: scoreOf(result),
    otherCores: reading.otherCores,
  }
}

const BARE_LOOP = new URL("./bareLoop.js", import.meta.url).pathname

/** The bare loop (bareLoop.ts), its own process, with `modelUrl` as `inference_url`. */
export const bareLoopArgs = (servers: Servers, prompts: number, modelUrl = servers.modelUrl): ReadonlyArray<string> => [
  BARE_LOOP,
  ...["--app", servers.appUrl, "--model-url", modelUrl, "--model", MODEL_NAME],
  ...["--prompts", String(prompts), "--concurrency", String(CONCURRENCY)],
]

const meanScore = (run: TimedRun) => (JSON.parse(run.stdout) as { mean_score: number }).mean_score

export const runBareLoop = (servers: Servers, prompts: number): Promise<Sample> =>
  timed(servers, "the bare loop", () => timedNode(bareLoopArgs(servers, prompts), servers.env), meanScore)

/** The bare loop with the task app calling the model through the bare proxy; the proxy's CPU counts as its. */
export const runBareLoopThroughProxy = (servers: Servers, prompts: number): Promise<Sample> =>
  timed(
    servers,
    "the bare loop through the bare proxy",
    () => timedNode(bareLoopArgs(servers, prompts, `${servers.proxy.url}/v1`), servers.env),
    meanScore,
    [servers.proxy.pid],
  )

/** `proctor eval` with interception on (the default): the task app calls the model through proctor. */
export const proctorArgs = (servers: Servers, prompts: number, runDir: string): ReadonlyArray<string> => [
  CLI_BIN,
  ...["eval", "sum", "--url", servers.appUrl, "--seeds", `0-${prompts - 1}`, "--concurrency", String(CONCURRENCY)],
  ...["--model", MODEL_NAME, "--inference-url", servers.modelUrl, "--run-dir", runDir, "--json"],
]

interface EvalJson {
  readonly summary: { readonly ok: number; readonly metrics: { readonly mean_score: number | null } }
}

export const runProctor = async (servers: Servers, prompts: number): Promise<Sample> => {
  const work = mkdtempSync(join(tmpdir(), "proctor-sum-eval-"))
  try {
    return await timed(
      servers,
      "proctor eval",
      () => timedNode(proctorArgs(servers, prompts, join(work, "run")), servers.env),
      (run) => {
        const { summary } = JSON.parse(run.stdout) as EvalJson
        if (summary.ok !== prompts || summary.metrics.mean_score === null) {
          throw new Error(`proctor eval did not complete every rollout: ${JSON.stringify(summary).slice(0, 500)}`)
        }
        return summary.metrics.mean_score
      },
    )
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

export const promptfooArgs = (promptfoo: Promptfoo, config: string): ReadonlyArray<string> => [
  promptfoo.entry,
  ...["eval", "-c", config, "-j", String(CONCURRENCY), "--no-cache"],
]

/**
 * `promptfoo eval -j 32 --no-cache` over the same questions (its config written into `work` before each
 * run); its database and logs stay in `work`, kept across runs as a user's would be.
 */
export const runPromptfoo = (servers: Servers, promptfoo: Promptfoo, prompts: number, work: string) => {
  const config = join(work, `promptfooconfig-${prompts}.yaml`)
  writePromptfooConfig(config, prompts, servers.modelUrl, MODEL_NAME)
  return timed(
    servers,
    "promptfoo eval",
    () => timedNode(promptfooArgs(promptfoo, config), promptfooEnv(join(work, "promptfoo")), promptfoo.node),
    (run) => {
      const tally = promptfooTally(run.stdout)
      if (tally.errors > 0 || tally.passed + tally.failed !== prompts) {
        throw new Error(`promptfoo did not answer every prompt: ${JSON.stringify(tally)}`)
      }
      return tally.passed / prompts
    },
  )
}
