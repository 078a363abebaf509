import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startCpuMeter } from "./cpuMeter.js"
import { timedNode } from "./timedRun.js"
import type { ZeroWorkTaskApp } from "./zeroWorkProcess.js"

export interface ProctorRun {
  readonly seeds: number
  /** `summary.throughput_per_s`: rollouts per second between the run's start and end. */
  readonly inRunThroughput: number
  readonly inRunSeconds: number
  /** From spawn to exit: Node startup, config, preflight, the run, reading results back, printing. */
  readonly wallSeconds: number
  readonly wallThroughput: number
  readonly peakRssMb: number
  /** User + system CPU seconds of the whole `proctor eval` process. */
  readonly cpuSeconds: number
  readonly otherCores: number
}

interface EvalJson {
  readonly summary: {
    readonly completed: number
    readonly ok: number
    readonly is_valid: boolean
    readonly duration_s: number
    readonly throughput_per_s: number | null
    readonly metrics: { readonly mean_score: number | null }
  }
}

/**
 * `proctor eval --url APP --seeds 0-(N-1) --concurrency C` (the CLI's `bin.cjs` at `cli`) as a whole process
 * against the zero-work task app, its answers checked.
 */
export const runProctorEval = async (
  cli: string,
  app: Pick<ZeroWorkTaskApp, "origin" | "pid">,
  seeds: number,
  concurrency: number,
): Promise<ProctorRun> => {
  const tmp = mkdtempSync(join(tmpdir(), "proctor-bench-"))
  try {
    const meter = startCpuMeter([app.pid])
    const run = await timedNode([
      cli,
      "eval",
      ...["--url", app.origin, "--seeds", `0-${seeds - 1}`, "--concurrency", String(concurrency)],
      ...["--run-dir", join(tmp, "run"), "--json"],
      // the zero-work task app calls no model
      "--no-intercept",
    ])
    if (run.code !== 0) throw new Error(`proctor eval exited with ${run.code}:\n${run.stderrTail}`)
    const { summary } = JSON.parse(run.stdout) as EvalJson
    if (summary.ok !== seeds || !summary.is_valid || summary.throughput_per_s === null) {
      throw new Error(`proctor eval did not complete every rollout: ${JSON.stringify(summary).slice(0, 500)}`)
    }
    const mean = summary.metrics.mean_score
    if (mean === null || Math.abs(mean - Math.floor(seeds / 2) / seeds) > 1e-9) {
      throw new Error(`unexpected mean score ${mean}`)
    }
    const wallSeconds = run.wallMs / 1000
    return {
      seeds,
      inRunThroughput: summary.throughput_per_s,
      inRunSeconds: summary.duration_s,
      wallSeconds,
      wallThroughput: seeds / wallSeconds,
      peakRssMb: run.peakRssBytes / 2 ** 20,
      cpuSeconds: run.cpuSeconds,
      otherCores: meter(run.cpuSeconds).otherCores,
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
