import {
  type ConfigError,
  gradeRun,
  Interceptor,
  isModelGraderSpec,
  loadGradeSettings,
  loadPricingFile,
  Pricing,
  serveInterceptor,
} from "@proctor/core"
import { formatSummaryText } from "@proctor/report"
import { Effect } from "effect"
import { ExitCode, runExitCode } from "../exitCodes.js"
import type { Io } from "../Io.js"
import type { GradeOptions } from "../program/grade.js"

/**
 * `proctor grade RUN_DIR --grader …` (or `--config FILE`, its `[[eval.graders]]` and `[eval.judge]`): a new grader
 * set over a finished run's answers (core's `gradeRun`), its summary printed like a run's; `proctor compare RUN_DIR
 * RUN_DIR/grades/NAME` compares it with the run's own scores.
 */
export const gradeCommand = (runDir: string, options: GradeOptions, io: Io): Effect.Effect<ExitCode> =>
  Effect.gen(function* () {
    const { specs, judge, warnings } = yield* loadGradeSettings({
      graders: options.grader,
      judge: options.judge,
      configPath: options.config,
    })
    for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`)
    // Model graders ask their judge through an interceptor of the command's own, so each call is traced and priced.
    const interception = specs.some(isModelGraderSpec)
      ? yield* Effect.tap(
          Interceptor.make({
            priceCall: (yield* Pricing.make(
              options.pricing === undefined ? [] : yield* loadPricingFile(options.pricing),
            )).costOf,
          }),
          serveInterceptor,
        )
      : undefined
    const graded = yield* gradeRun({ runDir, specs, name: options.name, judge, interception, env: io.env })
    if (options.json === true) {
      io.stdout.write(
        `${JSON.stringify({ grader_set: graded.name, dir: graded.dir, summary: graded.summary }, null, 2)}\n`,
      )
    } else {
      const resumed = graded.resumed > 0 ? ` (${graded.resumed} graded by an earlier session)` : ""
      io.stdout.write(`${formatSummaryText(graded.summary)}\n\n`)
      io.stdout.write(`grader set ${graded.name}: ${graded.dir} · ${graded.graded} rollouts graded${resumed}\n`)
      io.stdout.write(`compare with the run's own scores: proctor compare ${runDir} ${graded.dir}\n`)
    }
    return runExitCode(graded.summary, null, io.stderr)
  }).pipe(
    Effect.scoped,
    Effect.catchTags({
      ConfigError: (error: ConfigError) =>
        Effect.sync(() => {
          io.stderr.write(`proctor grade: ${error.message}\n`)
          return ExitCode.Usage
        }),
      StoreError: (error) =>
        Effect.sync(() => {
          io.stderr.write(`proctor grade: ${error.message}\n`)
          return error.reason === "Io" ? ExitCode.Failed : ExitCode.Usage
        }),
    }),
  )
