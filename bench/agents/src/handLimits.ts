import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { DEFAULT_SANDBOX_LIMITS, parseHarborTaskToml } from "@proctor/core"
import { Either } from "effect"

/**
 * The task's `[environment]` limits held on the by-hand run as proctor holds them on its sandboxes (cgroup v1 under
 * this process's own cgroups: memory without swap, pids, a CPU quota), so both sides run in the same sandbox. Without
 * cgroups (not root, no v1 hierarchy) the by-hand run has no limits, and `handLimitsHeld` says so.
 */
const ROOT = "/sys/fs/cgroup"
const MIB = 1024 * 1024

const own = (controller: string): string => {
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, path] = line.split(":")
    if (controllers?.split(",").includes(controller)) return path ?? "/"
  }
  return "/"
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
  // Read as proctor reads it, defaults included.
  const file = join(taskDir, "task.toml")
  const task = parseHarborTaskToml(readFileSync(file, "utf8"), file)
  if (Either.isLeft(task)) throw new Error(task.left.message)
  const { memory_mb: memoryMb, cpus } = task.right.environment
  const dir = (controller: string) => join(ROOT, controller, own(controller), "proctor-bench-hand", name)
  const memory = dir("memory")
  mkdirSync(memory, { recursive: true })
  writeFileSync(join(memory, "memory.limit_in_bytes"), String(memoryMb * MIB))
  if (existsSync(join(memory, "memory.memsw.limit_in_bytes"))) {
    writeFileSync(join(memory, "memory.memsw.limit_in_bytes"), String(memoryMb * MIB))
  }
  const pids = dir("pids")
  mkdirSync(pids, { recursive: true })
  writeFileSync(join(pids, "pids.max"), String(DEFAULT_SANDBOX_LIMITS.pids))
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
