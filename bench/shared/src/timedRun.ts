import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { processCpu } from "./machine.js"
import { procMemory } from "./procStatus.js"

const GNU_TIME = "/usr/bin/time"

const hasGnuTime = (() => {
  if (!existsSync(GNU_TIME)) return false
  const probe = spawnSync(GNU_TIME, ["-f", "%M %U %S", "true"], { encoding: "utf8" })
  return probe.status === 0 && /^\d+ [\d.]+ [\d.]+\s*$/.test(probe.stderr)
})()

/** How `timedNode` read peak RSS, for the RESULTS.md text. */
export const PEAK_RSS_METHOD = hasGnuTime
  ? "GNU time %M (getrusage maxrss)"
  : "/proc/PID/status VmHWM polled every 50 ms"

export interface TimedRun {
  readonly code: number | null
  /** Spawn to exit. */
  readonly wallMs: number
  /** User + system CPU of the process, all its threads. */
  readonly cpuSeconds: number
  readonly peakRssBytes: number
  readonly stdout: string
  /** The last 4,000 characters of stderr. */
  readonly stderrTail: string
}

/**
 * Runs `node ARGS` to its exit, as a user runs it (output to pipes), with its wall time, CPU and peak RSS: from
 * GNU time where there is one, else by polling /proc (VmHWM is a high-water mark, so polling misses nothing).
 * `env` replaces this process's environment; `node` is another Node binary than this one (a tool that needs a
 * newer Node).
 */
export const timedNode = async (
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv = process.env,
  node: string = process.execPath,
): Promise<TimedRun> => {
  const tmp = mkdtempSync(join(tmpdir(), "proctor-bench-time-"))
  const timeFile = join(tmp, "gnu-time")
  try {
    const t0 = performance.now()
    const child = hasGnuTime
      ? spawn(GNU_TIME, ["-f", "%M %U %S", "-o", timeFile, node, ...args], {
          env,
          stdio: ["ignore", "pipe", "pipe"],
        })
      : spawn(node, [...args], { env, stdio: ["ignore", "pipe", "pipe"] })
    let polledPeak = 0
    let polledCpu = 0
    const poller = hasGnuTime
      ? null
      : setInterval(() => {
          polledPeak = Math.max(polledPeak, procMemory(child.pid!)?.hwm ?? 0)
          polledCpu = Math.max(polledCpu, processCpu(child.pid!))
        }, 50)
    let stdout = ""
    let stderrTail = ""
    child.stdout!.setEncoding("utf8").on("data", (s: string) => {
      stdout += s
    })
    child.stderr!.setEncoding("utf8").on("data", (s: string) => {
      stderrTail = (stderrTail + s).slice(-4000)
    })
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve))
    const wallMs = performance.now() - t0
    if (poller !== null) clearInterval(poller)
    if (!hasGnuTime) return { code, wallMs, cpuSeconds: polledCpu, peakRssBytes: polledPeak, stdout, stderrTail }
    const [kb, user, system] = readFileSync(timeFile, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number)
    return { code, wallMs, cpuSeconds: user! + system!, peakRssBytes: kb! * 1024, stdout, stderrTail }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
