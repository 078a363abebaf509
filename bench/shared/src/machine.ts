import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"

/** Clock ticks per second, the unit of /proc's CPU counters. */
export const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100

/** Other processes using less than this many cores leave a measurement undisturbed. */
export const QUIET_CORES = 0.25

export const loads = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")

/** Busy and total CPU seconds of the whole machine since boot (/proc/stat). */
export const machineCpu = () => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = fields.reduce((a, b) => a + b, 0)
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0)
  return { busy: (total - idle) / CLK_TCK, total: total / CLK_TCK }
}

/** User + system CPU seconds of one process (/proc/PID/stat), 0 once it is gone. */
export const processCpu = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
  } catch {
    return 0
  }
}

/** User + system CPU seconds of this process. */
export const selfCpu = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
