import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * The task's `[environment]` limits held on the by-hand run as proctor holds them on its sandboxes (cgroup v1 under
 * this process's own cgroups: memory without swap, pids, a CPU quota), so both sides run in the same sandbox. Without
 * cgroups (not root, no v1 hierarchy) the by-hand run has no limits, and `handLimitsHeld` says so.
 */
const ROOT = "/sys/fs/cgroup"
const MIB = 1024 * 1024
/** What a sandbox gets when the task sets none (proctor's DEFAULT_SANDBOX_LIMITS). */
const DEFAULTS = { memoryMb: 2048, pids: 1024 }

const own = (controller: string): string => {
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, path] = line.split(":")
    if (controllers?.split(",").includes(controller)) return path ?? "/"
  }
  return "/"
}

/** A number key of the task.toml's `[environment]` table. */
const environmentNumber = (toml: string, key: string): number | undefined => {
  const table = /^\[environment\]\s*$([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(toml)?.[1] ?? ""
  const value = new RegExp(`^${key}\\s*=\\s*([0-9.]+)`, "m").exec(table)?.[1]
  return value === undefined ? undefined : Number(value)
}

export const handLimitsHeld = (): boolean => {
  try {
    const probe = join(ROOT, "pids", own("pids"), `proctor-bench-probe-${process.pid}`)
    mkdirSync(probe, { recursive: true })
    rmdirSync(probe)
    return existsSync(join(ROOT, "memory"))
  } catch {
    return false
  }
}

/** Makes the cgroups of one by-hand run of `taskDir`; empty when cgroups are not held. */
export const makeHandCgroups = (taskDir: string, name: string): Array<string> => {
  if (!handLimitsHeld()) return []
  const toml = readFileSync(join(taskDir, "task.toml"), "utf8")
  const memoryMb = environmentNumber(toml, "memory_mb") ?? DEFAULTS.memoryMb
  const cpus = environmentNumber(toml, "cpus")
  const dir = (controller: string) => join(ROOT, controller, own(controller), "proctor-bench-hand", name)
  const memory = dir("memory")
  mkdirSync(memory, { recursive: true })
  writeFileSync(join(memory, "memory.limit_in_bytes"), String(memoryMb * MIB))
  if (existsSync(join(memory, "memory.memsw.limit_in_bytes"))) {
    writeFileSync(join(memory, "memory.memsw.limit_in_bytes"), String(memoryMb * MIB))
  }
  const pids = dir("pids")
  mkdirSync(pids, { recursive: true })
  writeFileSync(join(pids, "pids.max"), String(DEFAULTS.pids))
  if (cpus === undefined) return [memory, pids]
  const cpu = dir("cpu")
  mkdirSync(cpu, { recursive: true })
  writeFileSync(join(cpu, "cpu.cfs_period_us"), "100000")
  writeFileSync(join(cpu, "cpu.cfs_quota_us"), String(Math.max(1000, Math.round(cpus * 100000))))
  return [memory, pids, cpu]
}

export const removeHandCgroups = (dirs: ReadonlyArray<string>) => {
  for (const dir of dirs) {
    try {
      rmdirSync(dir)
    } catch {
      // Already gone.
    }
  }
}
