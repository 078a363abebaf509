import { redactSecrets } from "@proctor/core"
import { Effect } from "effect"
import { formatJobDetail } from "../backend/formatJobs.js"
import { runJobsCommand } from "../backend/runJobsCommand.js"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { JobsCommonOptions } from "../program/jobs.js"

/** `proctor jobs show ID`: status, timing, config (secrets left out) and the results block. */
export const jobsShowCommand = (jobId: string, options: JobsCommonOptions, io: Io): Effect.Effect<ExitCode> =>
  runJobsCommand("show", options, io, jobId, (client) =>
    Effect.map(client.get(jobId), (job) => {
      const config = redactSecrets(job.config ?? {})
      io.stdout.write(
        options.json === true
          ? `${JSON.stringify({ ...job, config }, null, 2)}\n`
          : `${formatJobDetail(job, config)}\n`,
      )
      return ExitCode.Ok
    }),
  )
