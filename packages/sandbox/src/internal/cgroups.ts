import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { EffectiveLimits } from "./sandboxPaths.js"

const ROOT = "/sys/fs/cgroup"
const MIB = 1024 * 1024

/**
 * cgroup v1 directories of one bubblewrap sandbox, under proctor's own cgroup in each controller (so the machine's
 * accounting of proctor still covers its sandboxes): memory and pids always, cpu when a CPU limit is set. rlimits
 * cannot stand in: RLIMIT_NPROC does not bind root, and an address-space limit is not a memory limit.
 * In this order (memory, pids, cpu) `createSandboxCgroups` makes them.
 */
export const sandboxCgroupDirs = (runId: string, sandboxId: string, limits: EffectiveLimits): Array<string> =>
  ["memory", "pids", ...(limits.cpus === undefined ? [] : ["cpu"])].map((controller) =>
    join(ROOT, controller, ownCgroup(controller), "proctor", runId, sandboxId),
  )

/** Makes the directories of `sandboxCgroupDirs` with their limits; on a failure, removes what it made. */
export const createSandboxCgroups = (dirs: ReadonlyArray<string>, limits: EffectiveLimits): void => {
  const [memory, pids, cpu] = dirs
  try {
    if (memory !== undefined) {
      mkdirSync(memory, { recursive: true })
      writeFileSync(join(memory, "memory.limit_in_bytes"), String(limits.memoryMb * MIB))
      // No swap either, where the kernel accounts it.
      const memsw = join(memory, "memory.memsw.limit_in_bytes")
      if (existsSync(memsw)) writeFileSync(memsw, String(limits.memoryMb * MIB))
    }
    if (pids !== undefined) {
      mkdirSync(pids, { recursive: true })
      writeFileSync(join(pids, "pids.max"), String(limits.pids))
    }
    if (cpu !== undefined && limits.cpus !== undefined) {
      mkdirSync(cpu, { recursive: true })
      writeFileSync(join(cpu, "cpu.cfs_period_us"), "100000")
      writeFileSync(join(cpu, "cpu.cfs_quota_us"), String(Math.max(1000, Math.round(limits.cpus * 100000))))
    }
  } catch (cause) {
    removeCgroups(dirs)
    throw cause
  }
}

const ownCgroups = new Map<string, string>()

/** This process's cgroup in a v1 controller ("/" at the root); read once per controller. */
const ownCgroup = (controller: string): string => {
  const known = ownCgroups.get(controller)
  if (known !== undefined) return known
  let own = "/"
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, path] = line.split(":")
    if (controllers?.split(",").includes(controller)) own = path ?? "/"
  }
  ownCgroups.set(controller, own)
  return own
}

/** Can this process make cgroups (root, cgroup v1 mounted)? */
export const cgroupsAvailable = (): boolean => {
  try {
    const probe = join(ROOT, "pids", ownCgroup("pids"), `proctor-probe-${process.pid}`)
    mkdirSync(probe, { recursive: true })
    rmdirSync(probe)
    return existsSync(join(ROOT, "memory", "memory.limit_in_bytes")) || existsSync(join(ROOT, "memory"))
  } catch {
    return false
  }
}

/** Pids in the sandbox's cgroups. */
export const cgroupPids = (dirs: ReadonlyArray<string>): Array<number> =>
  dirs.flatMap((dir) => {
    try {
      return readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number)
    } catch {
      return []
    }
  })

/** Removes the (empty) cgroups, and their run's directory once it holds no other sandbox. */
export const removeCgroups = (dirs: ReadonlyArray<string>): void => {
  for (const dir of dirs) {
    for (const path of [dir, join(dir, "..")]) {
      try {
        rmdirSync(path)
      } catch {
        // Still populated, or already gone.
      }
    }
  }
}
