import { formatNumber } from "@proctor/report"
import type { Job } from "./JobsWire.js"
import { jobErrorText } from "./JobsWire.js"

/** A timestamp as `YYYY-MM-DD HH:MM:SS` UTC: ISO strings and epoch seconds/milliseconds both occur. */
export const formatTimestamp = (value: string | number | null | undefined): string => {
  if (value === null || value === undefined || value === "") return "-"
  const ms = typeof value === "number" ? (value < 1e12 ? value * 1000 : value) : Date.parse(value)
  if (!Number.isFinite(ms)) return String(value)
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ")
}

export const formatProgress = (job: Job): string => {
  const done = job.results?.completed
  const total = job.results?.total
  if (done === null || done === undefined) return "-"
  return total === null || total === undefined ? String(done) : `${done}/${total}`
}

/** Rows in synth-ai's table layout (cells joined by ` | `, a `-+-` rule under the header). */
const renderTable = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths: Array<number> = []
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length)
    })
  }
  const render = (row: ReadonlyArray<string>) => row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")
  const [header, ...body] = rows
  return [render(header!), widths.map((w) => "-".repeat(w)).join("-+-"), ...body.map(render)].join("\n")
}

export const formatJobList = (jobs: ReadonlyArray<Job>): string =>
  renderTable([
    ["id", "status", "created", "progress", "mean"],
    ...jobs.map((job) => [
      job.job_id,
      job.status,
      formatTimestamp(job.created_at),
      formatProgress(job),
      formatNumber(job.results?.mean_score ?? null),
    ]),
  ])

/** Seeds as ranges, `0-283` or `0-9,20,30-39`: a job of hundreds of seeds is one line, not hundreds. */
export const seedRanges = (seeds: ReadonlyArray<number>): string => {
  const sorted = [...new Set(seeds)].sort((a, b) => a - b)
  const ranges: Array<string> = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    ranges.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`)
    i = j + 1
  }
  return ranges.join(",")
}

const isSeedList = (value: unknown): value is ReadonlyArray<number> =>
  Array.isArray(value) && value.length > 0 && value.every((seed) => Number.isInteger(seed))

/** The config with its seed list as ranges (the form `--seeds` takes). */
const withSeedRanges = (config: unknown): unknown =>
  typeof config === "object" && config !== null && isSeedList((config as { seeds?: unknown }).seeds)
    ? { ...config, seeds: seedRanges((config as { seeds: ReadonlyArray<number> }).seeds) }
    : config

/** What `jobs cancel` says: a job that had already finished is said to be, not to be cancelled. */
export const cancelText = (jobId: string, before: string, after: string): string =>
  FINISHED.has(before)
    ? `job ${jobId} had already finished (${before}); nothing to cancel`
    : `cancel requested: job ${jobId} is ${after}`

const FINISHED: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"])

/** `jobs show`: status and timing, then the config, then the results block. */
export const formatJobDetail = (job: Job, config: unknown): string => {
  const error = jobErrorText(job.error)
  const results = job.results
  const lines = [
    `job       ${job.job_id}`,
    `status    ${job.status}${error === null ? "" : ` (${error})`}`,
    `created   ${formatTimestamp(job.created_at)}`,
    `started   ${formatTimestamp(job.started_at)}`,
    `completed ${formatTimestamp(job.completed_at)}`,
    "",
    "Config",
    JSON.stringify(withSeedRanges(config) ?? {}, null, 2),
    "",
    "Results",
    `  progress        ${formatProgress(job)}`,
    `  mean_score      ${formatNumber(results?.mean_score ?? null)}`,
    `  total_tokens    ${formatNumber(results?.total_tokens ?? null)}`,
    `  total_cost_usd  ${formatNumber(results?.total_cost_usd ?? null)}`,
  ]
  return lines.join("\n")
}
