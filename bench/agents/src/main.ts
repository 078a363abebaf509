/**
 * agents: proctor's added time per command-line agent rollout against the same agent run by hand in the same kind of
 * sandbox (bubblewrap), on the baseline model: `proctor eval --tasks --agent codex|claude-code --sandbox bwrap` as a
 * whole process against `handMain.ts` (the agent's program with the same flags in a hand-written `bwrap`, its base
 * URL straight at the model, then the task's tests), both over `--copies` copies of `examples/tasks/hello-file`, one
 * after another, `--runs` times each, alternating. Target: ≤ 1.1× per rollout.
 *
 * Writes the `## agents` section of bench/RESULTS.md (other sections are kept) unless `--no-write`.
 *
 * Flags: --copies N (default 4), --runs N (default 3), --agents codex,claude-code (default both), --no-write.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import {
  argNumber,
  argString,
  describeProctor,
  fillTemplate,
  invokedWith,
  loads,
  log,
  machineDescription,
  measuredAt,
  median,
  POSITIVE_INTEGER,
  printed,
  publishSection,
  REPO_ROOT,
  ratio,
  readTemplates,
  startProcess,
  timedNode,
  verdict,
} from "@proctor/bench-shared"
import { AGENTS, type AgentName } from "./agentPrograms.js"
import { handLimitsHeld } from "./handLimits.js"

const COPIES = argNumber("--copies", 4, POSITIVE_INTEGER)
const RUNS = argNumber("--runs", 3, POSITIVE_INTEGER)
const ONLY = argString("--agents")?.split(",") ?? AGENTS
const TARGET = 1.1
const SECTION = "## agents"
const CLI = join(REPO_ROOT, "packages/cli/dist/bin.cjs")
const BASELINE_MAIN = join(REPO_ROOT, "examples/baseline-model/dist/main.js")
const HAND_MAIN = fileURLToPath(new URL("handMain.js", import.meta.url))
const templates = readTemplates(new URL("../templates/", import.meta.url), ["section"])

interface Side {
  readonly wallS: Array<number>
  readonly cpuS: Array<number>
}

const makeTasks = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "proctor-bench-agent-tasks-"))
  for (let i = 0; i < COPIES; i++) {
    cpSync(join(REPO_ROOT, "examples/tasks/hello-file"), join(dir, `hello-file-${String(i).padStart(2, "0")}`), {
      recursive: true,
    })
  }
  return dir
}

interface EvalJson {
  readonly summary: { readonly ok: number; readonly metrics: { readonly mean_score: number | null } }
}

const proctorRun = async (agent: AgentName, tasksDir: string, modelUrl: string) => {
  const runDir = mkdtempSync(join(tmpdir(), "proctor-bench-agent-run-"))
  try {
    const run = await timedNode([
      CLI,
      "eval",
      ...["--tasks", tasksDir, "--agent", agent, "--sandbox", "bwrap", "--model", "baseline"],
      ...["--inference-url", modelUrl, "--concurrency", "1", "--max-retries", "0"],
      ...["--run-dir", join(runDir, "run"), "--json"],
    ])
    if (run.code !== 0) throw new Error(`proctor eval --agent ${agent} exited with ${run.code}:\n${run.stderrTail}`)
    const { summary } = JSON.parse(run.stdout) as EvalJson
    if (summary.ok !== COPIES || summary.metrics.mean_score !== 1) {
      throw new Error(
        `proctor eval --agent ${agent}: ${summary.ok}/${COPIES} ok, mean score ${summary.metrics.mean_score}`,
      )
    }
    return run
  } finally {
    rmSync(runDir, { recursive: true, force: true })
  }
}

/** By hand, under the task's limits (as proctor's sandbox holds them) unless `limits` is false. */
const handRun = async (agent: AgentName, tasksDir: string, modelUrl: string, limits = true) => {
  const run = await timedNode([HAND_MAIN, agent, tasksDir, modelUrl, ...(limits ? [] : ["--no-limits"])])
  if (run.code !== 0) throw new Error(`${agent} by hand exited with ${run.code}:\n${run.stderrTail}`)
  const { rewards } = JSON.parse(run.stdout) as { rewards: Array<number> }
  if (rewards.length !== COPIES || rewards.some((reward) => reward !== 1)) {
    throw new Error(`${agent} by hand: rewards ${JSON.stringify(rewards)}`)
  }
  return run
}

const main = async () => {
  const startedAt = new Date()
  const loadBefore = loads()
  const model = await startProcess({
    what: "the baseline model",
    script: BASELINE_MAIN,
    env: { ...process.env, PORT: "0" },
    ready: printed(/listening on (http\S+)/),
  })
  const tasksDir = makeTasks()
  const rows: Array<string> = []
  try {
    for (const agent of AGENTS.filter((name) => ONLY.includes(name))) {
      // One unrecorded run of each: the agent's program and proctor's files come into the page cache.
      await proctorRun(agent, tasksDir, model.ready)
      await handRun(agent, tasksDir, model.ready)
      const proctor: Side = { wallS: [], cpuS: [] }
      const hand: Side = { wallS: [], cpuS: [] }
      const unlimited: Side = { wallS: [], cpuS: [] }
      for (let i = 0; i < RUNS * 2; i++) {
        const proctorTurn = i % 4 === 0 || i % 4 === 3
        const run = proctorTurn
          ? await proctorRun(agent, tasksDir, model.ready)
          : await handRun(agent, tasksDir, model.ready)
        const side = proctorTurn ? proctor : hand
        side.wallS.push(run.wallMs / 1000)
        side.cpuS.push(run.cpuSeconds)
        log(
          `${agent}: ${proctorTurn ? "proctor" : "by hand"} ${(run.wallMs / 1000).toFixed(2)} s (${i + 1}/${RUNS * 2})`,
        )
        if (i % 2 === 1) {
          // What the task's limits cost: the same by hand without them, once per pair.
          const free = await handRun(agent, tasksDir, model.ready, false)
          unlimited.wallS.push(free.wallMs / 1000)
          unlimited.cpuS.push(free.cpuSeconds)
        }
      }
      const perRollout = (side: Side) => median(side.wallS) / COPIES
      const x = perRollout(proctor) / perRollout(hand)
      rows.push(
        `| ${agent} | ${perRollout(proctor).toFixed(2)} | ${perRollout(hand).toFixed(2)} | ${ratio(x)} | ` +
          `${perRollout(unlimited).toFixed(2)} (${ratio(perRollout(proctor) / perRollout(unlimited))}) | ` +
          `${median(proctor.cpuS).toFixed(2)} | ${median(hand.cpuS).toFixed(2)} | ${verdict(x <= TARGET)} |`,
      )
    }
  } finally {
    rmSync(tasksDir, { recursive: true, force: true })
    await model.stop()
  }
  const section = fillTemplate(templates.section, {
    measured_at: measuredAt(startedAt),
    machine: machineDescription(),
    proctor: describeProctor(CLI),
    load_before: loadBefore,
    load_after: loads(),
    invoked_with: invokedWith(),
    copies: COPIES,
    runs: RUNS,
    target: TARGET,
    limits: handLimitsHeld()
      ? "the task's `[environment]` limits (1 CPU, 256 MB) held by cgroups as proctor holds them on its sandbox"
      : "no limits: this machine gives the bench no cgroups (not root, or no cgroup v1), where proctor's sandbox has rlimits",
    rows: rows.join("\n"),
  })
  publishSection(SECTION, section)
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:agents failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
