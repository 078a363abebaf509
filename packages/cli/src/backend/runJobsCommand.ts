import { type ConfigError, loadEnv } from "@proctor/core"
import type { ReportWriteError } from "@proctor/report"
import { Effect } from "effect"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { JobsCommonOptions } from "../program/jobs.js"
import { resolveBackend } from "./backendSettings.js"
import { describeJobsError } from "./describeJobsError.js"
import { JobsClient, type JobsClientService } from "./JobsClient.js"
import type { JobsClientError } from "./JobsClientError.js"

/**
 * Resolves the server and key, runs `body` with a client, and turns every failure into one line on stderr
 * and an exit code (2 for the caller's mistakes, 1 for the server's), never a stack trace.
 */
export const runJobsCommand = (
  name: string,
  options: JobsCommonOptions,
  io: Io,
  jobId: string | undefined,
  body: (client: JobsClientService) => Effect.Effect<ExitCode, JobsClientError | ConfigError | ReportWriteError>,
): Effect.Effect<ExitCode> => {
  const fail = (message: string, code: ExitCode) =>
    Effect.sync(() => {
      io.stderr.write(`proctor jobs ${name}: ${message}\n`)
      return code
    })
  return Effect.gen(function* () {
    const env = yield* loadEnv({ envFile: options.envFile, env: io.env })
    const settings = yield* resolveBackend({ backend: options.backend, apiKey: options.apiKey }, env)
    return yield* Effect.flatMap(JobsClient, body).pipe(
      Effect.provide(JobsClient.layer(settings)),
      Effect.catchTag("JobsClientError", (error) => {
        const described = describeJobsError(error, { baseUrl: settings.baseUrl, jobId })
        return fail(described.message, described.exitCode)
      }),
    )
  }).pipe(
    Effect.catchTags({
      ConfigError: (error) => fail(error.message, ExitCode.Usage),
      ReportWriteError: (error) => fail(`${error.path}: ${error.message}`, ExitCode.Failed),
    }),
  )
}

/** The flags that point a hinted `proctor jobs …` command at the same server; never the key itself. */
export const sameServerFlags = (options: JobsCommonOptions): ReadonlyArray<string> => [
  ...(options.backend === undefined ? [] : ["--backend", options.backend]),
  ...(options.envFile === undefined ? [] : ["--env-file", options.envFile]),
]
