import { ConfigError, publicConfig } from "@proctor/core"
import type { ReportWriteError } from "@proctor/report"
import { Effect, Either } from "effect"
import { ExitCode, runExitCode } from "../exitCodes.js"
import { proctorCommand } from "../invocation.js"
import { ProgressDisplay } from "../ProgressDisplay.js"
import { printResults } from "../printResults.js"
import type { BackendEvalInput } from "./backendEval.js"
import { resolveBackend } from "./backendSettings.js"
import { describeJobsError } from "./describeJobsError.js"
import { downloadTraces } from "./downloadTraces.js"
import { fetchJobResults } from "./fetchJobResults.js"
import { detachOnSignal, followJob } from "./followJob.js"
import { JobProgressFeed } from "./JobProgressFeed.js"
import { JobsClient } from "./JobsClient.js"
import { isSuccessState, jobErrorText } from "./JobsWire.js"
import { jobSubmission, refusedAsJob } from "./jobSubmission.js"

/**
 * `proctor eval --backend URL`: submits the config direct mode would have run as a job, follows it with
 * the same progress display, and prints and writes the same table, summary and files. The first Ctrl-C
 * detaches (the job keeps running on the server) and exits 130 with the commands to watch or cancel it.
 */
export const runBackendEval = (input: BackendEvalInput): Effect.Effect<ExitCode, ConfigError | ReportWriteError> =>
  Effect.gen(function* () {
    const { loaded, options, io } = input
    if (loaded === null) {
      return yield* new ConfigError({
        reason: "InvalidValue",
        message: `--resume continues a run on this machine; a job on a server is followed with: ${proctorCommand("jobs", "watch")} ID`,
      })
    }
    const refused = refusedAsJob(loaded.config)
    if (refused !== null) return yield* new ConfigError({ reason: "InvalidValue", message: refused })
    const fromConfig = options.backend === undefined && loaded.backendUrl !== null
    const settings = yield* resolveBackend(
      fromConfig
        ? { backend: loaded.backendUrl ?? undefined, backendSource: `backend_url in ${options.config}` }
        : { backend: options.backend },
      loaded.env,
      false,
    )
    // A variable left exported must not turn every eval into a job unnoticed: say so before anything else.
    const optOut = options.backend === undefined && !fromConfig ? "; unset it to run on this machine" : ""
    io.stderr.write(`running as a job on ${settings.baseUrl} (from ${settings.source}${optOut})\n`)
    const { config } = loaded
    const planned = config.seeds.length * config.attempts

    return yield* Effect.gen(function* () {
      const client = yield* JobsClient
      // Ctrl-C detaches only while submitting and following; afterwards it interrupts as usual.
      const { jobId, outcome } = yield* Effect.scoped(
        Effect.gen(function* () {
          const detach = yield* detachOnSignal
          const submitted = yield* client.submit(jobSubmission(config))
          const jobId = submitted.job_id
          io.stderr.write(`submitted job ${jobId} to ${client.baseUrl} (${planned} rollouts)\n`)
          const display = new ProgressDisplay(io.stderr, io.stderr.isTTY === true && options.json !== true)
          const feed = new JobProgressFeed(display, jobId, planned)
          const outcome = yield* followJob(client, jobId, { onUpdate: feed.onUpdate, detach }).pipe(
            Effect.ensuring(Effect.sync(() => display.stop())),
          )
          return { jobId, outcome }
        }),
      )
      if (outcome._tag === "Detached") {
        const server = [
          "--backend",
          client.baseUrl,
          ...(options.envFile === undefined ? [] : ["--env-file", options.envFile]),
        ]
        io.stderr.write(
          `detached: job ${jobId} keeps running on the server\n` +
            `  follow it:  ${proctorCommand("jobs", "watch", jobId, ...server)}\n` +
            `  cancel it:  ${proctorCommand("jobs", "cancel", jobId, ...server)}\n`,
        )
        return ExitCode.Interrupted
      }

      const job = outcome.job
      const succeeded = isSuccessState(job.status)
      if (!succeeded) {
        const why = jobErrorText(job.error)
        io.stderr.write(`job ${jobId} ${job.status}${why === null ? "" : `: ${why}`}\n`)
      }
      const fetched = yield* Effect.either(
        fetchJobResults(client, job, {
          seeds: config.seeds,
          attempts: config.attempts,
          passThreshold: config.pass_threshold,
        }),
      )
      if (Either.isLeft(fetched)) {
        if (succeeded) return yield* fetched.left
        return ExitCode.Failed
      }
      const { results, summary, skipped } = fetched.right
      if (skipped > 0) io.stderr.write(`warning: ${skipped} result rows from the server could not be read\n`)

      const tracesDir = loaded.tracesDir
      if (tracesDir !== null) yield* downloadTraces(client, jobId, tracesDir, io.stderr)

      yield* printResults({
        config: publicConfig(config),
        summary,
        attempts: config.attempts,
        results: Effect.succeed(() => results),
        options,
        io,
        location: `job: ${jobId} (${job.status}) on ${client.baseUrl}`,
        identity: { run_id: summary.run_id, job_id: jobId, backend: client.baseUrl, status: job.status },
        tracesDir,
        stepSummary: io.env.GITHUB_STEP_SUMMARY,
      })

      return succeeded ? runExitCode(summary, input.failUnder, io.stderr) : ExitCode.Failed
    }).pipe(
      Effect.provide(JobsClient.layer(settings)),
      Effect.catchTag("JobsClientError", (error) =>
        Effect.sync(() => {
          const described = describeJobsError(error, { baseUrl: settings.baseUrl })
          io.stderr.write(`proctor eval: ${described.message}\n`)
          return described.exitCode
        }),
      ),
    )
  })
