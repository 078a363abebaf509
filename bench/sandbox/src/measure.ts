import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { CLK_TCK, median, percentiles } from "@proctor/bench-shared"

/** One alternating comparison: each pair runs proctor's and the bare client's version once, first one then the other. */
export interface Pairs {
  readonly proctorMs: Array<number>
  readonly bareMs: Array<number>
}

/** What a run returns when only a part of it counts (a sandbox's start, not its teardown). */
export interface PartTime {
  readonly partMs: number
}

const isPartTime = (value: unknown): value is PartTime =>
  typeof value === "object" && value !== null && typeof (value as PartTime).partMs === "number"

/** Times `run`: its whole length, or the part it says counted. */
export const timeIt = async (run: () => Promise<unknown>): Promise<number> => {
  const started = performance.now()
  const result = await run()
  return isPartTime(result) ? result.partMs : performance.now() - started
}

/** `pairs` pairs after `warmup` unrecorded ones, the order swapped every pair so drift hits both sides alike. */
export const alternate = async (
  pairs: number,
  warmup: number,
  proctor: () => Promise<unknown>,
  bare: () => Promise<unknown>,
  progress: (done: number) => void,
): Promise<Pairs> => {
  const result: Pairs = { proctorMs: [], bareMs: [] }
  for (let i = 0; i < warmup + pairs; i++) {
    const first = i % 2 === 0 ? proctor : bare
    const second = i % 2 === 0 ? bare : proctor
    const a = await timeIt(first)
    const b = await timeIt(second)
    if (i < warmup) continue
    result.proctorMs.push(i % 2 === 0 ? a : b)
    result.bareMs.push(i % 2 === 0 ? b : a)
    progress(i - warmup + 1)
  }
  return result
}

export const summarize = (pairs: Pairs) => {
  const proctor = percentiles(pairs.proctorMs)
  const bare = percentiles(pairs.bareMs)
  return {
    proctor,
    bare,
    ratio: proctor.p50 / bare.p50,
    pairRatio: median(pairs.proctorMs.map((p, i) => p / (pairs.bareMs[i] as number))),
  }
}

/** Spawns a process and resolves when it exits 0. */
export const run = (argv: ReadonlyArray<string>): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: "ignore" })
    child.once("error", reject)
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(" ")} exited ${code}`))))
  })

/** CPU seconds of this process and of its reaped children (bwrap, nsenter, tar: the helpers a runtime spawns). */
export const cpuSeconds = (): { self: number; children: number } => {
  const stat = readFileSync("/proc/self/stat", "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  const usage = process.cpuUsage()
  return {
    self: (usage.user + usage.system) / 1e6,
    children: (Number(fields[13]) + Number(fields[14])) / CLK_TCK,
  }
}

/** Resident memory after a full GC (node --expose-gc), in MiB. */
export const settledRssMb = (): number => {
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().rss / 2 ** 20
}
