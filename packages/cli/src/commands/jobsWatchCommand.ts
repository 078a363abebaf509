import { formatNumber } from "@proctor/report"
import { Effect } from "effect"
import { detachOnSignal, followJob } from "../backend/followJob.js"
import { formatProgress } from "../backend/formatJobs.js"
import { JobProgressFeed } from "../backend/JobProgressFeed.js"
import { isSuccessState, jobErrorText } from "../backend/JobsWire.js"
import { runJobsCommand, sameServerFlags } from "../backend/runJobsCommand.js"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { proctorCommand } from "../invocation.js"
import { ProgressDisplay } from "../ProgressDisplay.js"
import type { JobsCommonOptions } from "../program/jobs.js"

/**
 * `proctor jobs watch ID`: live progress until the job ends; exit 0 when it completed, 1 when it failed or
 * was cancelled. Ctrl-C stops watching (exit 130); the job keeps running.
 */
export const jobsWatchCommand = (jobId: string, options: JobsCommonOptions, io: Io): Effect.Effect<ExitCode> =>
  runJobsCommand("watch", options, io, jobId, (client) =>
    Effect.scoped(
      Effect.gen(function* () {
        const detach = yield* detachOnSignal
        const display = new ProgressDisplay(io.stderr, io.stderr.isTTY === true && options.json !== true)
        const feed = new JobProgressFeed(display, jobId, null)
        const outcome = yield* followJob(client, jobId, { onUpdate: feed.onUpdate, detach }).pipe(
          Effect.ensuring(Effect.sync(() => display.stop())),
        )
        if (outcome._tag === "Detached") {
          const cancel = proctorCommand("jobs", "cancel", jobId, ...sameServerFlags(options))
          io.stderr.write(`stopped watching: job ${jobId} keeps running (${cancel} stops it)\n`)
          return ExitCode.Interrupted
        }
        const job = outcome.job
        if (options.json === true) {
          io.stdout.write(`${JSON.stringify(job, null, 2)}\n`)
        } else {
          const error = jobErrorText(job.error)
          io.stdout.write(
            `job ${jobId} ${job.status}${error === null ? "" : `: ${error}`}  ` +
              `progress ${formatProgress(job)}  mean ${formatNumber(job.results?.mean_score ?? null)}\n`,
          )
        }
        return isSuccessState(job.status) ? ExitCode.Ok : ExitCode.Failed
      }),
    ),
  )
