import type { ReportWriteError } from "@proctor/report"
import { Effect } from "effect"
import { extractTraces } from "./extractTraces.js"
import type { JobsClientService } from "./JobsClient.js"
import type { JobsClientError } from "./JobsClientError.js"

/**
 * Downloads a job's traces zip into `dir` as `seed_{seed}_trace.json` files. A job without traces (the
 * server answers 404) is a warning, not a failure: the results are still worth printing.
 */
export const downloadTraces = (
  client: JobsClientService,
  jobId: string,
  dir: string,
  stderr: NodeJS.WritableStream,
): Effect.Effect<ReadonlyArray<string>, JobsClientError | ReportWriteError> =>
  client.traces(jobId).pipe(
    Effect.flatMap((archive) => extractTraces(archive, dir)),
    Effect.tap((written) =>
      Effect.sync(() => {
        if (written.length === 0) stderr.write(`warning: job ${jobId} has no traces (was return_trace set?)\n`)
      }),
    ),
    Effect.catchIf(
      (error): error is JobsClientError => error._tag === "JobsClientError" && error.reason === "NotFound",
      () =>
        Effect.sync(() => {
          stderr.write(`warning: job ${jobId} has no traces on the server\n`)
          return []
        }),
    ),
  )
