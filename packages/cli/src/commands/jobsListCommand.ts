import { Effect } from "effect"
import { formatJobList } from "../backend/formatJobs.js"
import { runJobsCommand, sameServerFlags } from "../backend/runJobsCommand.js"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { proctorCommand } from "../invocation.js"
import type { JobsListOptions } from "../program/jobs.js"

/** `proctor jobs list`: the caller's jobs, newest first as the server orders them, one page at a time. */
export const jobsListCommand = (options: JobsListOptions, io: Io): Effect.Effect<ExitCode> =>
  runJobsCommand("list", options, io, undefined, (client) =>
    Effect.gen(function* () {
      const page = yield* client.list({ status: options.status, limit: options.limit, cursor: options.cursor })
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(page, null, 2)}\n`)
        return ExitCode.Ok
      }
      io.stdout.write(page.jobs.length === 0 ? "no jobs\n" : `${formatJobList(page.jobs)}\n`)
      const next = page.next_cursor
      if (next !== null && next !== undefined && next !== "") {
        const filters = [
          ...(options.status === undefined ? [] : ["--status", options.status]),
          ...(options.limit === undefined ? [] : ["--limit", String(options.limit)]),
        ]
        io.stdout.write(
          `more: ${proctorCommand("jobs", "list", "--cursor", String(next), ...filters, ...sameServerFlags(options))}\n`,
        )
      }
      return ExitCode.Ok
    }),
  )
