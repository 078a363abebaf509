import { redactSecrets } from "@proctor/core"
import { Effect, Stream } from "effect"
import { fetchJobResults, planOfJob } from "../backend/fetchJobResults.js"
import { runJobsCommand } from "../backend/runJobsCommand.js"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import { printResults } from "../printResults.js"
import type { JobsResultsOptions } from "../program/jobs.js"

/**
 * `proctor jobs results ID`: the table and summary `proctor eval` prints, or its `--output-json` /
 * `--output-txt` files, or the raw rows as JSONL (`--jsonl`, streamed: a big job is never held in memory).
 */
export const jobsResultsCommand = (jobId: string, options: JobsResultsOptions, io: Io): Effect.Effect<ExitCode> =>
  runJobsCommand("results", options, io, jobId, (client) =>
    Effect.gen(function* () {
      if (options.jsonl === true) {
        yield* Stream.runForEach(client.resultLines(jobId), (line) => Effect.sync(() => io.stdout.write(`${line}\n`)))
        return ExitCode.Ok
      }
      const job = yield* client.get(jobId)
      const plan = planOfJob(job)
      const { results, summary, skipped } = yield* fetchJobResults(client, job, plan)
      if (skipped > 0) io.stderr.write(`warning: ${skipped} result rows from the server could not be read\n`)
      yield* printResults({
        config: redactSecrets(job.config ?? {}) as Readonly<Record<string, unknown>>,
        summary,
        attempts: plan.attempts,
        results: Effect.succeed(() => results),
        options,
        io,
        location: `job: ${jobId} (${job.status}) on ${client.baseUrl}`,
        identity: { run_id: summary.run_id, job_id: jobId, backend: client.baseUrl, status: job.status },
        tracesDir: null,
      })
      return ExitCode.Ok
    }),
  )
