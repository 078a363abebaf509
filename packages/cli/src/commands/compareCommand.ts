import { existsSync, statSync } from "node:fs"
import { ConfigError, loadEnv, openRunReader, type StoreError } from "@proctor/core"
import {
  type Comparison,
  compareTotals,
  comparisonVerdict,
  formatComparisonMarkdown,
  formatComparisonText,
  RunTotals,
  runScoring,
} from "@proctor/report"
import { Data, Effect, Option, Stream } from "effect"
import { type BackendSettings, backendRequested, resolveBackend } from "../backend/backendSettings.js"
import { describeJobsError } from "../backend/describeJobsError.js"
import { fetchJobResults, planOfJob } from "../backend/fetchJobResults.js"
import { JobsClient } from "../backend/JobsClient.js"
import type { JobsClientError } from "../backend/JobsClientError.js"
import { ExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { CompareOptions } from "../program/compare.js"

/** One side of the comparison: its per-seed totals and its pass threshold. */
interface ComparedRun {
  readonly totals: RunTotals
  readonly passThreshold: number
}

const usage = (message: string) => new ConfigError({ reason: "InvalidValue", message })

/** A job that could not be read, said as `proctor jobs` commands say it, with their exit code. */
class JobReadError extends Data.TaggedError("JobReadError")<{
  readonly message: string
  readonly exitCode: ExitCode
}> {}

/** A run directory's journal streamed into per-seed totals: a 100,000-rollout run is never held in memory. */
export const readRunTotals = (dir: string) =>
  Effect.gen(function* () {
    const reader = yield* openRunReader(dir)
    const totals = new RunTotals()
    yield* Stream.runForEachChunk(reader.results(), (chunk) =>
      Effect.sync(() => {
        for (const result of chunk) totals.add(result)
      }),
    )
    return { totals, passThreshold: runScoring(reader).passThreshold } satisfies ComparedRun
  })

/** A job's results from the job server's `GET /api/eval/jobs/{id}/results`, as `proctor jobs results` reads them. */
const readJob = (jobId: string, settings: BackendSettings) =>
  Effect.gen(function* () {
    const client = yield* JobsClient
    const job = yield* client.get(jobId)
    const plan = planOfJob(job)
    const { results } = yield* fetchJobResults(client, job, plan)
    const totals = new RunTotals()
    for (const result of results) totals.add(result)
    return { totals, passThreshold: plan.passThreshold } satisfies ComparedRun
  }).pipe(
    Effect.provide(JobsClient.layer(settings)),
    Effect.mapError((error: JobsClientError) => {
      const described = describeJobsError(error, { baseUrl: settings.baseUrl, jobId })
      return new JobReadError({ message: described.message, exitCode: described.exitCode })
    }),
  )

/**
 * `proctor compare A B`: run B against run A, seed by seed (@proctor/report's `compareResults`). A and B are
 * run directories, or job ids on the job server `--backend` names. Prints a table, `--json` or `--markdown`;
 * exits 1 with `--fail-if-worse` when B is significantly worse, 2 on bad input (a missing directory, no
 * seeds in common).
 */
export const compareCommand = (a: string, b: string, options: CompareOptions, io: Io): Effect.Effect<ExitCode> => {
  const fail = (message: string, code: ExitCode) =>
    Effect.sync(() => {
      io.stderr.write(`proctor compare: ${message}\n`)
      return code
    })
  return Effect.gen(function* () {
    if (options.json === true && options.markdown === true) {
      return yield* usage("--json and --markdown each choose the output: pass one of them")
    }
    const env = yield* loadEnv({ envFile: options.envFile, env: io.env })
    const isDirectory = (arg: string) => existsSync(arg) && statSync(arg).isDirectory()
    const needServer = !isDirectory(a) || !isDirectory(b)
    const server =
      needServer && backendRequested({ backend: options.backend }, env)
        ? Option.some(yield* resolveBackend({ backend: options.backend, apiKey: options.apiKey }, env))
        : Option.none()

    const read = (
      which: "A" | "B",
      arg: string,
    ): Effect.Effect<ComparedRun, ConfigError | StoreError | JobReadError> => {
      if (isDirectory(arg)) return readRunTotals(arg)
      if (existsSync(arg)) return Effect.fail(usage(`${which}: ${arg} is a file, not a run directory`))
      return Option.match(server, {
        onSome: (settings) => readJob(arg, settings),
        onNone: () =>
          Effect.fail(
            usage(
              `${which}: no run directory at ${arg}; to compare jobs of a job server, pass --backend URL (or set PROCTOR_BACKEND_URL)`,
            ),
          ),
      })
    }

    const runA = yield* read("A", a)
    const runB = yield* read("B", b)
    if (runB.passThreshold !== runA.passThreshold) {
      io.stderr.write(
        `warning: A passes at score ≥ ${runA.passThreshold}, B at ≥ ${runB.passThreshold}; flips use A's threshold\n`,
      )
    }
    const comparison = compareTotals(runA.totals, runB.totals, {
      passThreshold: runA.passThreshold,
      labels: { a, b },
    })
    if (comparison.pairs === 0) return yield* usage(noPairs(comparison, runA.totals, runB.totals))
    io.stdout.write(render(comparison, options))
    if (options.failIfWorse === true && comparison.verdict === "b_worse") {
      io.stderr.write(`--fail-if-worse: ${comparisonVerdict(comparison)}\n`)
      return ExitCode.Failed
    }
    return ExitCode.Ok
  }).pipe(
    Effect.catchTags({
      ConfigError: (error) => fail(error.message, ExitCode.Usage),
      StoreError: (error) => fail(error.message, error.reason === "Io" ? ExitCode.Failed : ExitCode.Usage),
      JobReadError: (error) => fail(error.message, error.exitCode),
    }),
  )
}

const render = (comparison: Comparison, options: CompareOptions): string => {
  if (options.json === true) return `${JSON.stringify(comparison, null, 2)}\n`
  if (options.markdown === true) return formatComparisonMarkdown(comparison)
  return `${formatComparisonText(comparison)}\n`
}

const noPairs = (c: Comparison, a: RunTotals, b: RunTotals): string =>
  `no seed is scored in both runs (A: ${a.rollouts} rollouts, ${a.scoredSeeds()} seeds scored; ` +
  `B: ${b.rollouts} rollouts, ${b.scoredSeeds()} seeds scored; ${c.excluded.errored} rollouts errored)`
