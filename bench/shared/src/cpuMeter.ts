import { readFileSync } from "node:fs"
import { log, sleep } from "./cli.js"
import { cores } from "./format.js"
import { machineCpu, processCpu, QUIET_CORES, selfCpu } from "./machine.js"

export interface CpuReading {
  readonly seconds: number
  /** CPU seconds of this process (the bench: load generator, client). */
  readonly self: number
  /** CPU seconds of each process the meter was given, by pid. */
  readonly children: ReadonlyMap<number, number>
  /** Cores used by every other process on the machine: on a shared machine, the noise in every figure. */
  readonly otherCores: number
  /** Share of the time some runnable task waited for a CPU (Linux PSI, /proc/pressure/cpu "some"); null without PSI. */
  readonly cpuPressure: number | null
}

/** Microseconds some task has waited for a CPU since boot (PSI), or null where the kernel has no PSI. */
const cpuStallMicros = (): number | null => {
  try {
    const match = /^some .*total=(\d+)/m.exec(readFileSync("/proc/pressure/cpu", "utf8"))
    return match === null ? null : Number(match[1])
  } catch {
    return null
  }
}

/**
 * Starts measuring the CPU of this process, of the bench's processes `pids`, and of everybody else; the function
 * returned reads it. `extraSeconds` is CPU of ours the meter cannot see by pid (a child measured by GNU time,
 * whose node process is the grandchild).
 */
export const startCpuMeter = (pids: ReadonlyArray<number>) => {
  const busy0 = machineCpu().busy
  const self0 = selfCpu()
  const child0 = pids.map(processCpu)
  const stall0 = cpuStallMicros()
  const t0 = performance.now()
  return (extraSeconds = 0): CpuReading => {
    const seconds = (performance.now() - t0) / 1000
    const self = selfCpu() - self0
    const children = new Map(pids.map((pid, i) => [pid, processCpu(pid) - child0[i]!]))
    let ours = self + extraSeconds
    for (const s of children.values()) ours += s
    const others = machineCpu().busy - busy0 - ours
    const stall1 = cpuStallMicros()
    const cpuPressure = stall0 === null || stall1 === null ? null : (stall1 - stall0) / 1e6 / seconds
    return { seconds, self, children, otherCores: Math.max(0, others / seconds), cpuPressure }
  }
}

export interface QuietOptions {
  /** Give up (and measure anyway) after this many seconds. */
  readonly maxSeconds: number
  /** Consecutive one-second readings under QUIET_CORES that count as quiet; default 1. */
  readonly inARow?: number
}

/**
 * Waits until processes other than this bench and `pids` use under QUIET_CORES cores for `inARow` seconds, or
 * `maxSeconds` have passed (then says so); resolves with the last reading, in cores.
 */
export const waitForQuiet = async (pids: ReadonlyArray<number>, options: QuietOptions): Promise<number> => {
  const deadline = performance.now() + options.maxSeconds * 1000
  let quietSeconds = 0
  for (;;) {
    const meter = startCpuMeter(pids)
    await sleep(1000)
    const others = meter().otherCores
    quietSeconds = others < QUIET_CORES ? quietSeconds + 1 : 0
    if (quietSeconds >= (options.inARow ?? 1)) return others
    if (performance.now() >= deadline) {
      log(`  (the machine is busy: other processes use ${cores(others)} cores; measuring anyway)`)
      return others
    }
  }
}
