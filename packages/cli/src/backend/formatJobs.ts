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
    JSON.stringify(config ?? {}, null, 2),
    "",
    "Results",
    `  progress        ${formatProgress(job)}`,
    `  mean_score      ${formatNumber(results?.mean_score ?? null)}`,
    `  total_tokens    ${formatNumber(results?.total_tokens ?? null)}`,
    `  total_cost_usd  ${formatNumber(results?.total_cost_usd ?? null)}`,
  ]
  return lines.join("\n")
}
