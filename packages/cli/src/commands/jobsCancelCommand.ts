import { Effect } from "effect"
import { cancelText } from "../backend/formatJobs.js"
import { runJobsCommand } from "../backend/runJobsCommand.js"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { JobsCommonOptions } from "../program/jobs.js"

/**
 * `proctor jobs cancel ID`: asks the server to stop the job. Finished rollouts are kept there; cancelling a
 * job that already ended is not an error (the server says what it is).
 */
export const jobsCancelCommand = (jobId: string, options: JobsCommonOptions, io: Io): Effect.Effect<ExitCode> =>
  runJobsCommand("cancel", options, io, jobId, (client) =>
    Effect.gen(function* () {
      const before = options.json === true ? null : (yield* client.get(jobId)).status
      const answer = yield* client.cancel(jobId)
      if (before === null) {
        io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`)
        return ExitCode.Ok
      }
      const status = typeof answer.status === "string" ? answer.status : (yield* client.get(jobId)).status
      io.stdout.write(`${cancelText(jobId, before, status)}\n`)
      return ExitCode.Ok
    }),
  )
