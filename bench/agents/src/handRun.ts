import { spawn } from "node:child_process"
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { type AgentName, agentProgram, handCommand } from "./agentPrograms.js"
import { makeHandCgroups, removeHandCgroups } from "./handLimits.js"

/** Made by bwrap itself (`/dev`, `/proc`, a fresh `/tmp`), or the task's own (`/app`, `/logs`). */
const NOT_FROM_HOST = new Set(["dev", "proc", "tmp", "app", "logs"])

/**
 * The host's top level read-only, entry by entry: under a single `--ro-bind / /` bwrap could not make the task's
 * `/app` and `/logs`.
 */
const hostRoot = () =>
  readdirSync("/").flatMap((name) => {
    const path = `/${name}`
    if (NOT_FROM_HOST.has(name)) return []
    const stat = lstatSync(path, { throwIfNoEntry: false })
    if (stat === undefined) return []
    return stat.isSymbolicLink() ? ["--symlink", readlinkSync(path), path] : ["--ro-bind", path, path]
  })

/**
 * A bubblewrap sandbox as one would write it by hand: the host's filesystem read-only, the task's `/app` and
 * `/logs` writable, a fresh `/tmp`, every namespace unshared but the network (the agent reaches the model on the
 * host's loopback directly, where proctor relays its sandbox's loopback to the interceptor).
 */
const bwrap = (
  work: string,
  extra: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>,
  argv: ReadonlyArray<string>,
) => [
  ...hostRoot(),
  ...["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"],
  ...["--bind", join(work, "app"), "/app", "--bind", join(work, "logs"), "/logs"],
  ...extra,
  ...["--unshare-all", "--share-net", "--die-with-parent", "--chdir", "/app"],
  ...["--setenv", "HOME", "/logs/agent/home", "--setenv", "SANDBOX_ROOT", ""],
  ...Object.entries(env).flatMap(([key, value]) => ["--setenv", key, value]),
  "--",
  ...argv,
]

/** Joins the cgroups, then runs the rest: how proctor puts a sandbox's commands under its limits. */
const IN_CGROUPS = 'while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; done; shift; exec "$@"'

/** Runs bwrap (in `cgroups`, when any) to its exit: its exit code and the end of what it said on stderr. */
const run = (
  args: ReadonlyArray<string>,
  cgroups: ReadonlyArray<string>,
): Promise<{ code: number | null; said: string }> =>
  new Promise((resolve, reject) => {
    const argv =
      cgroups.length === 0
        ? ["bwrap", ...args]
        : ["/bin/sh", "-c", IN_CGROUPS, "sh", ...cgroups, "--", "bwrap", ...args]
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] })
    let said = ""
    // Read, as proctor reads the agent's JSON output, and dropped.
    child.stdout.resume()
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      said = (said + chunk).slice(-2000)
    })
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, said }))
  })

/**
 * One Harbor task by hand: the agent in its sandbox, then the task's tests in another over the same files, both
 * under the task's `[environment]` limits unless `limits` is false; its reward.
 */
export const handRollout = async (
  agent: AgentName,
  taskDir: string,
  modelUrl: string,
  limits = true,
): Promise<number> => {
  const work = mkdtempSync(join(tmpdir(), "proctor-bench-hand-"))
  const cgroups = limits ? makeHandCgroups(taskDir, basename(work)) : []
  try {
    for (const dir of ["app", "logs/agent/home", "logs/verifier"]) mkdirSync(join(work, dir), { recursive: true })
    const instruction = readFileSync(join(taskDir, "instruction.md"), "utf8")
    const { argv, env } = handCommand(agent, agentProgram(agent), instruction, modelUrl)
    const ran = await run(bwrap(work, [], env, argv), cgroups)
    if (ran.code !== 0) throw new Error(`${agent} by hand exited ${ran.code}: ${ran.said}`)
    await run(bwrap(work, ["--ro-bind", join(taskDir, "tests"), "/tests"], {}, ["sh", "/tests/test.sh"]), cgroups)
    return Number(readFileSync(join(work, "logs/verifier/reward.txt"), "utf8").trim())
  } finally {
    removeHandCgroups(cgroups)
    rmSync(work, { recursive: true, force: true })
  }
}

/** The tasks of `tasksDir` by hand, one after another, as `proctor eval --concurrency 1` runs them. */
export const handRollouts = async (agent: AgentName, tasksDir: string, modelUrl: string, limits = true) => {
  const rewards: Array<number> = []
  for (const task of readdirSync(tasksDir).sort())
    rewards.push(await handRollout(agent, join(tasksDir, task), modelUrl, limits))
  return rewards
}
