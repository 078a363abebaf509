import { Effect } from "effect"
import { downloadTraces } from "../backend/downloadTraces.js"
import { runJobsCommand } from "../backend/runJobsCommand.js"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { JobsTracesOptions } from "../program/jobs.js"

/** `proctor jobs traces ID --out DIR`: the job's `seed_{seed}_trace.json` files, from its traces zip. */
export const jobsTracesCommand = (jobId: string, options: JobsTracesOptions, io: Io): Effect.Effect<ExitCode> =>
  runJobsCommand("traces", options, io, jobId, (client) =>
    Effect.gen(function* () {
      const dir = options.out ?? `traces/${jobId}`
      const written = yield* downloadTraces(client, jobId, dir, io.stderr)
      if (options.json === true) io.stdout.write(`${JSON.stringify({ job_id: jobId, dir, files: written }, null, 2)}\n`)
      else if (written.length === 0) io.stdout.write(`no traces: nothing written, ${dir} not created\n`)
      else io.stdout.write(`${written.length} trace file${written.length === 1 ? "" : "s"} written to ${dir}\n`)
      return written.length === 0 ? ExitCode.Failed : ExitCode.Ok
    }),
  )
