import { integerFlag } from "@proctor/core"
import type { Command } from "commander"
import { addFlags, choice, type FlagValues, parsed, text, toggle } from "./flagTable.js"
import { jobServerFlags, jsonFlag } from "./jobServerFlags.js"
import type { RunCommand } from "./RunCommand.js"

const common = { ...jobServerFlags, ...jsonFlag }
export type JobsCommonOptions = FlagValues<typeof common>

export const jobsListFlags = {
  ...common,
  status: text("--status <status>", "only jobs in this state (pending, running, completed, failed, cancelled)"),
  limit: parsed("--limit <n>", "jobs per page", integerFlag({ min: 1 })),
  cursor: text("--cursor <cursor>", "the page after this cursor (printed by the previous page)"),
}
export type JobsListOptions = FlagValues<typeof jobsListFlags>

export const jobsResultsFlags = {
  ...common,
  outputJson: text("--output-json <path>", "write config, results and summary JSON here"),
  outputTxt: text("--output-txt <path>", "write the config and results table here"),
  jsonl: toggle("--jsonl", "stream the result rows to stdout as JSON lines"),
  table: choice("--table <rows>", "terminal table: failures and first/last rows, or every row", ["compact", "full"]),
}
export type JobsResultsOptions = FlagValues<typeof jobsResultsFlags>

export const jobsTracesFlags = {
  ...common,
  out: text("--out <dir>", "directory for the trace files (default traces/ID)"),
}
export type JobsTracesOptions = FlagValues<typeof jobsTracesFlags>

/** Registers `proctor jobs list|show|watch|results|traces|cancel`; each action only parses and delegates. */
export const registerJobsCommands = (program: Command, run: RunCommand): void => {
  const jobs = program.command("jobs").description("eval jobs on a job server (proctor's or synth-ai's)")

  addFlags(jobs.command("list").description("list jobs: id, status, created, progress, mean"), jobsListFlags).action(
    (options: JobsListOptions) =>
      run(async (io) => (await import("../commands/jobsListCommand.js")).jobsListCommand(options, io)),
  )

  addFlags(jobs.command("show").description("a job's status, config and results block"), common)
    .argument("<id>", "job id")
    .action((id: string, options: JobsCommonOptions) =>
      run(async (io) => (await import("../commands/jobsShowCommand.js")).jobsShowCommand(id, options, io)),
    )

  addFlags(jobs.command("watch").description("follow a job live; exit 0 when it completes, 1 when it fails"), common)
    .argument("<id>", "job id")
    .action((id: string, options: JobsCommonOptions) =>
      run(async (io) => (await import("../commands/jobsWatchCommand.js")).jobsWatchCommand(id, options, io)),
    )

  addFlags(
    jobs.command("results").description("a job's results table and summary, or its output files"),
    jobsResultsFlags,
  )
    .argument("<id>", "job id")
    .action((id: string, options: JobsResultsOptions) =>
      run(async (io) => (await import("../commands/jobsResultsCommand.js")).jobsResultsCommand(id, options, io)),
    )

  addFlags(
    jobs.command("traces").description("download a job's traces as seed_{seed}_trace.json files"),
    jobsTracesFlags,
  )
    .argument("<id>", "job id")
    .action((id: string, options: JobsTracesOptions) =>
      run(async (io) => (await import("../commands/jobsTracesCommand.js")).jobsTracesCommand(id, options, io)),
    )

  addFlags(jobs.command("cancel").description("cancel a job; finished rollouts are kept"), common)
    .argument("<id>", "job id")
    .action((id: string, options: JobsCommonOptions) =>
      run(async (io) => (await import("../commands/jobsCancelCommand.js")).jobsCancelCommand(id, options, io)),
    )
}
