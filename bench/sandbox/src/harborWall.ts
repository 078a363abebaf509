import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { log, median, REPO_ROOT, timedNode } from "@proctor/bench-shared"
import { BareHarbor } from "./bareHarbor.js"
import { makeHarborTasks, ORACLE_TASKS } from "./harborTasks.js"

const CLI = join(REPO_ROOT, "packages/cli/dist/bin.cjs")
const BARE_MAIN = fileURLToPath(new URL("bareHarborMain.js", import.meta.url))

export interface HarborWall {
  readonly tasks: number
  readonly concurrency: number
  readonly proctorS: Array<number>
  readonly bareS: Array<number>
  readonly proctorCpuS: Array<number>
  readonly bareCpuS: Array<number>
}

export const harborSummary = (wall: HarborWall) => {
  const proctor = median(wall.proctorS)
  const bare = median(wall.bareS)
  return { proctor, bare, ratio: proctor / bare, proctorCpu: median(wall.proctorCpuS), bareCpu: median(wall.bareCpuS) }
}

interface EvalJson {
  readonly summary: { readonly ok: number; readonly metrics: { readonly mean_score: number | null } }
}

/** `proctor eval --tasks DIR --agent oracle --sandbox docker` as a whole process; every task must score 1. */
const proctorRun = async (tasksDir: string, tasks: number, concurrency: number) => {
  const runDir = mkdtempSync(join(tmpdir(), "proctor-bench-run-"))
  try {
    const run = await timedNode([
      CLI,
      "eval",
      ...["--tasks", tasksDir, "--agent", "oracle", "--sandbox", "docker"],
      ...["--concurrency", String(concurrency), "--run-dir", join(runDir, "run"), "--json"],
    ])
    if (run.code !== 0) throw new Error(`proctor eval exited with ${run.code}:\n${run.stderrTail}`)
    const { summary } = JSON.parse(run.stdout) as EvalJson
    if (summary.ok !== tasks || summary.metrics.mean_score !== 1) {
      throw new Error(`proctor eval: ${summary.ok}/${tasks} ok, mean score ${summary.metrics.mean_score}`)
    }
    return run
  } finally {
    rmSync(runDir, { recursive: true, force: true })
  }
}

/** The bare client (bareHarborMain.js) as a whole process; every task must score 1. */
const bareRun = async (tasksDir: string, tasks: number, concurrency: number) => {
  const run = await timedNode([BARE_MAIN, tasksDir, String(concurrency)])
  if (run.code !== 0) throw new Error(`the bare client exited with ${run.code}:\n${run.stderrTail}`)
  const { rewards } = JSON.parse(run.stdout) as { rewards: Array<number> }
  if (rewards.length !== tasks || rewards.some((reward) => reward !== 1)) {
    throw new Error(`the bare client's rewards: ${JSON.stringify(rewards)}`)
  }
  return run
}

/**
 * `copies` × the oracle tasks at `concurrency`, proctor and the bare client as processes of their own, `runs`
 * times each, the order swapped every pair. Both find their image already built (`prepareProctor` builds
 * proctor's `proctor-env:<hash>`, a first bare task the bare client's), so neither run includes a build.
 */
export const harborWall = async (
  copies: number,
  concurrency: number,
  runs: number,
  prepareProctor: (context: string) => Promise<void>,
): Promise<HarborWall> => {
  const tasksDir = makeHarborTasks(copies)
  try {
    const dirs = readdirSync(tasksDir).sort()
    await prepareProctor(join(tasksDir, dirs[0] as string, "environment"))
    const bare = new BareHarbor()
    await bare.runTask(join(tasksDir, dirs[0] as string)).finally(() => bare.close())
    const wall: HarborWall = {
      tasks: dirs.length,
      concurrency,
      proctorS: [],
      bareS: [],
      proctorCpuS: [],
      bareCpuS: [],
    }
    for (let i = 0; i < runs * 2; i++) {
      const proctorTurn = i % 4 === 0 || i % 4 === 3
      if (proctorTurn) {
        const run = await proctorRun(tasksDir, dirs.length, concurrency)
        wall.proctorS.push(run.wallMs / 1000)
        wall.proctorCpuS.push(run.cpuSeconds)
      } else {
        const run = await bareRun(tasksDir, dirs.length, concurrency)
        wall.bareS.push(run.wallMs / 1000)
        wall.bareCpuS.push(run.cpuSeconds)
      }
      log(`${dirs.length} oracle tasks (${ORACLE_TASKS.length} × ${copies}): ${i + 1}/${runs * 2}`)
    }
    return wall
  } finally {
    rmSync(tasksDir, { recursive: true, force: true })
  }
}
